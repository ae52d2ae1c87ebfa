/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a run measured, and how it ended: every member of a results line
 * from "status" on, described once, in the order a line holds them (the
 * members before it say which session, load and run the line is).  The
 * writer (run/results.c), the reader and summariser (report/rset_*.c), the
 * JSON report and the schema test all walk this list: a new number is
 * one X() here plus the code that measures it into run_record.fig[] (and
 * a row of report/columns.c where a table shows it).
 *
 * X(id, key, jt, how, dec, unit, take, agg, why)
 *  id	FIG_<id>: its index in run_record.fig[] (a report keeps only the
 *	pooled ones, at fig_pool(FIG_<id>))
 *  key	its member in a results line
 *  jt	the JSON types it takes, as doc/results.schema.json says them
 *  how	W_NUM: fig[] as a number of dec decimals, null where NaN;
 *	W_INT: as an integer, null where NaN; W_OPT: a number of dec
 *	decimals, left out where NaN; W_OWN: its own code writes it
 *	(results.c's put_own(): strings, flags and objects)
 *  unit	what it counts ("" where nothing)
 *  take	T_PAIR: the difference of two reads around the job; T_AFTER: read
 *	once after it; T_LOAD: the load's own counters; T_DERIVED: worked
 *	out from other figures; T_ATTR: says how the run went, measures
 *	nothing
 *  agg	how a report pools a cell's ok runs: A_NONE: it does not read it;
 *	A_EVERY: mean and spread over every ok run (NaN kept, as Time);
 *	A_SOME: over the runs that have it; A_OWN: its own code (counters
 *	summed, histograms pooled, the probe's deadlines)
 *  why	the member that says why it is null (W_NUM/W_INT), or NULL
 */
#ifndef CONTEST_FIGURES_H
#define CONTEST_FIGURES_H

#include <math.h>

#define FIGURES(X) \
X(STATUS, "status", "string", W_OWN, 0, "", T_ATTR, A_OWN, NULL) \
X(EXIT_CODE, "exit_code", "integer", W_OWN, 0, "", T_ATTR, A_OWN, NULL) \
X(ERROR, "error", "string", W_OWN, 0, "", T_ATTR, A_NONE, NULL) \
X(WALL, "wall_s", "number|null", W_NUM, 6, "s", T_PAIR, A_EVERY, NULL) \
X(USR, "usr_s", "number|null", W_NUM, 6, "s", T_AFTER, A_NONE, NULL) \
X(SYS, "sys_s", "number|null", W_NUM, 6, "s", T_AFTER, A_NONE, NULL) \
X(CPU, "cpu_pct", "number|null", W_NUM, 2, "%", T_DERIVED, A_EVERY, NULL) \
X(CPU_SOURCE, "cpu_source", "string", W_OWN, 0, "", T_ATTR, A_NONE, NULL) \
X(JOB_CGROUP, "job_cgroup", "boolean", W_OWN, 0, "", T_ATTR, A_NONE, NULL) \
X(JOB_SPAWN, "job_spawn", "string", W_OWN, 0, "", T_ATTR, A_NONE, NULL) \
X(CONTROLLERS, "controllers", "object|null", W_OWN, 0, "", T_ATTR, A_NONE, NULL) \
X(MINFLT, "minflt", "integer", W_INT, 0, "faults", T_AFTER, A_NONE, NULL) \
X(MAJFLT, "majflt", "integer", W_INT, 0, "faults", T_AFTER, A_OWN, NULL) \
X(NVCSW, "nvcsw", "integer", W_INT, 0, "switches", T_AFTER, A_NONE, NULL) \
X(NIVCSW, "nivcsw", "integer", W_INT, 0, "switches", T_AFTER, A_OWN, NULL) \
X(MIGRATIONS, "migrations", "integer|null", W_INT, 0, "migrations", T_AFTER, A_OWN, "migrations_why") \
X(MAXRSS, "maxrss_kb", "integer", W_INT, 0, "KiB", T_AFTER, A_NONE, NULL) \
X(DRIVER_CPU, "driver_cpu_s", "number|null", W_NUM, 6, "s", T_PAIR, A_NONE, NULL) \
X(SIGNAL, "signal", "string|null", W_OWN, 0, "", T_ATTR, A_OWN, NULL) \
X(OOM_KILLS, "oom_kills", "integer|null", W_INT, 0, "kills", T_PAIR, A_NONE, NULL) \
X(LOAD_WORKERS, "load_workers", "integer", W_INT, 0, "processes", T_ATTR, A_NONE, NULL) \
X(LOAD_CPU, "load_cpu_s", "number|null", W_NUM, 3, "s", T_PAIR, A_NONE, NULL) \
X(LCPU, "lcpu_pct", "number|null", W_NUM, 2, "%", T_DERIVED, A_SOME, NULL) \
X(LCPU_SOURCE, "lcpu_source", "string", W_OWN, 0, "", T_ATTR, A_NONE, NULL) \
X(WAIT, "wait_pct", "number|null", W_NUM, 2, "%", T_PAIR, A_SOME, NULL) \
X(MEM_WAIT, "mem_wait_pct", "number|null", W_NUM, 2, "%", T_PAIR, A_NONE, NULL) \
X(IO_WAIT, "io_wait_pct", "number|null", W_NUM, 2, "%", T_PAIR, A_NONE, "wait_why") \
X(CONTAINMENT, "containment", "string", W_OWN, 0, "", T_ATTR, A_NONE, NULL) \
X(CGROUP_WHERE, "cgroup_where", "string", W_OWN, 0, "", T_ATTR, A_NONE, NULL) \
X(PIDS_MAX, "pids_max", "integer|null", W_INT, 0, "tasks", T_AFTER, A_NONE, "pids_why") \
X(PIDS_PEAK, "pids_peak", "integer|null", W_INT, 0, "tasks", T_AFTER, A_NONE, NULL) \
X(LOAD_CPU_TOTAL, "load_cpu_total_s", "number|null", W_NUM, 3, "s", T_AFTER, A_NONE, NULL) \
X(LOAD_LIFE, "load_life_s", "number|null", W_NUM, 3, "s", T_PAIR, A_NONE, NULL) \
X(COUNTERS, "counters", "object", W_OWN, 0, "", T_LOAD, A_OWN, NULL) \
X(COUNTERS_TOTAL, "counters_total", "object", W_OWN, 0, "", T_LOAD, A_NONE, NULL) \
X(COUNTER_UNITS, "counter_units", "object", W_OWN, 0, "", T_ATTR, A_OWN, NULL) \
X(COUNTER_RATES, "counter_rates_per_s", "object", W_OWN, 0, "", T_DERIVED, A_OWN, NULL) \
X(COUNTER_LABELS, "counter_labels", "object", W_OWN, 0, "", T_ATTR, A_OWN, NULL) \
X(COUNTERS_SHOWN, "counters_shown", "array", W_OWN, 0, "", T_ATTR, A_OWN, NULL) \
X(HEADLINE, "headline", "string", W_OWN, 0, "", T_ATTR, A_OWN, NULL) \
X(SOLO_RATE, "load_solo_rate_per_s", "number|null", W_NUM, 3, "/s", T_LOAD, A_NONE, NULL) \
X(SOLO_UNITS, "load_solo_units", "integer", W_OPT, 0, "units", T_LOAD, A_NONE, NULL) \
X(SOLO_S, "load_solo_s", "number|null", W_OPT, 3, "s", T_LOAD, A_NONE, NULL) \
X(LOADP, "load_pct", "number|null", W_NUM, 2, "%", T_DERIVED, A_SOME, "load_pct_why") \
X(PROBE, "probe", "object|null", W_OWN, 0, "", T_PAIR, A_OWN, NULL) \
X(SERIES, "series", "object", W_OWN, 0, "", T_PAIR, A_NONE, NULL) \
X(PROVENANCE, "provenance", "object", W_OWN, 0, "", T_ATTR, A_OWN, NULL) \
X(STEAL, "steal_pct", "number|null", W_NUM, 3, "%", T_PAIR, A_OWN, NULL) \
X(LATENCY, "latency", "object", W_OWN, 0, "", T_LOAD, A_OWN, NULL) \
X(VMSTAT, "vmstat", "object", W_OWN, 0, "", T_PAIR, A_OWN, NULL) \
X(PSI, "psi_some_s", "object", W_OWN, 0, "", T_PAIR, A_NONE, NULL) \
X(SCHEDSTAT, "schedstat", "object", W_OWN, 0, "", T_PAIR, A_OWN, NULL)

enum fig_id {
#define FIG_ENUM(id, ...) FIG_##id,
	FIGURES(FIG_ENUM)
#undef FIG_ENUM
	FIG_N
};

enum fig_how { W_NUM, W_INT, W_OPT, W_OWN };
enum fig_take { T_PAIR, T_AFTER, T_LOAD, T_DERIVED, T_ATTR };
enum fig_agg { A_NONE, A_EVERY, A_SOME, A_OWN };

struct figure {
	const char	*key, *jt;
	enum fig_how	 how;
	int		 dec;
	const char	*unit;
	enum fig_take	 take;
	enum fig_agg	 agg;
	const char	*why;
};

extern const struct figure figures[FIG_N];

/* Each figure's key as an object of its own, FIG_KEY(CPU) "cpu_pct":
 * an address constant, for a table elsewhere that names a figure's key
 * in its own initializer. */
#define FIG_KEY(id)	fig_key_##id
#define FIG_KEY_DECL(id, key, ...) extern const char fig_key_##id[];
FIGURES(FIG_KEY_DECL)
#undef FIG_KEY_DECL

/* The figures a report pools into mean and spread (A_EVERY, A_SOME): how
 * many, and where each sits among them (-1: not pooled), worked out by
 * the compiler: FIG_BEFORE_<id> counts the pooled figures before it. */
#define FIG_POOLED(agg)	((agg) == A_EVERY || (agg) == A_SOME)
#define FIG_COUNT_POOLED(id, key, jt, how, dec, unit, take, agg, ...) \
	+ FIG_POOLED(agg)
enum { FIG_NPOOL = 0 FIGURES(FIG_COUNT_POOLED) };
#undef FIG_COUNT_POOLED
enum fig_before {
#define FIG_BEFORE(id, key, jt, how, dec, unit, take, agg, ...) \
	FIG_BEFORE_##id, FIG_AFTER_##id = FIG_BEFORE_##id - 1 + FIG_POOLED(agg),
	FIGURES(FIG_BEFORE)
#undef FIG_BEFORE
};
extern const signed char fig_slot[FIG_N];
static inline int
fig_pool(enum fig_id id)
{
	return fig_slot[id];
}

/* Met%: the probe's deadlines met over every deadline that passed while
 * the job ran, a skipped one missed; NaN with none.  A run's (written,
 * and read back from its counts) and a cell's (its runs' counts summed)
 * are this one computation. */
static inline double
fig_met_pct(unsigned long long met, unsigned long long deadlines)
{
	return deadlines ? (double)met / (double)deadlines * 100 : NAN;
}

#endif
