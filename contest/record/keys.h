/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A results line's members, each spelled once: the session's, before
 * "status", which say which session, machine, job, load and run the line
 * is (here, in the order a line holds them), and the run's, from
 * "status" on (figures.h).  RK_ ids number them all, the session's
 * first, so that a reader resolves a line's members by id (jsonl.h's
 * jslot) and a writer names them by RK_NAME(); the schema test holds
 * the list against doc/results.schema.json both ways.
 */
#ifndef CONTEST_KEYS_H
#define CONTEST_KEYS_H

#include <stddef.h>

#include "figures.h"

/* The schema changes when a member's meaning changes (2: latency in
 * hist.h's 32 buckets per power of two, max_us exact; 3: the probe's
 * met_pct over every deadline); new members come without a change, and
 * readers key on which members are present. */
#define RESULTS_SCHEMA	3

#define SESSION_KEYS(X) \
X(SCHEMA, "schema") \
X(CONTEST_VERSION, "contest_version") \
X(SESSION, "session") \
X(TIMESTAMP, "timestamp") \
X(HOST, "host") \
X(KERNEL, "kernel") \
X(KERNEL_VERSION, "kernel_version") \
X(KERNEL_BUILD_ID, "kernel_build_id") \
X(BOOT_ID, "boot_id") \
X(LABEL, "label") \
X(ARCH, "arch") \
X(NPROC, "nproc") \
X(CPUS_ONLINE, "cpus_online") \
X(CPU_MODEL, "cpu_model") \
X(MEM_TOTAL_KB, "mem_total_kb") \
X(CPUFREQ_GOVERNOR, "cpufreq_governor") \
X(CPUFREQ_CUR_KHZ, "cpufreq_cur_khz") \
X(CPUFREQ_MIN_KHZ, "cpufreq_min_khz") \
X(CPUFREQ_MAX_KHZ, "cpufreq_max_khz") \
X(SMT, "smt") \
X(CLOCKSOURCE, "clocksource") \
X(SCHED, "sched") \
X(LOAD_NICE, "load_nice") \
X(LOAD_POLICY, "load_policy") \
X(LOAD_CPUS, "load_cpus") \
X(JOB_CPUS, "job_cpus") \
X(JOB_NICE, "job_nice") \
X(JOB_POLICY, "job_policy") \
X(JOB_METRICS, "job_metrics") \
X(JOB_METRICS_WHY, "job_metrics_why") \
X(JOB_METRIC_DEFS, "job_metric_defs") \
X(COMMAND, "command") \
X(COMMAND_TEMPLATE, "command_template") \
X(SWEEP, "sweep") \
X(ARGV, "argv") \
X(JOB_SHA256, "job_sha256") \
X(JOB_IDENTITY, "job_identity") \
X(PREPARE, "prepare") \
X(PREPARE_INFERRED, "prepare_inferred") \
X(LEAD_S, "lead_s") \
X(LOAD, "load") \
X(LOAD_SPEC, "load_spec") \
X(LOAD_OPTIONS, "load_options") \
X(UNTIL_CI_PCT, "until_ci_pct") \
X(CONFIG, "config") \
X(ROUND, "round") \
X(VARIANT, "variant") \
X(VARIANT_KIND, "variant_kind") \
X(VARIANT_COMMAND, "variant_command") \
X(RUN, "run") \
X(ROUND_POSITION, "round_position") \
X(SCHED_EXT_CHANGED, "sched_ext_changed") \
X(SCHED_EXT_AFTER, "sched_ext_after") \
X(WARMUP, "warmup")

enum rkey {
#define RK_ENUM(id, key) RK_##id,
	SESSION_KEYS(RK_ENUM)
#undef RK_ENUM
	RK_NSESSION,
	RK_N = RK_NSESSION + FIG_N
};

/* A figure's id among them. */
#define RK_FIG(id)	((unsigned)RK_NSESSION + FIG_##id)

/* Every member's name, by id. */
extern const char *const rkey_names[RK_N];
#define RK_NAME(id)	(rkey_names[RK_##id])

/* How a run ended: its "status", by id and name.  ok; failed: the
 * command exited non-zero or was killed; exec_failed: it could not be
 * executed; prepare_failed: --prepare failed, nothing was timed;
 * load_failed: the load did not start, or died; spawn_failed: the job
 * could not be forked, even after waiting; variant_failed: its variant
 * could not be switched to, or the run saw another scheduler. */
#define RUN_STATUSES(X) \
X(OK, "ok") \
X(FAILED, "failed") \
X(EXEC_FAILED, "exec_failed") \
X(PREPARE_FAILED, "prepare_failed") \
X(LOAD_FAILED, "load_failed") \
X(SPAWN_FAILED, "spawn_failed") \
X(VARIANT_FAILED, "variant_failed")
enum run_status {
#define RUN_ENUM(id, name) RUN_##id,
	RUN_STATUSES(RUN_ENUM)
#undef RUN_ENUM
	RUN_NSTATUS
};
extern const char *const run_status_names[RUN_NSTATUS];

/* The members of "vmstat": what every run records of /proc/vmstat, as
 * deltas over the job (faults, paging, and page cache refaults: the sign
 * of a cache the host evicted), under their /proc/vmstat names. */
#define VMSTAT_KEYS(X) \
X(PGFAULT, "pgfault") \
X(PGMAJFAULT, "pgmajfault") \
X(PGPGIN, "pgpgin") \
X(PGPGOUT, "pgpgout") \
X(REFAULT, "workingset_refault_file")
enum vkey {
#define VK_ENUM(id, key) VK_##id,
	VMSTAT_KEYS(VK_ENUM)
#undef VK_ENUM
	VMSTAT_NTEL
};
extern const char *const vmstat_keys[VMSTAT_NTEL];

/* The members of "provenance": what else the kernel and machine were. */
#define PROVENANCE_KEYS(X) \
X(CMDLINE, "cmdline") \
X(AUTOGROUP, "autogroup") \
X(SCHED_EXT, "sched_ext") \
X(PREEMPT, "preempt") \
X(HZ, "hz") \
X(CONFIG_SHA256, "config_sha256") \
X(CONFIG, "config") \
X(MITIGATIONS, "mitigations") \
X(THP, "thp") \
X(CPUFREQ_DRIVER, "cpufreq_driver")
enum provkey {
#define PRK_ENUM(id, key) PRK_##id,
	PROVENANCE_KEYS(PRK_ENUM)
#undef PRK_ENUM
	PRK_N
};
extern const char *const provenance_keys[PRK_N];
#define PRK_NAME(id)	(provenance_keys[PRK_##id])

/* The members of "job_identity": the command's file (path, size, mtime)
 * or the built-in tree, and the tree's git state and tools. */
#define JOB_ID_KEYS(X) \
X(PATH, "path") \
X(SIZE, "size") \
X(MTIME, "mtime") \
X(BUILTIN, "builtin") \
X(GIT_HEAD, "git_head") \
X(GIT_DIRTY, "git_dirty") \
X(CONFIG_SHA256, "config_sha256") \
X(CC, "cc") \
X(LD, "ld")
enum jidkey {
#define JK_ENUM(id, key) JK_##id,
	JOB_ID_KEYS(JK_ENUM)
#undef JK_ENUM
	JK_N
};
extern const char *const job_id_keys[JK_N];
#define JK_NAME(id)	(job_id_keys[JK_##id])

/* The members of "series", the per-second samples: one column each. */
#define SERIES_KEYS(X) \
X(PERIOD, "period_s") \
X(T, "t_s") \
X(CPU, "cpu_pct") \
X(WAIT, "wait_pct") \
X(RATE, "load_rate") \
X(LEVEL, "load_level") \
X(P99, "probe_p99_us")
enum skey {
#define SK_ENUM(id, key) SK_##id,
	SERIES_KEYS(SK_ENUM)
#undef SK_ENUM
	SK_N
};
extern const char *const series_keys[SK_N];
#define SK_NAME(id)	(series_keys[SK_##id])

/* The members of "probe", the latency probe's run, before its
 * histogram's (hist.h). */
#define PROBE_KEYS(X) \
X(PERIOD_MS, "period_ms") \
X(NICE, "nice") \
X(WORK_PCT, "work_pct") \
X(WORK_LOOPS, "work_loops") \
X(PERIODS, "periods") \
X(MET, "met") \
X(SKIPPED, "skipped") \
X(DEADLINES, "deadlines") \
X(MET_PCT, "met_pct") \
X(CPU_PCT, "cpu_pct") \
X(POLICY, "policy") \
X(MLOCK, "mlock") \
X(DMA_LATENCY_US, "dma_latency_us") \
X(DMA_WHY, "dma_why") \
X(CPU, "cpu") \
X(PER_CPU, "per_cpu") \
X(P99_US, "p99_us") \
X(MAX_US, "max_us") \
X(SAMPLES, "samples")
/* The members of "schedstat": /proc/schedstat's deltas over the job,
 * summed over every CPU and CPU by CPU (null, with why, where the kernel
 * has none). */
#define SCHEDSTAT_KEYS(X) \
X(RUN_S, "run_s") \
X(WAIT_S, "wait_s") \
X(SLICES, "slices") \
X(PER_CPU, "per_cpu") \
X(CPU, "cpu") \
X(VERSION, "version") \
X(WHY, "why")
enum sskey {
#define SS_ENUM(id, key) SS_##id,
	SCHEDSTAT_KEYS(SS_ENUM)
#undef SS_ENUM
	SS_N
};
extern const char *const schedstat_keys[SS_N];
#define SS_NAME(id)	(schedstat_keys[SS_##id])

enum pkey {
#define PK_ENUM(id, key) PK_##id,
	PROBE_KEYS(PK_ENUM)
#undef PK_ENUM
	PK_N
};
extern const char *const probe_keys[PK_N];
#define PK_NAME(id)	(probe_keys[PK_##id])

/* The members of each of "job_metric_defs"' metrics, and the two words
 * "better" takes. */
#define JM_DEF_KEYS(X) \
X(REGEX, "regex") \
X(BETTER, "better") \
X(OF, "of") \
X(UNIT, "unit") \
X(PRESET, "preset")
enum jmkey {
#define JMK_ENUM(id, key) JMK_##id,
	JM_DEF_KEYS(JMK_ENUM)
#undef JMK_ENUM
	JMK_N
};
extern const char *const jm_def_keys[JMK_N];
#define JMK_NAME(id)	(jm_def_keys[JMK_##id])
extern const char *const jm_better_names[2];	/* by higher: "lower", "higher" */
/* A metric's name, a member of "job_metrics" (and a --gate word): a-z
 * first, then a-z, 0-9 and _, shorter than JM_NAME_MAX; 1 when s's
 * first len bytes are one. */
#define JM_NAME_MAX	32
int	jm_name_ok(const char *s, size_t len);

/* The members of "controllers": the cgroup controllers in effect. */
#define CONTROLLER_KEYS(X) \
X(JOB, "job") \
X(LOADS, "loads")
enum ctlkey {
#define CTK_ENUM(id, key) CTK_##id,
	CONTROLLER_KEYS(CTK_ENUM)
#undef CTK_ENUM
	CTK_N
};
extern const char *const controller_keys[CTK_N];
#define CTK_NAME(id)	(controller_keys[CTK_##id])

/* "variant_kind"'s values: how a variant of the machine is had (none, a
 * command before each run, a program kept running, a sched_ext
 * scheduler); VARK_ ids, run/variant.h's enum variant_kind. */
#define VARIANT_KINDS(X) \
X(NONE, "none") \
X(COMMAND, "command") \
X(PROGRAM, "program") \
X(SCHED_EXT, "sched_ext")
enum variant_kind {
#define VARK_ENUM(id, name) VK_##id,
	VARIANT_KINDS(VARK_ENUM)
#undef VARK_ENUM
	VK_NKINDS
};
extern const char *const variant_kind_names[VK_NKINDS];

/* The members of "psi_some_s", a stall's resources, as /proc/pressure
 * names its files: PSI_ ids, run/psi.h's. */
#define PSI_KEYS(X) \
X(CPU, "cpu") \
X(MEM, "memory") \
X(IO, "io")
enum psikey {
#define PSI_ENUM(id, key) PSI_##id,
	PSI_KEYS(PSI_ENUM)
#undef PSI_ENUM
	PSI_N
};
extern const char *const psi_keys[PSI_N];

#endif
