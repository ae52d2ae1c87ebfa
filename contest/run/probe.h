/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The latency probe (--latency): during every run, no_load included, a
 * small process with the job's CPU affinity and policy (and its own nice)
 * wakes at absolute deadlines on a fixed grid, records how late each
 * wake-up was, does a fixed small piece of work (none by default: a pure
 * wake-up, as cyclictest's), and counts the periods whose work was done
 * before the next deadline.  A probe that falls behind does not catch up
 * in a burst: it skips to the next grid point, and every deadline it
 * skipped is counted as missed, as interbench counts them.  It runs
 * outside the job's cgroup, in its own process group, killed with the
 * driver like a load.
 */
#ifndef CONTEST_PROBE_H
#define CONTEST_PROBE_H

#include <stdatomic.h>
#include <sys/types.h>

#include "hist.h"
#include "schedopt.h"

struct probe_shm {
	struct hist_shared late;	/* wake-up lateness, ns */
	/* wake-ups, and those whose work was done by the next deadline */
	_Atomic unsigned long long periods, met;
	unsigned long long origin;	/* the grid: origin + k x period, ns */
	atomic_int ready, failed;
	atomic_int locked;	/* its memory locked (mlockall) */
	char	 why[160];
};

/* --probe-cpus: at most this many probe tasks, one a CPU. */
#define PROBE_CPUS_MAX	256

struct probe_cfg {
	unsigned	 period_ms;	/* 0: no probe */
	int		 nice;
	int		 has_nice;	/* else the job's */
	/* --probe-cpus (cpus.has_cpus: a task pinned to each; all: every
	 * CPU this process may use) and --probe-policy (policy.has_policy);
	 * either makes it cyclictest's: memory locked, and
	 * /dev/cpu_dma_latency held at 0 while it runs */
	struct sched_set cpus, policy;
	int		 all_cpus;
	unsigned	 work_mpct;	/* --probe-work: thousandths of a percent
					 * of a CPU */
	unsigned long long work;	/* spin iterations per period */
};

struct probe_rec;

struct probe {
	size_t		 n;		/* tasks running: 0, 1, or one a CPU */
	size_t		 nmap;		/* shm's length */
	int		 per_cpu;	/* a task a CPU (--probe-cpus) */
	pid_t		*pid;
	struct probe_shm *shm;		/* n of them, one mapping */
	int		*cpu;		/* each one's CPU; -1: the job's CPUs */
	unsigned long long period;	/* ns */
	/* with a task a CPU, each one's reads at the job's start and end */
	struct probe_rec *at[2];
	int		 dma_fd;	/* /dev/cpu_dma_latency held at 0, or -1 */
	char		 dma_why[120];	/* why not, or "" */
};

/* One CPU's probe over a run (--probe-cpus): its wake-up lateness's p99
 * and max (ns, the p99 to the histogram's precision), wake-ups, and its
 * deadlines met of those that passed. */
struct probe_cpu {
	int		 cpu;
	double		 p99;
	unsigned long long max, samples, met, deadlines;
};

/* What one run saw of it: counts during the job. */
struct probe_rec {
	int		 ran;
	unsigned long long hist[HIST_BUCKETS], lat_min, lat_max;
	unsigned long long periods, met;
	/* the grid's deadlines that passed: read off the clock, not the
	 * probe (a starved probe counts nothing while it waits for a CPU);
	 * skipped: those no wake-up served */
	unsigned long long deadlines, skipped;
	unsigned long long at, origin, period;	/* the snapshot's time, ns */
	long long	 cpu_ns;	/* its own CPU time; -1 unknown */
};

/* Iterations of the probe's work that take about frac of period_ms on
 * this machine, measured once. */
unsigned long long probe_calibrate(unsigned period_ms, double frac);

/* Start it (cfg->period_ms 0: nothing); 0, or -1 with why. */
int	probe_start(struct probe *, const struct probe_cfg *,
	    const struct sched_set *job, char *why, size_t whylen);
/* The counters now, every task's summed; start: begin the extremes anew
 * (and, with a task a CPU, keep each one's as the start, else as the
 * end). */
void	probe_snap(struct probe *, struct probe_rec *, int start);
/* A snapshot's place on the clock set to t (mono_now() seconds), the
 * job's end: the deadlines counted are the job's, not the driver's way
 * to its snapshot (a starved driver came to it late); a period done
 * after t is the next window's (probe_delta). */
void	probe_window(struct probe *, struct probe_rec *, int start, double t);
/* The run's share: b minus a, extremes from b. */
void	probe_delta(const struct probe_rec *a, const struct probe_rec *b,
	    struct probe_rec *out);
/*
 * The run's share as results keep it: with one task, probe_delta(a, b);
 * with a task a CPU, the worst CPU's (the highest p99, then max), each
 * CPU's in pc[0..n) and n in *npc.  Returns the worst CPU, or -1.
 */
int	probe_take(const struct probe *, const struct probe_rec *a,
	    const struct probe_rec *b, struct probe_rec *out, struct probe_cpu *pc,
	    size_t *npc);
/* Whether every task locked its memory. */
int	probe_locked(const struct probe *);
void	probe_stop(struct probe *);

#endif
