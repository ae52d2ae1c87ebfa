/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A load's life in one run (loadrun.c). */
#ifndef CONTEST_LOADRUN_H
#define CONTEST_LOADRUN_H

#include "cgroup.h"
#include "session.h"

struct active_load {
	const struct loadspec *spec;
	struct load_shm	*shm;
	int		 shm_fd;	/* the page's, until the workers have it */
	pid_t		 pgid;
	pid_t		*pids;
	unsigned	 n;
	double		 started;
	long long	 oom0;		/* oom_kill count when it started */
	struct cgroup	 cg;		/* cg.procs_fd < 0: none */
};

struct snap {
	unsigned long long counter[LOAD_MAX_COUNTERS];
	unsigned long long hist[LOAD_HIST_BUCKETS];
	unsigned long long lat_min, lat_max;
};

/* Fork the load's workers and wait until each is ready: 0, or -1 with
 * why (al is then for stop_load() to clean up). */
int	start_load(const struct loadspec *, const char *workdir, int dirfd,
	    const struct sched_set *, long long pids_max, struct active_load *,
	    char *why, size_t whylen);
/* Stop it, reap all of it, and (rec) note whether it had died early,
 * its CPU time, life, counters and the OOM kills while it ran. */
void	stop_load(struct active_load *, struct run_record *rec);
/* usr+sys of every process of the load; -1 without /proc or a cgroup. */
double	load_cpu_now(const struct active_load *);
/* The load's counters now; start: and begin its latency extremes anew. */
void	snapshot(const struct active_load *, struct snap *, int start);
/* The lead, asleep, measuring the headline's rate alone (rec->fig[]). */
void	solo_rate(const struct session *, const struct active_load *,
	    const struct loadspec *, struct run_record *);

#endif
