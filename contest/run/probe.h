/*
 * The latency probe (--latency): during every run, no_load included, a
 * small process with the job's CPU affinity and policy (and its own nice)
 * wakes at absolute deadlines every period, records how late each
 * wake-up was, does a fixed small piece of work, and counts the periods
 * whose work was done before the next deadline, as interbench's audio
 * and video tasks do.  It runs outside the job's cgroup, in its own
 * process group, killed with the driver like a load.
 */
#ifndef CONTEST_PROBE_H
#define CONTEST_PROBE_H

#include <stdatomic.h>
#include <sys/types.h>

#include "hist.h"
#include "schedopt.h"

struct probe_shm {
	struct hist_shared late;	/* wake-up lateness, ns */
	_Atomic unsigned long long periods, met;
	atomic_int ready, failed;
	char	 why[160];
};

struct probe_cfg {
	unsigned	 period_ms;	/* 0: no probe */
	int		 nice;
	int		 has_nice;	/* else the job's */
	unsigned long long work;	/* spin iterations per period */
};

struct probe {
	pid_t		 pid;		/* 0: none running */
	struct probe_shm *shm;
};

/* What one run saw of it: counts during the job. */
struct probe_rec {
	int		 ran;
	unsigned long long hist[HIST_BUCKETS], lat_min, lat_max;
	unsigned long long periods, met;
};

/* Iterations of the probe's work that take about frac of period_ms on
 * this machine, measured once. */
unsigned long long probe_calibrate(unsigned period_ms, double frac);

/* Start it (cfg->period_ms 0: nothing); 0, or -1 with why. */
int	probe_start(struct probe *, const struct probe_cfg *,
	    const struct sched_set *job, char *why, size_t whylen);
/* The counters now; start: begin the extremes anew. */
void	probe_snap(const struct probe *, struct probe_rec *, int start);
/* The run's share: b minus a, extremes from b. */
void	probe_delta(const struct probe_rec *a, const struct probe_rec *b,
	    struct probe_rec *out);
void	probe_stop(struct probe *);

#endif
