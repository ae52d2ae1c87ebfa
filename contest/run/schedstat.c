/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedstat.h"

/*
 * "cpuN f1 ... f9 ...": versions 15 to 17 keep the run-queue's time
 * running, time waiting and timeslices as the 7th to 9th numbers after
 * the CPU's name (sched_info's rq_cpu_time, run_delay, pcount).
 */
static int
cpu_line(struct schedstat *s, const char *line)
{
	unsigned long long f[9];
	int cpu, used = 0;

	if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu %llu%n", &cpu,
	    &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &used) != 10)
		return -1;
	s->run_all += f[6];
	s->wait_all += f[7];
	s->slices_all += f[8];
	if (s->n < SCHEDSTAT_CPUS) {
		s->cpu[s->n] = cpu;
		s->run[s->n] = f[6];
		s->wait[s->n] = f[7];
		s->slices[s->n++] = f[8];
	}
	return 0;
}

void
schedstat_read(struct schedstat *s, const char *path)
{
	char line[1024];
	FILE *f;

	memset(s, 0, sizeof *s);
	if ((f = fopen(path ? path : "/proc/schedstat", "re")) == NULL) {
		snprintf(s->why, sizeof s->why, errno == ENOENT ? "no /proc/schedstat "
		    "(a kernel without CONFIG_SCHEDSTATS)" : "/proc/schedstat: %s",
		    strerror(errno));
		return;
	}
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "version %d", &s->version) == 1)
			continue;
		if (strncmp(line, "cpu", 3) == 0 && cpu_line(s, line) < 0) {
			snprintf(s->why, sizeof s->why, "/proc/schedstat version %d: a "
			    "CPU line not as versions 15 to 17 lay it out", s->version);
			fclose(f);
			return;
		}
	}
	fclose(f);
	if (s->version < 15 || s->n == 0)
		snprintf(s->why, sizeof s->why, "/proc/schedstat version %d, %zu CPUs: "
		    "not read (versions 15 to 17 are)", s->version, s->n);
	else
		s->ok = 1;
}

void
schedstat_delta(const struct schedstat *a, const struct schedstat *b,
    struct schedstat *out)
{
	memset(out, 0, sizeof *out);
	if (!a->ok || !b->ok || a->n != b->n) {
		snprintf(out->why, sizeof out->why, "%s", !a->ok ? a->why : !b->ok ?
		    b->why : "/proc/schedstat's CPUs changed during the job");
		return;
	}
	for (size_t i = 0; i < a->n; i++)
		if (a->cpu[i] != b->cpu[i]) {
			snprintf(out->why, sizeof out->why, "/proc/schedstat's CPUs "
			    "changed during the job");
			return;
		}
	out->ok = 1;
	out->version = b->version;
	out->n = b->n;
	for (size_t i = 0; i < b->n; i++) {
		out->cpu[i] = b->cpu[i];
		out->run[i] = b->run[i] - a->run[i];
		out->wait[i] = b->wait[i] - a->wait[i];
		out->slices[i] = b->slices[i] - a->slices[i];
	}
	out->run_all = b->run_all - a->run_all;
	out->wait_all = b->wait_all - a->wait_all;
	out->slices_all = b->slices_all - a->slices_all;
}
