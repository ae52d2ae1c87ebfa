/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sysinfo.h"
#include "util.h"

static void
copy(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		n = len - 1;	/* truncation is fine for a label */
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* The value after "key<blanks>:" in a /proc text file, trimmed. */
static int
proc_field(const char *path, const char *key, char *out, size_t len)
{
	FILE *f = fopen(path, "re");
	char line[512];
	size_t klen = strlen(key);
	int found = 0;

	if (f == NULL)
		return 0;
	while (!found && fgets(line, sizeof line, f)) {
		if (strncmp(line, key, klen) != 0)
			continue;
		char *p = line + klen;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != ':')
			continue;
		for (p++; *p == ' ' || *p == '\t'; p++)
			;
		p[strcspn(p, "\n")] = '\0';
		copy(out, len, p);
		found = 1;
	}
	fclose(f);
	return found;
}

static long long
sys_number(const char *path)
{
	char buf[64];
	long long v;

	read_line(path, buf, sizeof buf);
	return sscanf(buf, "%lld", &v) == 1 ? v : -1;
}

static long
usable_cpus(long online)
{
#ifdef HAVE_SCHED_SETAFFINITY
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
#endif
	return online;
}

/*
 * The running kernel's GNU build ID from /sys/kernel/notes, its ELF
 * notes (namesz, descsz, type, then name and desc, each padded to 4
 * bytes): what tells two builds of one release apart, where uname -r
 * cannot.  "" when there is none.
 */
static void
build_id(char *out, size_t len)
{
	unsigned char b[4096];
	ssize_t n = read_small("/sys/kernel/notes", (char *)b, sizeof b);

	out[0] = '\0';
	for (size_t off = 0; n > 0 && off + 12 <= (size_t)n;) {
		uint32_t nsz, dsz, type;
		memcpy(&nsz, b + off, 4);
		memcpy(&dsz, b + off + 4, 4);
		memcpy(&type, b + off + 8, 4);
		size_t name = off + 12, desc = name + ((nsz + 3u) & ~3u);
		if (nsz > (size_t)n || dsz > (size_t)n || desc + dsz > (size_t)n)
			return;
		if (type == 3 && nsz == 4 && memcmp(b + name, "GNU", 4) == 0 &&
		    dsz > 0 && 2 * dsz < len) {	/* NT_GNU_BUILD_ID */
			for (uint32_t i = 0; i < dsz; i++)
				snprintf(out + 2 * i, 3, "%02x", b[desc + i]);
			return;
		}
		off = desc + ((dsz + 3u) & ~3u);
	}
}

void
sysinfo_collect(struct sysinfo *si)
{
	struct utsname u;
	char buf[64];

	memset(si, 0, sizeof *si);
	if (gethostname(si->host, sizeof si->host - 1) < 0)
		copy(si->host, sizeof si->host, "unknown");
	if (uname(&u) == 0) {
		copy(si->kernel, sizeof si->kernel, u.release);
		copy(si->kversion, sizeof si->kversion, u.version);
		copy(si->machine, sizeof si->machine, u.machine);
	}
	build_id(si->build_id, sizeof si->build_id);
	/* which boot: a kernel compared across reboots is compared boot by
	 * boot, each boot a sample of its own */
	if (read_small("/proc/sys/kernel/random/boot_id", si->boot_id,
	    sizeof si->boot_id) > 0)
		si->boot_id[strcspn(si->boot_id, "\n")] = '\0';
	else
		si->boot_id[0] = '\0';
	si->cpus_online = sysconf(_SC_NPROCESSORS_ONLN);
	if (si->cpus_online < 1)
		si->cpus_online = 1;
	si->nproc = usable_cpus(si->cpus_online);
	if (!proc_field("/proc/cpuinfo", "model name", si->cpu_model,
	    sizeof si->cpu_model) &&
	    !proc_field("/proc/cpuinfo", "Processor", si->cpu_model,
	    sizeof si->cpu_model))
		copy(si->cpu_model, sizeof si->cpu_model, si->machine);
	if (proc_field("/proc/meminfo", "MemTotal", buf, sizeof buf))
		sscanf(buf, "%lld", &si->mem_total_kb);
	else {
		long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
		if (pages > 0 && psz > 0)
			si->mem_total_kb = (long long)pages * psz / 1024;
	}
#define CPUFREQ "/sys/devices/system/cpu/cpu0/cpufreq/"
	read_line(CPUFREQ "scaling_governor", si->governor, sizeof si->governor);
	si->freq_cur_khz = sys_number(CPUFREQ "scaling_cur_freq");
	si->freq_min_khz = sys_number(CPUFREQ "scaling_min_freq");
	si->freq_max_khz = sys_number(CPUFREQ "scaling_max_freq");
	long long smt = sys_number("/sys/devices/system/cpu/smt/active");
	si->smt = smt < 0 ? -1 : smt > 0;
	read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
	    si->clocksource, sizeof si->clocksource);
}
