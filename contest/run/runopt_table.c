/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * contest run's options, one row each: what getopt_long, --help, the
 * range checks, the results line's "config" and a replay's argv are all
 * made from.  A row's kind says how its text becomes a value: numbers
 * land at an offset of struct run_config within the row's range; the
 * rest go through the row's own setter.
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "num.h"
#include "runopt_impl.h"
#include "util.h"

#define OFF(m)		offsetof(struct run_config, m)
#define TEXT(x)		#x
#define DEFAULT_TEXT(x)	TEXT(x)
#define NO_HAS		((size_t)-1)

static void
set_prepare(struct run_config *c, const char *arg)
{
	/* '' asks for no prepare step, even for a make job */
	c->no_prepare = *arg == '\0';
	c->prepare = c->no_prepare ? NULL : arg;
}

void
run_label_check(const char *arg)
{
	if (*arg == '\0' || strlen(arg) > RUN_LABEL_MAX)
		usage_fail("-k: label must be 1..%d characters", RUN_LABEL_MAX);
	for (const char *p = arg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			usage_fail("-k: label holds a control character");
}

static void
set_label(struct run_config *c, const char *arg)
{
	run_label_check(arg);
	c->label = arg;
}

static void
set_output(struct run_config *c, const char *arg)
{
	if (*arg == '\0')
		usage_fail("-o: empty directory name");
	c->outdir = arg;
}

static void
set_load_policy(struct run_config *c, const char *arg)
{
	/* real-time loads would starve the machine they measure */
	if (sched_policy_parse(arg, 0, &c->sched.load) < 0)
		usage_fail("--load-policy: '%s' is not other, batch or idle", arg);
	c->sched.load.has_policy = 1;
}

static void
rt_policy(const char *opt, const char *arg, struct sched_set *set)
{
	if (sched_policy_parse(arg, 1, set) < 0)
		usage_fail("%s: '%s' is not other, batch, idle, fifo:PRIO, "
		    "rr:PRIO (PRIO 1..99) or deadline:R/D/P (us, R <= D <= P)",
		    opt, arg);
	set->has_policy = 1;
}

static void
set_job_policy(struct run_config *c, const char *arg)
{
	rt_policy("--job-policy", arg, &c->sched.job);
}

static void
set_probe_policy(struct run_config *c, const char *arg)
{
	rt_policy("--probe-policy", arg, &c->probe.policy);
}

static void
cpus(const char *opt, const char *arg, struct sched_set *set)
{
	char err[512];

	if (sched_cpus_parse(arg, set, err, sizeof err) < 0)
		usage_fail("%s: %s", opt, err);
}

static void
set_load_cpus(struct run_config *c, const char *arg)
{
	cpus("--load-cpus", arg, &c->sched.load);
}

static void
set_job_cpus(struct run_config *c, const char *arg)
{
	cpus("--job-cpus", arg, &c->sched.job);
}

static void
set_probe_cpus(struct run_config *c, const char *arg)
{
	if (strcmp(arg, "all") == 0)
		c->probe.all_cpus = 1;
	else
		cpus("--probe-cpus", arg, &c->probe.cpus);
}

static void
set_until_ci(struct run_config *c, const char *arg)
{
	const char *why;
	long long v = num_parse_ms(arg, 100000, &why);

	if (why || v == 0)
		usage_fail("--until-ci: '%s' is %s (allowed 0.001..100 percent, "
		    "at most 3 decimals)", arg, why ? why : "zero");
	c->until_ci_pct = (double)v / 1000;
}

/* -l SPEC: one more load, each named once; no_load, always measured,
 * adds nothing. */
static int
add_load(struct run_config *c, const char *spec)
{
	char err[512];

	if (c->nslots > RUN_LOADS_MAX)
		usage_fail("-l: at most %d loads", RUN_LOADS_MAX);
	if (loadspec_parse(spec, &c->slots[c->nslots], err, sizeof err) < 0)
		usage_fail("%s", err);
	if (c->slots[c->nslots].load == c->slots[0].load)
		return 1;
	for (size_t i = 1; i < c->nslots; i++)
		if (strcmp(c->slots[i].name, c->slots[c->nslots].name) == 0)
			usage_fail("-l: load '%s' given twice", c->slots[i].name);
	c->nslots++;
	return 0;
}

/* --variant SPEC: one more, each named once. */
static int
add_variant(struct run_config *c, const char *spec)
{
	char err[512];

	if (c->nvariants == VARIANT_MAX)
		usage_fail("--variant: at most %d", VARIANT_MAX);
	if (variant_parse(spec, &c->variants[c->nvariants], err, sizeof err) < 0)
		usage_fail("%s", err);
	for (size_t i = 0; i < c->nvariants; i++)
		if (strcmp(c->variants[i].name, c->variants[c->nvariants].name) == 0)
			usage_fail("--variant: '%s' given twice", c->variants[i].name);
	c->nvariants++;
	return 0;
}

static int
add_sweep(struct run_config *c, const char *arg)
{
	char err[512];

	if (sweep_add(&c->sweep, arg, err, sizeof err) < 0)
		usage_fail("--sweep: %s", err);
	return 0;
}

static int
add_job_metric(struct run_config *c, const char *arg)
{
	char err[512];

	if (jm_parse(arg, c->jm, &c->njm, err, sizeof err) < 0)
		usage_fail("--job-metric: %s", err);
	return 0;
}

#define SHAPE	RO_SHAPE
#define REP	RO_REPEAT
#define OURS	RO_OURS	/* no command takes it: refused after COMMAND */
#define INT(m, h)	.kind = RO_INT, .off = OFF(m), .has = h
#define MS(m)		.kind = RO_MS, .off = OFF(m), .has = NO_HAS, \
			.size = sizeof(long long)
#define FLAG(m)		.kind = RO_FLAG, .off = OFF(m), .has = NO_HAS
#define SET(fn)		.kind = RO_SET, .set = fn, .has = NO_HAS
#define ADD(fn)		.kind = RO_ADD, .add = fn, .has = NO_HAS

const struct run_opt run_opts[] = {
	{ "runs", 'n', "RUNS", INT(runs, OFF(runs_given)), .flags = SHAPE,
	  .size = sizeof(unsigned), .min = 1, .max = 1000, .deflt = "3",
	  .help = "measured runs per load" },
	{ "warmup", 0, "N", INT(warmup, NO_HAS), .flags = SHAPE | OURS,
	  .size = sizeof(unsigned), .min = 0, .max = 100,
	  .deflt = "1: the first run is cold", .help = "unmeasured rounds first" },
	{ "prepare", 0, "CMD", SET(set_prepare),
	  .help = "shell command before each run, untimed; '' for none "
	  "(default for a make job: its clean target)" },
	{ "lead", 0, "SECONDS", MS(lead_ms), .max = 3600000, .deflt = "3",
	  .flags = OURS,
	  .help = "load running before the job starts" },
	{ "lead-max", 0, "SECONDS", MS(lead_max_ms), .max = 3600000,
	  .flags = OURS,
	  .deflt = "30", .help = "how long a slow load's lead may grow for its "
	  "rate alone to span 10 whole units of its work" },
	{ "label", 'k', "LABEL", SET(set_label), .flags = SHAPE,
	  .help = "kernel label in results (default: uname -r)" },
	{ "output", 'o', "DIR", SET(set_output), .flags = SHAPE,
	  .help = "results dir (default $CONTEST_RESULTS or ./contest-results)" },
	{ "load", 'l', "LOAD[:key=val,...]", ADD(add_load), .flags = REP,
	  .help = "add a load; see 'contest list'" },
	{ "load-nice", 0, "N", INT(sched.load.nice, OFF(sched.load.has_nice)),
	  .flags = OURS,
	  .size = sizeof(int), .min = -20, .max = 19,
	  .help = "every load process at nice N" },
	{ "load-policy", 0, "P", SET(set_load_policy),
	  .flags = OURS,
	  .help = "loads under SCHED_OTHER, SCHED_BATCH or SCHED_IDLE (other, "
	  "batch, idle)" },
	{ "load-cpus", 0, "LIST", SET(set_load_cpus),
	  .flags = OURS,
	  .help = "loads on these CPUs (taskset -c syntax: 0,2-3,0-7:2)" },
	{ "job-cpus", 0, "LIST", SET(set_job_cpus),
	  .flags = OURS,
	  .help = "the job on these CPUs" },
	{ "job-nice", 0, "N", INT(sched.job.nice, OFF(sched.job.has_nice)),
	  .flags = OURS,
	  .size = sizeof(int), .min = -20, .max = 19,
	  .help = "the job at nice N" },
	{ "job-policy", 0, "P", SET(set_job_policy),
	  .flags = OURS,
	  .help = "the job under other, batch, idle, or real-time fifo:PRIO or "
	  "rr:PRIO (PRIO 1..99, as chrt), or deadline:RUNTIME/DEADLINE/PERIOD "
	  "(us)" },
	{ "job-metric", 0, "NAME[:higher|:lower]=REGEX|PRESET",
	  ADD(add_job_metric), .flags = REP | OURS,
	  .help = "a figure of each run: the number REGEX's one group captures "
	  "in the job's output, its last match (lower is better by default); "
	  "or a preset: hackbench, perf-messaging, perf-pipe, cyclictest, "
	  "schbench" },
	{ "job-migrations", 0, NULL, FLAG(migrations),
	  .flags = OURS,
	  .help = "count the CPU migrations of the job's tasks (perf counters "
	  "on its cgroup; they make its context switches dearer: off by "
	  "default)" },
	{ "load-pids-max", 0, "N", INT(pids_max, NO_HAS),
	  .flags = OURS,
	  .size = sizeof(long long), .min = 1, .max = 4194304,
	  .deflt = DEFAULT_TEXT(LOAD_PIDS_MAX),
	  .help = "each load's cgroup capped at N processes" },
	{ "latency", 0, "MS", INT(probe.period_ms, NO_HAS), .flags = RO_OPTIONAL,
	  .size = sizeof(unsigned), .min = 1, .max = 1000, .deflt = "10",
	  .help = "a latency probe beside the job in every run: wakes every MS "
	  "ms on absolute times" },
	{ "probe-nice", 0, "N", INT(probe.nice, OFF(probe.has_nice)),
	  .flags = OURS,
	  .size = sizeof(int), .min = -20, .max = 19, .deflt = "the job's",
	  .help = "the probe at nice N" },
	{ "probe-work", 0, "PCT", .kind = RO_MS, .off = OFF(probe.work_mpct),
	  .flags = OURS,
	  .has = OFF(probe_work), .size = sizeof(unsigned), .max = 50000,
	  .unit = "percent", .deflt = "0: a pure wake-up; 5 is interbench's "
	  "audio", .help = "its work each period, in percent of a CPU" },
	{ "probe-cpus", 0, "LIST|all", SET(set_probe_cpus),
	  .flags = OURS,
	  .help = "a probe task pinned to each CPU (at most 256); the table's "
	  "Lat p99 is the worst CPU's" },
	{ "probe-policy", 0, "P", SET(set_probe_policy),
	  .flags = OURS,
	  .help = "the probe's policy, fifo:PRIO as cyclictest -p (default: the "
	  "job's); either option also locks its memory and holds "
	  "/dev/cpu_dma_latency at 0" },
	{ "sweep", 0, "NAME=V1,V2,...", ADD(add_sweep), .flags = SHAPE | REP | OURS,
	  .help = "time the job at each value, {NAME} replaced in COMMAND and "
	  "--prepare; each value a row with its own no_load, interleaved like "
	  "loads (repeatable: every combination)" },
	{ "series", 0, NULL, FLAG(series),
	  .help = "sample once a second during each job: its CPU and Wait%, the "
	  "load's rate, the probe's p99" },
	{ "keep-suspect", 0, NULL, FLAG(keep_suspect),
	  .flags = OURS,
	  .help = "the table averages in runs that may have done no work (left "
	  "out by default, and named)" },
	{ "until-ci", 0, "PCT", SET(set_until_ci), .flags = SHAPE | OURS,
	  .help = "add rounds (3 at least, -n at most; default -n 30) until "
	  "every Ratio's CI95 is within PCT% of it" },
	{ "variant", 0, "NAME[:key=val,...][=CMD]", ADD(add_variant),
	  .flags = SHAPE | REP | OURS,
	  .help = "two or more: each a variant of the machine, measured in turns "
	  "in every round and compared paired at the end; CMD (sh -c) switches "
	  "to it before each of its runs, untimed; keys: load-nice=N, "
	  "load-policy=P, keep (CMD runs during the variant's runs), sched-ext "
	  "(and is a sched_ext scheduler); rows LABEL/NAME" },
	{ NULL, 0, NULL, .kind = RO_FLAG },
};

const size_t run_nopts = sizeof run_opts / sizeof run_opts[0] - 1;
