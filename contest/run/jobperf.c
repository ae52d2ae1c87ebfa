/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The job's migrations, counted on the job's cgroup: one perf software
 * counter a CPU (PERF_FLAG_PID_CGROUP), live only while a task of that
 * cgroup is on the CPU: orphans are counted, the load's tasks never.  The
 * kernel counts a migration as the task runs on its new CPU, on that
 * CPU's counter; the sum is the job's.  Asked for, not by default: with
 * any such counter open every context switch passes through perf's
 * hooks, and a pipe's round trip took some 10% longer here (as it did
 * with a counter each task inherits: scripts/bench/migrations).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_LINUX_PERF_EVENT_H
#include <linux/perf_event.h>
#include <sys/syscall.h>
#endif

#include "jobperf.h"
#include "util.h"

#ifdef HAVE_LINUX_PERF_EVENT_H
/* Why the kernel refused, in its own setting's words where that is it. */
static void
refused(struct jobperf *jp, int e)
{
	char p[16];

	read_line("/proc/sys/kernel/perf_event_paranoid", p, sizeof p);
	if ((e == EACCES || e == EPERM) && p[0])
		snprintf(jp->why, sizeof jp->why,
		    "perf_event_paranoid %s: no CPU-wide counter for a user without CAP_PERFMON (%s)",
		    p, strerror(e));
	else if (e == ENOSYS || e == ENOENT || e == EOPNOTSUPP)
		snprintf(jp->why, sizeof jp->why, "the kernel has no perf events (%s)",
		    strerror(e));
	else if (e == EBADF)
		snprintf(jp->why, sizeof jp->why,
		    "the job's cgroup is not in the perf_event hierarchy (cgroup v1's)");
	else
		snprintf(jp->why, sizeof jp->why, "perf_event_open: %s", strerror(e));
}
#endif

void
jobperf_open(struct jobperf *jp, int wanted, int cg_dir_fd)
{
	jp->fd = NULL;
	jp->n = 0;
	jp->why[0] = '\0';
	if (!wanted) {
		snprintf(jp->why, sizeof jp->why, "not counted (no --job-migrations)");
		return;
	}
	if (cg_dir_fd < 0) {
		snprintf(jp->why, sizeof jp->why, "the job has no cgroup of its own to count");
		return;
	}
#ifdef HAVE_LINUX_PERF_EVENT_H
	struct perf_event_attr a;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_MIGRATIONS;
	a.exclude_hv = 1;
	jp->fd = xcalloc(ncpu > 0 ? (size_t)ncpu : 1, sizeof *jp->fd);
	for (long c = 0; c < ncpu; c++) {
		long fd = syscall(SYS_perf_event_open, &a, cg_dir_fd, (int)c, -1,
		    PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0) {
			jp->fd[jp->n++] = (int)fd;
		} else if (errno != ENODEV && errno != EINVAL) {
			/* (an offline CPU is ENODEV or EINVAL: nothing to count) */
			refused(jp, errno);
			jobperf_close(jp);
			return;
		}
	}
	if (jp->n == 0) {
		snprintf(jp->why, sizeof jp->why, "perf_event_open: no CPU took a counter");
		jobperf_close(jp);
	}
#else
	snprintf(jp->why, sizeof jp->why, "no perf events on this system");
#endif
}

long long
jobperf_take(struct jobperf *jp)
{
	long long sum = 0;

	if (jp->n == 0)
		return -1;
	for (size_t i = 0; i < jp->n && sum >= 0; i++) {
		unsigned long long v;
		if (read(jp->fd[i], &v, sizeof v) == (ssize_t)sizeof v) {
			sum += (long long)v;
		} else {
			snprintf(jp->why, sizeof jp->why, "reading the counter: %s",
			    strerror(errno));
			sum = -1;
		}
	}
	jobperf_close(jp);
	return sum;
}

void
jobperf_close(struct jobperf *jp)
{
	for (size_t i = 0; i < jp->n; i++)
		close(jp->fd[i]);
	free(jp->fd);
	jp->fd = NULL;
	jp->n = 0;
}
