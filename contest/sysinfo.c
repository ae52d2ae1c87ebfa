#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sysinfo.h"

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
	si->nproc = sysconf(_SC_NPROCESSORS_ONLN);
	if (si->nproc < 1)
		si->nproc = 1;
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
}
