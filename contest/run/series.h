/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --series: what the job lived through second by second.  The driver,
 * asleep in its one wait for the job, wakes on a deadline once a second
 * and reads the job's cgroup (CPU time, cpu.pressure), the load's
 * headline counter in its shared page, and the probe's histogram; each
 * sample covers the time since the one before.
 */
#ifndef CONTEST_SERIES_H
#define CONTEST_SERIES_H

#include <stddef.h>

#include "cgroup.h"
#include "probe.h"

#define SERIES_PERIOD_S	1.0

struct series {
	size_t		 n, cap;
	/* t: the sample's end in seconds since the job's fork; the others
	 * over the interval it closes, NaN where not measured */
	double		*t, *cpu, *wait, *rate, *p99;
	int		 gauge;		/* rate is the headline's level, not per s */
};

struct series_src {
	struct series	*out;
	const struct cgroup *job;	/* NULL: no job cgroup */
	const _Atomic unsigned long long *counter;	/* NULL: no load */
	int		 gauge;
	struct probe	*probe;		/* NULL: none */
	double		 t0, t_prev, cpu_prev;
	unsigned long long wait_prev, count_prev;
	int		 have_wait;
	struct probe_rec *prev, *cur;
};

/*
 * Begin at t0 with the values the run read just before the job's fork:
 * the job cgroup's cpu.pressure "some" (have_wait 0: none), the headline
 * counter, the probe's histogram (prev, NULL without a probe).
 */
void	series_begin(struct series_src *, struct series *, double t0, int have_wait,
	    unsigned long long wait_us, unsigned long long count,
	    const struct probe_rec *prev);
/* One sample closing at now (mono_now()). */
void	series_sample(struct series_src *, double now);
void	series_end(struct series_src *);
void	series_free(struct series *);

struct json;
/* "series": {"period_s", "t_s", "cpu_pct", "wait_pct", "load_rate" or
 * "load_level", "probe_p99_us"}, each present where measured. */
void	series_json(struct json *, const struct series *);

#endif
