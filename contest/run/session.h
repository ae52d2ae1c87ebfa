/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One contest session: the plan, the runs, and what each run measured:
 * what run.c fills in and results.c writes. */
#ifndef CONTEST_SESSION_H
#define CONTEST_SESSION_H

#include <stddef.h>
#include <sys/resource.h>

#include "figures.h"
#include "jobmetric.h"
#include "loadspec.h"
#include "probe.h"
#include "provenance.h"
#include "psi.h"
#include "runopt.h"
#include "schedopt.h"
#include "schedstat.h"
#include "series.h"
#include "sweep.h"
#include "sysinfo.h"
#include "variant.h"
#include "vmstat.h"
#include "keys.h"	/* enum run_status */

struct run_record {
	size_t		 slot;		/* index into session.slots */
	size_t		 cell;		/* index into session.cells; 0 without a sweep */
	size_t		 variant;	/* index into session.variants; 0 without */
	unsigned	 round;		/* 0-based, warmup rounds first */
	unsigned	 index;		/* 1-based run number of this slot */
	unsigned	 position;	/* 0-based place in its round's order */
	int		 warmup;
	enum run_status	 status;
	int		 exit_code;	/* shell-style: n or 128+signal */
	double		 started;	/* Unix time the timed part began */
	/* what it measured, as figures.h describes each: NaN where not
	 * measured (written null, or left out); fig_why: why, or NULL */
	double		 fig[FIG_N];
	const char	*fig_why[FIG_N];
	/* what the figures are worked out from (figures_derive(), which
	 * alone fills fig[]); zero where the run never got so far */
	int		 timed;		/* the job ran to its end: the reads below */
	double		 wall;		/* its wall time, s */
	struct rusage	 ru;		/* its rusage, as wait4 gave it */
	long long	 steal_ticks;	/* the machine's steal over it; -1: unknown */
	double		 driver_cpu;	/* contest's own CPU time over it, s */
	double		 load_cpu_total;	/* the load's usr+sys over its life */
	double		 load_life;	/* that life, s */
	double		 oom_kills;	/* the OOM killer over the run; NaN: unknown */
	/* the load's headline alone in the lead: per second, the whole units
	 * it spans and over how long; NaN: not measured */
	double		 solo_rate, solo_units, solo_s;
	double		 job_cpu;	/* the job's usr+sys from cpu.stat, or -1 */
	struct psi	 job_psi;	/* its own stall deltas */
	char		 wait_why[120];	/* why no Wait%, or "" */
	char		 solo_why[160];	/* why no solo rate, or "" */
	double		 load_cpu;	/* load usr+sys during the timed part */
	int		 load_cpu_exact; /* at both ends: 1 from /proc, 2 from the
					  * load's cgroup */
	long long	 pids_max;	/* the load's pids.max in force, or -1 */
	long long	 pids_peak;	/* its pids.peak, or -1 */
	long long	 vm[VMSTAT_NTEL];	/* /proc/vmstat deltas over the job; -1: none */
	unsigned	 nworkers;
	long long	 lead_ms;	/* as applied: 0 when nothing runs */
	unsigned long long counter[LOAD_MAX_COUNTERS];	/* during the job */
	unsigned long long counter_total[LOAD_MAX_COUNTERS]; /* lead + job */
	unsigned long long hist[LOAD_HIST_BUCKETS];	/* latency, during the job */
	unsigned long long lat_min, lat_max;	/* exact, ns; max 0: no samples */
	struct psi	 psi;		/* stall deltas during the job */
	struct schedstat ss;		/* /proc/schedstat's deltas during it */
	long long	 migrations;	/* the job's tasks' CPU migrations; -1: none */
	char		 migr_why[160];	/* why none, or "" */
	int		 job_cgroup;	/* the job ran in a cgroup of its own */
	const char	*job_spawn;	/* how it got there: proc_spawned_how() */
	struct probe_rec probe;		/* the latency probe during the job */
	/* --probe-cpus: each CPU's probe (npcpu 0: one task), the worst
	 * CPU's the probe's figures (probe_worst; -1: one task); whether
	 * its memory was locked and /dev/cpu_dma_latency held at 0 (or why
	 * not) */
	struct probe_cpu pcpu[PROBE_CPUS_MAX];
	size_t		 npcpu;
	int		 probe_worst, probe_locked, probe_dma;
	char		 probe_dma_why[120];
	struct series	 series;	/* --series: per second; n 0: none */
	int		 signal;	/* the job's killing signal, or 0 */
	int		 cgroup;	/* the load ran in a cgroup of its own */
	/* sched_ext before the run's load started, and after the job; the
	 * second only where it differs ("" otherwise) */
	char		 scx[160], scx_after[160];
	/* what ran and under what, read as the run ends (run_ended()): the
	 * job's file (job_stat 0: not there), the cgroup controllers in
	 * effect (ctl_ok 0: unknown) */
	int		 job_stat;
	long long	 job_size, job_mtime;
	int		 ctl_ok;
	char		 ctl_job[512], ctl_loads[512];
	double		 jm[JM_MAX];	/* --job-metric's figures; NaN: not read */
	const char	*jm_why[JM_MAX];	/* a NaN's reason where the run stands */
	char		 why[512];
};

struct session {
	struct run_config cfg;		/* what was asked for: runopt.h */
	struct sysinfo	 si;
	char		 id[96];
	const char	*label;		/* -k's, or the kernel's release */
	char *const	*argv;		/* the job as run now: its cell's with a sweep */
	const char	*command;	/* as stored in results */
	const char	*command_template;	/* with {NAME}s: a sweep's; else NULL */
	struct sweep_cell *cells;	/* the sweep's combinations; NULL: none */
	size_t		 ncells;
	int		 builtin;
	const char	*job_sha256;	/* the built-in job's, or NULL */
	char		 job_path[4096];	/* COMMAND as resolved, "" for none */
	char *const	*prepare;	/* argv, or NULL */
	const char	*prepare_str;
	int		 prepare_inferred;	/* the make job's own clean step */
	/* --until-ci: after each measured round from the third on, asked
	 * whether the intervals are narrow enough to stop; rounds: how many
	 * measured rounds ran */
	int		(*narrow)(struct session *);
	unsigned	 rounds_measured;
	int		 stopped_early;
	const char	*dir;
	const char	*containment;	/* how loads are contained, said once */
	const char	*cgroup_where;	/* the session cgroup's parent, or NULL */
	char		 scx0[160];	/* sched_ext when the session began */
	/* --job-metric: read from the job's output, caught in cap_fd (an
	 * unlinked file in logs/; -1 without metrics) and then logged */
	int		 cap_fd;
	struct provenance prov;		/* what else could differ */
	char		 sched_text[200];	/* sched_describe(), "" when unset */
	int		 dir_fd;	/* the results dir, as trust_walk() checked it */
	int		 results_fd;
	char		*results_path;
	int		 log_fd;
	int		 job_dirfd;	/* where the job runs: -1 ours, else the
					 * built-in job's checked tree */
	char		*log_path;
	size_t		 nrec;		/* runs recorded so far */
	char		*lines;		/* every results line written, in order */
	size_t		 lines_len, lines_cap;
};

/* The scheduling knobs a run goes by, and how they are said: its
 * variant's, or the session's. */
static inline const struct sched_opts *
run_sched(const struct session *s, const struct run_record *r)
{
	return s->cfg.nvariants ? &s->cfg.variants[r->variant].sched : &s->cfg.sched;
}

static inline const char *
run_sched_text(const struct session *s, const struct run_record *r)
{
	return s->cfg.nvariants ? s->cfg.variants[r->variant].sched_text : s->sched_text;
}

#endif
