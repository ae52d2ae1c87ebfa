/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The scheduler's own counters, where the kernel keeps them
 * (/proc/schedstat: CONFIG_SCHEDSTATS, or CONFIG_SCHED_INFO's per-CPU
 * run-queue times): per CPU the time tasks ran, the time runnable tasks
 * waited on its run queue, and the timeslices run.  Read at both ends of
 * the job; machine-wide, as PSI is.
 */
#ifndef CONTEST_SCHEDSTAT_H
#define CONTEST_SCHEDSTAT_H

#include <stddef.h>

#define SCHEDSTAT_CPUS	256	/* CPUs listed one by one; all are summed */

struct schedstat {
	int		 ok;		/* 0: none; why says why */
	int		 version;
	size_t		 n;		/* CPUs listed */
	int		 cpu[SCHEDSTAT_CPUS];
	/* ns, ns, count: per CPU listed, and over every CPU */
	unsigned long long run[SCHEDSTAT_CPUS], wait[SCHEDSTAT_CPUS],
			 slices[SCHEDSTAT_CPUS];
	unsigned long long run_all, wait_all, slices_all;
	char		 why[96];
};

/* Read /proc/schedstat (path NULL) or a file laid out as it is. */
void	schedstat_read(struct schedstat *, const char *path);
/* b minus a into out, CPU by CPU; out->ok 0 (with why) unless both are
 * and they list the same CPUs. */
void	schedstat_delta(const struct schedstat *a, const struct schedstat *b,
	    struct schedstat *out);

#endif
