/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * contest run: the command line checked whole before anything runs, then
 * the session put together (its results dir, containment, the job and its
 * prepare step), run, and ended with its table.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "columns.h"
#include "command.h"
#include "contain.h"
#include "builtin.h"
#include "loadspec.h"
#include "makejob.h"
#include "num.h"
#include "prepare.h"
#include "provenance.h"
#include "proc.h"
#include "results.h"
#include "rounds.h"
#include "schedopt.h"
#include "scope.h"
#include "session_table.h"
#include "sweep.h"
#include "util.h"
#include "variant.h"

#define MAX_LOADS	32
#define MAX_RUNS	1000
#define MAX_WARMUP	100
#define MAX_LEAD_MS	3600000LL
#define LEAD_MAX_MS	30000LL		/* --lead-max's default */

void
usage_run(FILE *f)
{
	fputs("usage: contest [run] [-n RUNS] [--warmup N] [--prepare CMD] "
	    "[--lead SECONDS]\n"
	    "                [-k LABEL] [-o DIR] [--load-nice N] [--load-policy P]\n"
	    "                [--load-cpus LIST] [--job-cpus LIST] [--job-nice N]\n"
	    "                [--job-policy P] [--job-metric NAME=REGEX|PRESET]...\n"
	    "                [--job-migrations] [--load-pids-max N]\n"
	    "                [--latency[=MS]] [--probe-nice N] [--probe-work PCT]\n"
	    "                [--probe-cpus LIST|all] [--probe-policy P]\n"
	    "                [--sweep NAME=V1,V2,...] [--until-ci PCT] [--series]\n"
	    "                [--lead-max SECONDS] [--keep-suspect]\n"
	    "                [--variant NAME[:key=val,...][=CMD]]...\n"
	    "                [-l LOAD[:key=val,...]]... [--] [COMMAND [ARG]...]\n\n"
	    "Time COMMAND with no load and beside each load, in interleaved rounds.\n"
	    "Without COMMAND, time the built-in default job: a generated C tree\n"
	    "built with make -jNCPU (needs cc and make).\n\n"
	    "  -n, --runs RUNS      measured runs per load (default 3, 1..1000)\n"
	    "      --warmup N       unmeasured rounds first (default 1: the first run\n"
	    "                       is cold; 0..100)\n"
	    "      --prepare CMD    shell command before each run, untimed; '' for\n"
	    "                       none (default for a make job: its clean target)\n"
	    "      --lead SECONDS   load running before the job starts (default 3)\n"
	    "      --lead-max SECONDS  how long a slow load's lead may grow for its\n"
	    "                       rate alone to span 10 whole units of its work\n"
	    "                       (default 30)\n"
	    "  -k, --label LABEL    kernel label in results (default: uname -r)\n"
	    "  -o, --output DIR     results dir (default $CONTEST_RESULTS or\n"
	    "                       ./contest-results)\n"
	    "  -l, --load SPEC      add a load: NAME[:key=val,...]; see 'contest list'\n"
	    "      --load-nice N    every load process at nice N (-20..19)\n"
	    "      --load-policy P  loads under SCHED_OTHER, SCHED_BATCH or SCHED_IDLE\n"
	    "                       (other, batch, idle)\n"
	    "      --load-cpus LIST loads on these CPUs (taskset -c syntax: 0,2-3,0-7:2)\n"
	    "      --job-cpus LIST  the job on these CPUs\n"
	    "      --job-nice N     the job at nice N (-20..19)\n"
	    "      --job-policy P   the job under other, batch, idle, or real-time\n"
	    "                       fifo:PRIO or rr:PRIO (PRIO 1..99, as chrt), or\n"
	    "                       deadline:RUNTIME/DEADLINE/PERIOD (us)\n"
	    "      --job-metric NAME[:higher|:lower]=REGEX  a figure of each run: the\n"
	    "                       number REGEX's one group captures in the job's\n"
	    "                       output, its last match (lower is better by\n"
	    "                       default); or a preset: hackbench, perf-messaging,\n"
	    "                       cyclictest (with -q), schbench; repeatable\n"
	    "      --job-migrations count the CPU migrations of the job's tasks (perf\n"
	    "                       counters on its cgroup; they make its context\n"
	    "                       switches dearer: off by default)\n"
	    "      --load-pids-max N  each load's cgroup capped at N processes\n"
	    "                       (default 20000, 1..4194304)\n"
	    "      --latency[=MS]   a latency probe beside the job in every run: wakes\n"
	    "                       every MS ms (default 10, 1..1000) on absolute times\n"
	    "      --probe-nice N   the probe at nice N (default: the job's)\n"
	    "      --probe-work PCT its work each period, in percent of a CPU (default\n"
	    "                       0: a pure wake-up; 5 is interbench's audio; 0..50)\n"
	    "      --probe-cpus LIST|all  a probe task pinned to each CPU (at most\n"
	    "                       256); the table's Lat p99 is the worst CPU's\n"
	    "      --probe-policy P the probe's policy, fifo:PRIO as cyclictest -p\n"
	    "                       (default: the job's); either option also locks\n"
	    "                       its memory and holds /dev/cpu_dma_latency at 0\n"
	    "      --sweep NAME=V1,V2,...  time the job at each value, {NAME} replaced\n"
	    "                       in COMMAND and --prepare; each value a row with its\n"
	    "                       own no_load, interleaved like loads (repeatable:\n"
	    "                       every combination)\n"
	    "      --series         sample once a second during each job: its CPU and\n"
	    "                       Wait%, the load's rate, the probe's p99\n"
	    "      --keep-suspect   the table averages in runs that may have done no\n"
	    "                       work (left out by default, and named)\n"
	    "      --until-ci PCT   add rounds (3 at least, -n at most; default -n 30)\n"
	    "                       until every Ratio's CI95 is within PCT% of it\n"
	    "      --variant NAME[:key=val,...][=CMD]  two or more: each a variant of\n"
	    "                       the machine, measured in turns in every round and\n"
	    "                       compared paired at the end; CMD (sh -c) switches\n"
	    "                       to it before each of its runs, untimed; keys:\n"
	    "                       load-nice=N, load-policy=P, keep (CMD runs during\n"
	    "                       the variant's runs), sched-ext (and is a sched_ext\n"
	    "                       scheduler); rows LABEL/NAME\n"
	    "  -h, --help           this text\n", f);
}

static const char *
number_arg(const char *opt, const char *val, long long min, long long max,
    long long *out)
{
	const char *why;

	*out = num_parse(val, min, max, &why);
	if (why)
		usage_fail("%s: '%s' is %s (allowed %lld..%lld)", opt, val, why, min, max);
	return val;
}

/* A time in seconds, 0..3600 with at most 3 decimals, as ms. */
static long long
seconds_arg(const char *opt, const char *val)
{
	const char *why;
	long long ms = num_parse_ms(val, MAX_LEAD_MS, &why);

	if (why)
		usage_fail("%s: '%s' is %s (allowed 0..3600 seconds, at most 3 "
		    "decimals)", opt, val, why);
	return ms;
}

static void
session_id(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	size_t n = strftime(buf, len, "%Y%m%dT%H%M%SZ", &tm);
	snprintf(buf + n, len - n, "-%ld", (long)getpid());
}

/* Long options with no letter of their own. */
enum {
	OPT_WARMUP = 256, OPT_PREPARE, OPT_LEAD, OPT_LEAD_MAX, OPT_LOAD_NICE,
	OPT_LOAD_POLICY, OPT_LOAD_CPUS, OPT_JOB_CPUS, OPT_PIDS_MAX, OPT_LATENCY,
	OPT_PROBE_NICE, OPT_PROBE_WORK, OPT_SWEEP, OPT_UNTIL_CI, OPT_SERIES,
	OPT_KEEP_SUSPECT, OPT_VARIANT, OPT_JOB_NICE, OPT_JOB_POLICY, OPT_JOB_METRIC,
	OPT_PROBE_CPUS, OPT_PROBE_POLICY, OPT_JOB_MIGRATIONS,
};

static const struct option run_longopts[] = {
	{ "runs", required_argument, NULL, 'n' },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "prepare", required_argument, NULL, OPT_PREPARE },
	{ "lead", required_argument, NULL, OPT_LEAD },
	{ "lead-max", required_argument, NULL, OPT_LEAD_MAX },
	{ "label", required_argument, NULL, 'k' },
	{ "output", required_argument, NULL, 'o' },
	{ "load", required_argument, NULL, 'l' },
	{ "load-nice", required_argument, NULL, OPT_LOAD_NICE },
	{ "load-policy", required_argument, NULL, OPT_LOAD_POLICY },
	{ "load-cpus", required_argument, NULL, OPT_LOAD_CPUS },
	{ "job-cpus", required_argument, NULL, OPT_JOB_CPUS },
	{ "job-nice", required_argument, NULL, OPT_JOB_NICE },
	{ "job-policy", required_argument, NULL, OPT_JOB_POLICY },
	{ "job-metric", required_argument, NULL, OPT_JOB_METRIC },
	{ "job-migrations", no_argument, NULL, OPT_JOB_MIGRATIONS },
	{ "load-pids-max", required_argument, NULL, OPT_PIDS_MAX },
	{ "latency", optional_argument, NULL, OPT_LATENCY },
	{ "probe-nice", required_argument, NULL, OPT_PROBE_NICE },
	{ "probe-work", required_argument, NULL, OPT_PROBE_WORK },
	{ "probe-cpus", required_argument, NULL, OPT_PROBE_CPUS },
	{ "probe-policy", required_argument, NULL, OPT_PROBE_POLICY },
	{ "sweep", required_argument, NULL, OPT_SWEEP },
	{ "until-ci", required_argument, NULL, OPT_UNTIL_CI },
	{ "series", no_argument, NULL, OPT_SERIES },
	{ "keep-suspect", no_argument, NULL, OPT_KEEP_SUSPECT },
	{ "variant", required_argument, NULL, OPT_VARIANT },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* What the command line says beside the session itself. */
struct run_cli {
	struct loadspec	*slots;		/* [0] is no_load */
	struct variant	*variants;	/* VARIANT_MAX of them */
	const char	*outdir;
	int		 no_prepare, help, runs_given, probe_work;
};

/* -l SPEC: one more load, each named once. */
static void
add_load(struct session *s, struct loadspec *slots, const char *spec)
{
	char err[512];

	if (s->nslots > MAX_LOADS)
		usage_fail("-l: at most %d loads", MAX_LOADS);
	if (loadspec_parse(spec, &slots[s->nslots], err, sizeof err) < 0)
		usage_fail("%s", err);
	if (slots[s->nslots].load == slots[0].load)
		return;		/* no_load is always measured */
	for (size_t i = 1; i < s->nslots; i++)
		if (strcmp(slots[i].name, slots[s->nslots].name) == 0)
			usage_fail("-l: load '%s' given twice", slots[i].name);
	s->nslots++;
}

/* --variant SPEC: one more, each named once. */
static void
add_variant(struct session *s, struct variant *vars, const char *spec)
{
	char err[512];

	if (s->nvariants == VARIANT_MAX)
		usage_fail("--variant: at most %d", VARIANT_MAX);
	if (variant_parse(spec, &vars[s->nvariants], err, sizeof err) < 0)
		usage_fail("%s", err);
	for (size_t i = 0; i < s->nvariants; i++)
		if (strcmp(vars[i].name, vars[s->nvariants].name) == 0)
			usage_fail("--variant: '%s' given twice", vars[i].name);
	s->variants = vars;
	s->nvariants++;
}

/* An option of the rounds, the loads, the job and the results; 0 when
 * ch is none of them. */
static int
session_opt(int ch, const char *arg, struct session *s, struct run_cli *c)
{
	const char *why;
	char err[512];
	long long v;

	switch (ch) {
	case 'n':
		number_arg("-n", arg, 1, MAX_RUNS, &v);
		s->runs = (unsigned)v;
		c->runs_given = 1;
		return 1;
	case OPT_WARMUP:
		number_arg("--warmup", arg, 0, MAX_WARMUP, &v);
		s->warmup = (unsigned)v;
		return 1;
	case OPT_PREPARE:
		/* '' asks for no prepare step, even for a make job */
		c->no_prepare = *arg == '\0';
		s->prepare_str = c->no_prepare ? NULL : arg;
		return 1;
	case OPT_LEAD:
		s->lead_ms = seconds_arg("--lead", arg);
		return 1;
	case OPT_LEAD_MAX:
		s->lead_max_ms = seconds_arg("--lead-max", arg);
		return 1;
	case 'k':
		if (*arg == '\0' || strlen(arg) > 200)
			usage_fail("-k: label must be 1..200 characters");
		for (const char *p = arg; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				usage_fail("-k: label holds a control character");
		s->label = arg;
		return 1;
	case 'o':
		if (*arg == '\0')
			usage_fail("-o: empty directory name");
		c->outdir = arg;
		return 1;
	case 'l':
		add_load(s, c->slots, arg);
		return 1;
	case OPT_SWEEP:
		if (sweep_add(&s->sweep, arg, err, sizeof err) < 0)
			usage_fail("--sweep: %s", err);
		return 1;
	case OPT_UNTIL_CI:
		v = num_parse_ms(arg, 100000, &why);
		if (why || v == 0)
			usage_fail("--until-ci: '%s' is %s (allowed 0.001..100 percent, "
			    "at most 3 decimals)", arg, why ? why : "zero");
		s->until_ci_pct = (double)v / 1000;
		return 1;
	case OPT_SERIES:
		s->series = 1;
		return 1;
	case OPT_JOB_MIGRATIONS:
		s->migrations = 1;
		return 1;
	case OPT_KEEP_SUSPECT:
		s->keep_suspect = 1;
		return 1;
	case OPT_VARIANT:
		add_variant(s, c->variants, arg);
		return 1;
	case OPT_JOB_METRIC:
		if (jm_parse(arg, s->jm, &s->njm, err, sizeof err) < 0)
			usage_fail("--job-metric: %s", err);
		/* a metric is a --gate name beside compare's own figures */
		for (size_t i = 0; i < s->njm; i++)
			if (cmp_gate_parse(s->jm[i].name))
				usage_fail("--job-metric: '%s' is the name of one of "
				    "contest's own figures", s->jm[i].name);
		return 1;
	}
	return 0;
}

/* An option of the loads' or the job's scheduling; 0 when ch is none. */
static int
sched_opt(int ch, const char *arg, struct session *s)
{
	struct sched_set *set;
	char err[512];
	long long v;

	switch (ch) {
	case OPT_LOAD_NICE:
	case OPT_JOB_NICE:
		number_arg(ch == OPT_JOB_NICE ? "--job-nice" : "--load-nice", arg,
		    -20, 19, &v);
		set = ch == OPT_JOB_NICE ? &s->sched.job : &s->sched.load;
		set->has_nice = 1;
		set->nice = (int)v;
		return 1;
	case OPT_LOAD_POLICY:
		/* real-time loads would starve the machine they measure */
		if (sched_policy_parse(arg, 0, &s->sched.load) < 0)
			usage_fail("--load-policy: '%s' is not other, batch or idle", arg);
		s->sched.load.has_policy = 1;
		return 1;
	case OPT_JOB_POLICY:
		if (sched_policy_parse(arg, 1, &s->sched.job) < 0)
			usage_fail("--job-policy: '%s' is not other, batch, idle, "
			    "fifo:PRIO, rr:PRIO (PRIO 1..99) or deadline:R/D/P (us, "
			    "R <= D <= P)", arg);
		s->sched.job.has_policy = 1;
		return 1;
	case OPT_PIDS_MAX:
		number_arg("--load-pids-max", arg, 1, 4194304, &v);
		s->pids_max = v;
		return 1;
	case OPT_LOAD_CPUS:
	case OPT_JOB_CPUS:
		if (sched_cpus_parse(arg, ch == OPT_LOAD_CPUS ? &s->sched.load :
		    &s->sched.job, err, sizeof err) < 0)
			usage_fail("%s: %s", ch == OPT_LOAD_CPUS ? "--load-cpus" :
			    "--job-cpus", err);
		return 1;
	}
	return 0;
}

/* An option of the latency probe; 0 when ch is none. */
static int
probe_opt(int ch, const char *arg, struct session *s, struct run_cli *c)
{
	const char *why;
	char err[512];
	long long v;

	switch (ch) {
	case OPT_LATENCY:
		v = 10;
		if (arg)
			number_arg("--latency", arg, 1, 1000, &v);
		s->probe.period_ms = (unsigned)v;
		return 1;
	case OPT_PROBE_NICE:
		number_arg("--probe-nice", arg, -20, 19, &v);
		s->probe.has_nice = 1;
		s->probe.nice = (int)v;
		return 1;
	case OPT_PROBE_WORK:
		v = num_parse_ms(arg, 50000, &why);
		if (why)
			usage_fail("--probe-work: '%s' is %s (allowed 0..50 percent, "
			    "at most 3 decimals)", arg, why);
		s->probe.work_mpct = (unsigned)v;
		c->probe_work = 1;
		return 1;
	case OPT_PROBE_CPUS:
		if (strcmp(arg, "all") == 0)
			s->probe.all_cpus = 1;
		else if (sched_cpus_parse(arg, &s->probe.cpus, err, sizeof err) < 0)
			usage_fail("--probe-cpus: %s", err);
		return 1;
	case OPT_PROBE_POLICY:
		if (sched_policy_parse(arg, 1, &s->probe.policy) < 0)
			usage_fail("--probe-policy: '%s' is not other, batch, idle, "
			    "fifo:PRIO, rr:PRIO (PRIO 1..99) or deadline:R/D/P (us, "
			    "R <= D <= P)", arg);
		s->probe.policy.has_policy = 1;
		return 1;
	}
	return 0;
}

/* The probe's options together: each needs the probe, its CPUs this
 * process may use and not too many, its policy one this system has. */
static void
probe_check(struct session *s, const struct run_cli *c)
{
	struct probe_cfg *p = &s->probe;
	char err[512];

	if (p->period_ms == 0 && (p->has_nice || c->probe_work || p->all_cpus ||
	    p->cpus.has_cpus || p->policy.has_policy))
		usage_fail("%s: there is no probe without --latency", p->has_nice ?
		    "--probe-nice" : c->probe_work ? "--probe-work" :
		    p->policy.has_policy ? "--probe-policy" : "--probe-cpus");
	if (p->cpus.has_cpus && sched_check(&p->cpus, err, sizeof err) < 0)
		usage_fail("--probe-cpus: %s", err);
	if (p->policy.has_policy && sched_check(&p->policy, err, sizeof err) < 0)
		usage_fail("--probe-policy: %s", err);
	size_t n = 0;
	for (unsigned cpu = 0; p->cpus.has_cpus && cpu < SCHED_CPUS_MAX; cpu++)
		n += (size_t)sched_cpu_isset(&p->cpus, cpu);
	if (p->all_cpus)
		n = (size_t)s->si.nproc;
	if (n > PROBE_CPUS_MAX)
		usage_fail("--probe-cpus: %zu CPUs, at most %d probe tasks", n,
		    PROBE_CPUS_MAX);
}

/* After the options: what they say together, and COMMAND's words (none:
 * the built-in job), found on PATH now. */
static char **
run_rest(int argc, char **argv, struct session *s, const struct run_cli *c,
    int *cmdc)
{
	char err[512];

	if (s->until_ci_pct > 0 && !c->runs_given)
		s->runs = 30;
	if (s->until_ci_pct > 0 && s->runs < 3)
		usage_fail("--until-ci: -n %u is too few (at least 3 rounds)", s->runs);
	probe_check(s, c);
	if (argc > 0 && argv[0][0] == '\0')
		usage_fail("empty command name");
	if (s->sweep.n && sweep_check(&s->sweep, argc > 0 ? argv : NULL,
	    s->prepare_str, err, sizeof err) < 0)
		usage_fail("--sweep: %s", err);
	if (argc > 0) {
		int e = command_find(argv[0], s->job_path, sizeof s->job_path);
		if (e == ENOENT && !strchr(argv[0], '/'))
			fatal(127, "%s: command not found", argv[0]);
		if (e)
			fatal(e == ENOENT ? 127 : 126, "%s: %s", argv[0], strerror(e));
	}
	if (sched_check(&s->sched.load, err, sizeof err) < 0)
		usage_fail("loads: %s", err);
	if (sched_check(&s->sched.job, err, sizeof err) < 0)
		usage_fail("job: %s", err);
	sched_describe(&s->sched, s->sched_text, sizeof s->sched_text);
	if (s->nvariants == 1)
		usage_fail("--variant: one variant compares with nothing: give two or "
		    "more");
	for (size_t i = 0; i < s->nvariants; i++)
		if (variant_sched(&s->variants[i], &s->sched, err, sizeof err) < 0)
			usage_fail("--variant %s: loads: %s", s->variants[i].name, err);
	*cmdc = argc;
	return argv;
}

/*
 * The options and COMMAND, every one checked before anything runs; bad
 * input ends here with one line and exit 2.  *cmdc and the return: the
 * COMMAND's words (none: the built-in job); NULL with c->help set for
 * --help.
 */
static char **
run_args(int argc, char **argv, struct session *s, struct run_cli *c, int *cmdc)
{
	static struct job_metric jm_store[JM_MAX];
	char err[512];
	int ch;

	memset(s, 0, sizeof *s);
	c->outdir = NULL;
	c->no_prepare = c->help = c->runs_given = c->probe_work = 0;
	s->runs = 3;
	/* the first run of a session meets a cold page cache, cold dentries
	 * and host tools not yet read: never a measurement by default */
	s->warmup = 1;
	s->lead_ms = 3000;
	s->lead_max_ms = LEAD_MAX_MS;
	s->pids_max = LOAD_PIDS_MAX;
	s->dir_fd = s->results_fd = s->log_fd = s->job_dirfd = s->cap_fd = -1;
	/* what a parse that exited half way (a fuzzer's) compiled goes now */
	jm_free(jm_store, JM_MAX);
	s->jm = jm_store;
	if (loadspec_parse("no_load", &c->slots[0], err, sizeof err) < 0)
		usage_fail("%s", err);
	s->nslots = 1;

	getopt_restart();
	while ((ch = getopt_long(argc, argv, "+:n:k:o:l:h", run_longopts, NULL)) != -1) {
		if (ch == 'h') {
			c->help = 1;
			return NULL;
		}
		if (!session_opt(ch, optarg, s, c) && !sched_opt(ch, optarg, s) &&
		    !probe_opt(ch, optarg, s, c))
			getopt_fail("run", ch, argv);
	}
	return run_rest(argc - optind, argv + optind, s, c, cmdc);
}

int
cmd_run_check(int argc, char **argv)
{
	struct session s;
	struct loadspec slots[MAX_LOADS + 1];
	static struct variant vars[VARIANT_MAX];
	struct run_cli c = { .slots = slots, .variants = vars };
	int cmdc;

	run_args(argc, argv, &s, &c, &cmdc);
	sweep_free(&s.sweep);
	jm_free(s.jm, s.njm);
	return 0;
}

/* No COMMAND, as a bare "contest" is: what is about to happen, and how
 * to stop it, once the tree is known to be fit and before anything
 * runs (once: not again in the copy scope_enter execs into its scope). */
static void
announce_builtin(const struct session *s)
{
	const char *scope = getenv("CONTEST_SCOPE");

	if (scope != NULL && strcmp(scope, "0") != 0)
		return;
	fprintf(stderr, "contest: no COMMAND: timing the built-in job (a C tree it "
	    "generates, built with make -jNCPU) in %u warmup and %u measured "
	    "round%s, alone", s->warmup, s->runs, s->runs == 1 ? "" : "s");
	if (s->nslots > 1)
		fprintf(stderr, " and beside %zu load%s", s->nslots - 1,
		    s->nslots == 2 ? "" : "s");
	fputs("; Ctrl-C stops it, leaving nothing running\n", stderr);
}

/* No COMMAND: the built-in job, in its checked tree, cleaned by its own
 * make unless --prepare says otherwise. */
static void
builtin_job(struct session *s, struct builtin_job *tree, int no_prepare)
{
	char err[512];

	if (builtin_setup(s->dir_fd, s->dir, s->si.nproc, tree, err, sizeof err) < 0) {
		if (tree->refused)
			usage_fail("the default job: %s", err);
		fatal(1, "%s", err);
	}
	announce_builtin(s);
	if (tree->generated)
		warnmsg("generated the default job in %s", tree->dir);
	if (tree->restored)
		warnmsg("the default job in %s was not what contest generates "
		    "(%s): written again", tree->dir, tree->differs);
	/* The job's make must not join a make that runs us. */
	unsetenv("MAKEFLAGS");
	unsetenv("MFLAGS");
	unsetenv("MAKELEVEL");
	s->argv = tree->argv;
	s->command = tree->command;
	s->job_dirfd = tree->dir_fd;
	s->builtin = 1;
	s->job_sha256 = tree->sha256;
	if (s->prepare_str == NULL && !no_prepare) {
		s->prepare = tree->prepare;
		s->prepare_str = "make -s -f Makefile clean";
	}
}

/* The job and each run's prepare step; returns the inferred prepare's
 * argv to free, or NULL. */
static char **
the_job(struct session *s, char **argv, int argc, struct builtin_job *tree,
    int no_prepare, char *prep_argv[4])
{
	char **inferred = NULL;

	if (argc == 0)
		builtin_job(s, tree, no_prepare);
	else {
		s->argv = argv;
		s->command = argv_join(argv, 0);
		if (s->prepare_str == NULL && !no_prepare && s->sweep.n == 0)
			inferred = prepare_infer(s);
	}
	if (s->sweep.n) {
		prepare_cells(s, tree, no_prepare);
	} else if (s->prepare == NULL && s->prepare_str) {
		prep_argv[0] = (char *)"/bin/sh";
		prep_argv[1] = (char *)"-c";
		prep_argv[2] = (char *)s->prepare_str;
		prep_argv[3] = NULL;
		s->prepare = prep_argv;
	}
	return inferred;
}

/* What the session holds, given back. */
static void
session_free(struct session *s, struct builtin_job *tree, char **inferred)
{
	free(s->lines);
	if (inferred) {
		argv_free(inferred);
		free((char *)s->prepare_str);
	}
	free(s->results_path);
	free(s->log_path);
	if (s->cells) {
		for (size_t i = 0; i < s->ncells; i++)
			sweep_cell_free(&s->cells[i]);
		free(s->cells);
		free((char *)s->command_template);
		s->command = NULL;
	}
	sweep_free(&s->sweep);
	if (!s->builtin)
		free((char *)s->command);
	builtin_free(tree);
	if (s->results_fd >= 0)
		close(s->results_fd);
	if (s->log_fd >= 0)
		close(s->log_fd);
	if (s->cap_fd >= 0)
		close(s->cap_fd);
	jm_free(s->jm, s->njm);
	if (s->dir_fd >= 0)
		close(s->dir_fd);
}

int
cmd_run(int argc, char **argv)
{
	struct session s;
	struct loadspec slots[MAX_LOADS + 1];
	static struct variant vars[VARIANT_MAX];
	struct run_cli c = { .slots = slots, .variants = vars };
	struct builtin_job tree;	/* the built-in job, when it is the job */
	char err[512], *prep_argv[4];

	memset(&tree, 0, sizeof tree);
	tree.dir_fd = -1;
	/* as given, for scope_enter: parsing permutes and advances argv
	 * (static: reachable, not leaked, on every early return or exit) */
	static char **given;
	given = calloc((size_t)argc + 1, sizeof *given);
	if (given == NULL)
		fatal(1, "out of memory");
	memcpy(given, argv, (size_t)argc * sizeof *given);
	argv = run_args(argc, argv, &s, &c, &argc);
	if (c.help) {
		free(given);
		given = NULL;
		usage_run(stdout);
		return finish_stdout();
	}

	/* before anything is opened or written: this may exec us again */
	scope_enter(given);
	free(given);
	given = NULL;
	sysinfo_collect(&s.si);
	session_id(s.id, sizeof s.id);
	if (s.label == NULL)
		s.label = s.si.kernel;
	s.slots = slots;
	s.dir = results_dir(c.outdir);
	/* what a variant without a scheduler of its own runs under */
	provenance_sched_ext(s.scx0, sizeof s.scx0);
	for (size_t i = 0; i < s.nvariants; i++)
		if (s.variants[i].kind == VK_SCHED_EXT && (s.scx0[0] == '\0' ||
		    strcmp(s.scx0, "none") == 0))
			fatal(1, "--variant %s: this kernel has no sched_ext (no "
			    "/sys/kernel/sched_ext/state)", s.variants[i].name);

	proc_init();
	if (results_open(&s, err, sizeof err) < 0)
		usage_fail("%s", err);
	contain_session(&s);
	char **inferred = the_job(&s, argv, argc, &tree, c.no_prepare, prep_argv);

	/* the probe's work: none by default (a pure wake-up, whose cost on
	 * the job stays under 1%); --probe-work 5 is interbench's audio */
	if (s.probe.period_ms && s.probe.work_mpct)
		s.probe.work = probe_calibrate(s.probe.period_ms,
		    s.probe.work_mpct / 1e5);
	provenance_read(&s.prov, s.builtin ? tree.dir : makejob_dir(s.argv));
	if (s.until_ci_pct > 0)
		s.narrow = session_narrow;
	int status = session_run(&s);

	session_table(&s);
	session_until_ci_line(&s);
	printf("containment: %s\n", s.containment);
	if (s.log_path)
		printf("results: %s  log: %s\n", s.results_path, s.log_path);
	if (finish_stdout() && status == 0)
		status = 1;
	session_free(&s, &tree, inferred);
	return status;
}
