/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scheduling knobs for the loads and the job: nice, policy (SCHED_OTHER,
 * SCHED_BATCH, SCHED_IDLE; the job also SCHED_FIFO and SCHED_RR with a
 * priority, as chrt takes them, and SCHED_DEADLINE with its runtime,
 * deadline and period, reset on fork) and CPU affinity in taskset's list
 * syntax.
 * Set in the child between fork and exec (or the load's run); a knob
 * the kernel refuses fails that start, never silently.
 */
#ifndef CONTEST_SCHEDOPT_H
#define CONTEST_SCHEDOPT_H

#include <stddef.h>

#define SCHED_CPUS_MAX 1024

struct sched_set {
	int		 has_nice, nice;
	int		 has_policy, policy;	/* index into sched_policy_names */
	int		 prio;		/* SCHED_FIFO's or SCHED_RR's priority */
	unsigned long long dl[3];	/* SCHED_DEADLINE's runtime, deadline,
					 * period, us */
	int		 has_cpus;
	unsigned long	 cpus[SCHED_CPUS_MAX / (8 * sizeof(unsigned long))];
	char		 cpus_text[128];	/* the list as normalised */
};

struct sched_opts {
	struct sched_set load, job;
};

/* "other", "batch", "idle", then the real-time ones, "fifo", "rr",
 * "deadline" */
extern const char *const sched_policy_names[];
enum { SCHED_POL_FIFO = 3, SCHED_POL_RR, SCHED_POL_DEADLINE };

/*
 * "other", "batch" or "idle", and with rt "fifo:PRIO" or "rr:PRIO" (PRIO
 * 1..99) or "deadline:RUNTIME/DEADLINE/PERIOD" (microseconds, runtime <=
 * deadline <= period): its index, with set's policy, prio and dl set, or
 * -1.
 */
int	sched_policy_parse(const char *, int rt, struct sched_set *set);
/* The policy as sched_policy_parse takes it: "batch", "fifo:10", into a
 * buffer this long. */
#define SCHED_POLICY_TEXT 48
void	sched_policy_text(const struct sched_set *, char *buf, size_t);

/*
 * A CPU list as taskset -c takes it: "0", "0,2", "1-3", "0-7:2", joined
 * by commas.  0, or -1 with a one-line reason in err.
 */
int	sched_cpus_parse(const char *, struct sched_set *, char *err, size_t);

/* Whether cpu is in the set. */
int	sched_cpu_isset(const struct sched_set *, unsigned cpu);

/*
 * Check a set against what this system allows (CPUs this process may
 * use, the policy exists here): 0, or -1 with the reason.
 */
int	sched_check(const struct sched_set *, char *err, size_t);

/* Apply to the calling process: 0, or -1 with the reason. */
int	sched_apply(const struct sched_set *, char *err, size_t);
/* The same without a word, for a child that may not format (the job's,
 * on the driver's memory): 0, or the step that failed with errno set;
 * sched_step_text says it as sched_apply would. */
enum { SCHED_STEP_POLICY = 1, SCHED_STEP_NICE, SCHED_STEP_CPUS };
int	sched_apply_step(const struct sched_set *);
void	sched_step_text(const struct sched_set *, int step, int err, char *buf, size_t);

/* "loads nice 19, policy idle, cpus 0; job policy fifo:10, cpus 1", or
 * "" when unset. */
void	sched_describe(const struct sched_opts *, char *buf, size_t);

#endif
