/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "json.h"
#include "keys.h"
#include "provenance.h"
#include "sha256.h"
#include "util.h"

/* The first line of a command's output (run by sh, stderr dropped), or "". */
static void
first_line(const char *cmd, char *out, size_t len)
{
	FILE *p = popen(cmd, "r");

	out[0] = '\0';
	if (p == NULL)
		return;
	if (fgets(out, (int)len, p) == NULL)
		out[0] = '\0';
	while (fgetc(p) != EOF)
		;
	if (pclose(p) != 0)
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

/* A config option the scheduler's behaviour depends on. */
static int
sched_option(const char *line)
{
	static const char *const prefix[] = { "CONFIG_HZ", "CONFIG_PREEMPT",
	    "CONFIG_NO_HZ", "CONFIG_SCHED_", "CONFIG_FAIR_GROUP_SCHED",
	    "CONFIG_CGROUP_SCHED", "CONFIG_RT_GROUP_SCHED", "CONFIG_CFS_BANDWIDTH",
	    "CONFIG_UCLAMP", "CONFIG_NUMA_BALANCING", "CONFIG_PSI",
	    "CONFIG_TRANSPARENT_HUGEPAGE=", "CONFIG_EXT_GROUP_SCHED" };

	for (size_t i = 0; i < sizeof prefix / sizeof prefix[0]; i++)
		if (strncmp(line, prefix[i], strlen(prefix[i])) == 0)
			return 1;
	return 0;
}

/* The running kernel's config: /boot's, else /proc/config.gz through
 * gzip; its hash, HZ and the scheduler's options. */
static void
kernel_config(struct provenance *p)
{
	struct utsname u;
	char path[600], line[512];
	FILE *f = NULL;
	int piped = 0;
	struct sha256 h;

	if (uname(&u) == 0) {
		snprintf(path, sizeof path, "/boot/config-%s", u.release);
		f = fopen(path, "re");
	}
	if (f == NULL && access("/proc/config.gz", R_OK) == 0 &&
	    (f = popen("gzip -dc /proc/config.gz 2>/dev/null", "r")) != NULL)
		piped = 1;
	if (f == NULL)
		return;
	sha256_init(&h);
	size_t used = 0, n = 0;
	while (fgets(line, sizeof line, f)) {
		sha256_update(&h, line, strlen(line));
		n++;
		line[strcspn(line, "\n")] = '\0';
		(void)sscanf(line, "CONFIG_HZ=%d", &p->hz);
		if (sched_option(line) && used < sizeof p->config)
			used += (size_t)snprintf(p->config + used, sizeof p->config - used,
			    "%s%s", used ? " " : "", line + 7);	/* without CONFIG_ */
	}
	if (piped ? pclose(f) != 0 : fclose(f) != 0)
		n = 0;
	if (n > 0)
		sha256_hex(&h, p->config_sha256);
	else
		p->config[0] = '\0';
}

/* "3 mitigated, 1 vulnerable (gds), 12 not affected". */
static void
mitigations(struct provenance *p)
{
	DIR *d = opendir("/sys/devices/system/cpu/vulnerabilities");
	struct dirent *e;
	int mit = 0, vul = 0, na = 0;
	char vulnerable[200] = "", path[600], buf[256];

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/sys/devices/system/cpu/vulnerabilities/%s",
		    e->d_name);
		read_line(path, buf, sizeof buf);
		if (strncmp(buf, "Not affected", 12) == 0)
			na++;
		else if (strncmp(buf, "Vulnerable", 10) == 0) {
			size_t l = strlen(vulnerable);
			if (l + strlen(e->d_name) + 2 < sizeof vulnerable)
				snprintf(vulnerable + l, sizeof vulnerable - l, "%s%.60s",
				    l ? " " : "", e->d_name);
			vul++;
		} else if (buf[0])
			mit++;
	}
	closedir(d);
	snprintf(p->mitigations, sizeof p->mitigations,
	    "%d mitigated, %d vulnerable%s%s%s, %d not affected", mit, vul,
	    vul ? " (" : "", vulnerable, vul ? ")" : "", na);
}

void
provenance_sched_ext(char *out, size_t len)
{
	char buf[64], ops[128];

	out[0] = '\0';
	read_line("/sys/kernel/sched_ext/state", buf, sizeof buf);
	if (buf[0]) {
		read_line("/sys/kernel/sched_ext/root/ops", ops, sizeof ops);
		snprintf(out, len, "%.30s%s%.120s", buf, ops[0] ? " " : "", ops);
	} else if (access("/sys/kernel", F_OK) == 0)
		snprintf(out, len, "none");
}

void
provenance_read(struct provenance *p, const char *dir)
{
	struct utsname u;
	char buf[256], cmd[4400], digest[65];

	memset(p, 0, sizeof *p);
	p->autogroup = p->hz = p->git_dirty = -1;
	read_line("/proc/cmdline", p->cmdline, sizeof p->cmdline);
	read_line("/proc/sys/kernel/sched_autogroup_enabled", buf, sizeof buf);
	if (buf[0])
		p->autogroup = atoi(buf);
	provenance_sched_ext(p->sched_ext, sizeof p->sched_ext);
	if (uname(&u) == 0) {
		const char *m = strstr(u.version, "PREEMPT_RT") ? "PREEMPT_RT" :
		    strstr(u.version, "PREEMPT_DYNAMIC") ? "PREEMPT_DYNAMIC" :
		    strstr(u.version, "PREEMPT") ? "PREEMPT" : "none";
		read_line("/sys/kernel/debug/sched/preempt", buf, sizeof buf);
		/* the file ends "full (lazy) laziest \n": no trailing blank */
		for (size_t n = strlen(buf); n && buf[n - 1] == ' '; n--)
			buf[n - 1] = '\0';
		snprintf(p->preempt, sizeof p->preempt, "%s%s%.60s", m,
		    buf[0] ? " " : "", buf);
	}
	kernel_config(p);
	mitigations(p);
	read_line("/sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof buf);
	char *l = strchr(buf, '['), *r = l ? strchr(l, ']') : NULL;
	if (l && r)
		snprintf(p->thp, sizeof p->thp, "%.*s", (int)(r - l - 1), l + 1);
	read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver",
	    p->cpufreq_driver, sizeof p->cpufreq_driver);

	/* the job's tree; a directory name with a quote is not asked about */
	if (strchr(dir, '\'') == NULL) {
		snprintf(cmd, sizeof cmd, "git -C '%s' rev-parse HEAD 2>/dev/null", dir);
		first_line(cmd, p->git_head, sizeof p->git_head);
		if (p->git_head[0]) {
			snprintf(cmd, sizeof cmd, "git -C '%s' status --porcelain "
			    "--untracked-files=no 2>/dev/null | head -1; echo .", dir);
			first_line(cmd, buf, sizeof buf);
			p->git_dirty = strcmp(buf, ".") != 0;
		}
	}
	snprintf(cmd, sizeof cmd, "%s/.config", dir);
	if (sha256_file(AT_FDCWD, cmd, digest) == 0)
		snprintf(p->tree_config_sha256, sizeof p->tree_config_sha256, "%s", digest);
	first_line("cc --version 2>/dev/null", p->cc, sizeof p->cc);
	first_line("ld --version 2>/dev/null", p->ld, sizeof p->ld);
}

void
provenance_json(struct json *j, const struct provenance *p, const char *sched_ext)
{
	json_kstr_or_null(j, PRK_NAME(CMDLINE), p->cmdline);
	json_kint_or_null(j, PRK_NAME(AUTOGROUP), p->autogroup);
	json_kstr_or_null(j, PRK_NAME(SCHED_EXT), sched_ext);
	json_kstr_or_null(j, PRK_NAME(PREEMPT), p->preempt);
	json_kint_or_null(j, PRK_NAME(HZ), p->hz);
	json_kstr_or_null(j, PRK_NAME(CONFIG_SHA256), p->config_sha256);
	json_kstr_or_null(j, PRK_NAME(CONFIG), p->config);
	json_kstr_or_null(j, PRK_NAME(MITIGATIONS), p->mitigations);
	json_kstr_or_null(j, PRK_NAME(THP), p->thp);
	json_kstr_or_null(j, PRK_NAME(CPUFREQ_DRIVER), p->cpufreq_driver);
}

void
provenance_job_json(struct json *j, const struct provenance *p)
{
	json_kstr_or_null(j, JK_NAME(GIT_HEAD), p->git_head);
	json_key(j, JK_NAME(GIT_DIRTY));
	if (p->git_dirty < 0)
		json_null(j);
	else
		json_bool(j, p->git_dirty);
	json_kstr_or_null(j, JK_NAME(CONFIG_SHA256), p->tree_config_sha256);
	json_kstr_or_null(j, JK_NAME(CC), p->cc);
	json_kstr_or_null(j, JK_NAME(LD), p->ld);
}

long long
steal_ticks(void)
{
	char buf[512];
	unsigned long long v[8];

	if (read_small("/proc/stat", buf, sizeof buf) < 0 ||
	    sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
	    &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
		return -1;
	return (long long)v[7];
}
