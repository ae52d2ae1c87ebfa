/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The job's own tasks' CPU migrations, summed over every task it made (the
 * kernel's se.nr_migrations, which no exit sums into a parent): a perf
 * software counter on each CPU, counting while a task of the job's
 * cgroup runs there.
 */
#ifndef CONTEST_JOBPERF_H
#define CONTEST_JOBPERF_H

#include <stddef.h>

struct jobperf {
	int	*fd;		/* a counter a CPU */
	size_t	 n;
	char	 why[160];	/* why there is none, where there is none */
};

/* Where wanted (--job-migrations), open the counters on the job's cgroup
 * (its directory; -1: it has none) before the job is born into it; or
 * say why not. */
void	jobperf_open(struct jobperf *, int wanted, int cg_dir_fd);
/* Once the job has ended: the count, or -1 (why in jp->why); the
 * counters closed either way.  Safe to call unopened. */
long long jobperf_take(struct jobperf *);
/* Given up without a count. */
void	jobperf_close(struct jobperf *);

#endif
