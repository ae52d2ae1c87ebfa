/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "cli.h"
#include "fgtree.h"
#include "loadspec.h"
#include "makejob.h"
#include "num.h"
#include "proc.h"
#include "report.h"
#include "results.h"
#include "run.h"
#include "schedopt.h"
#include "scope.h"
#include "sweep.h"
#include "util.h"

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
	    "                [--load-cpus LIST] [--job-cpus LIST] [--load-pids-max N]\n"
	    "                [--latency[=MS]] [--probe-nice N] [--probe-work PCT]\n"
	    "                [--sweep NAME=V1,V2,...] [--until-ci PCT] [--series]\n"
	    "                [--lead-max SECONDS] [--keep-suspect]\n"
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
	    "      --load-pids-max N  each load's cgroup capped at N processes\n"
	    "                       (default 20000, 1..4194304)\n"
	    "      --latency[=MS]   a latency probe beside the job in every run: wakes\n"
	    "                       every MS ms (default 10, 1..1000) on absolute times\n"
	    "      --probe-nice N   the probe at nice N (default: the job's)\n"
	    "      --probe-work PCT its work each period, in percent of a CPU (default\n"
	    "                       0: a pure wake-up; 5 is interbench's audio; 0..50)\n"
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

/*
 * A make job with no --prepare is cleaned before every run by its own
 * make with "clean", unless make -n says there is no such step.  Returns
 * the argv to free, or NULL.
 */
static char **
infer_prepare(struct session *s)
{
	char **dry = makejob_clean(s->argv, 1);
	struct rusage ru;
	struct exec_fail f;
	int st;

	if (dry == NULL)
		return NULL;
	char **clean = makejob_clean(s->argv, 0);
	char *text = argv_join(clean, 1);
	pid_t pid = proc_exec(dry, s->log_fd, -1, NULL, &f, NULL);
	argv_free(dry);
	if (pid < 0)
		fatal(1, "%s: cannot run '%s -n': %s", s->argv[0], text,
		    f.why[0] ? f.why : strerror(f.err));
	int w = proc_wait(pid, &st, &ru), we = errno;
	proc_kill_group(pid, NULL, 0, NULL);
	if (w < 0 && proc_signal)
		fatal(128 + proc_signal, "interrupted by signal %d before the first run",
		    (int)proc_signal);
	if (w < 0)
		fatal(1, "waiting for '%s -n': %s", text, strerror(we));
	if (st != 0) {
		warnmsg("a make job, but '%s' would fail (make -n: status %d; see %s): "
		    "runs are not prepared, give --prepare CMD", text,
		    proc_exit_code(st), s->log_path);
		argv_free(clean);
		free(text);
		return NULL;
	}
	warnmsg("each run is prepared with '%s' (a make job; --prepare '' for none)",
	    text);
	s->prepare = clean;
	s->prepare_str = text;
	s->prepare_inferred = 1;
	return clean;
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

/*
 * The options and COMMAND, every one checked before anything runs; bad
 * input ends here with one line and exit 2.  *cmdc and the return: the
 * COMMAND's words (none: the built-in job); NULL with *help set for
 * --help.
 */
static char **
run_args(int argc, char **argv, struct session *s, struct loadspec *slots,
    const char **outdir, int *no_prepare, int *cmdc, int *help)
{
	static const struct option longopts[] = {
		{ "runs", required_argument, NULL, 'n' },
		{ "warmup", required_argument, NULL, 'W' },
		{ "prepare", required_argument, NULL, 'P' },
		{ "lead", required_argument, NULL, 'L' },
		{ "lead-max", required_argument, NULL, 'M' },
		{ "label", required_argument, NULL, 'k' },
		{ "output", required_argument, NULL, 'o' },
		{ "load", required_argument, NULL, 'l' },
		{ "load-nice", required_argument, NULL, 'N' },
		{ "load-policy", required_argument, NULL, 'Y' },
		{ "load-cpus", required_argument, NULL, 'C' },
		{ "job-cpus", required_argument, NULL, 'J' },
		{ "load-pids-max", required_argument, NULL, 'X' },
		{ "latency", optional_argument, NULL, 'T' },
		{ "probe-nice", required_argument, NULL, 'E' },
		{ "probe-work", required_argument, NULL, 'R' },
		{ "sweep", required_argument, NULL, 'S' },
		{ "until-ci", required_argument, NULL, 'U' },
		{ "series", no_argument, NULL, 'Z' },
		{ "keep-suspect", no_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *why;
	char err[512];
	long long v;
	int ch, runs_given = 0, probe_work = 0;

	memset(s, 0, sizeof *s);
	*outdir = NULL;
	*no_prepare = *help = 0;
	s->runs = 3;
	/* the first run of a session meets a cold page cache, cold dentries
	 * and host tools not yet read: never a measurement by default */
	s->warmup = 1;
	s->lead_ms = 3000;
	s->lead_max_ms = LEAD_MAX_MS;
	s->pids_max = LOAD_PIDS_MAX;
	s->dir_fd = s->results_fd = s->log_fd = s->job_dirfd = -1;
	if (loadspec_parse("no_load", &slots[0], err, sizeof err) < 0)
		usage_fail("%s", err);
	s->nslots = 1;

	getopt_restart();
	while ((ch = getopt_long(argc, argv, "+:n:k:o:l:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'n':
			number_arg("-n", optarg, 1, MAX_RUNS, &v);
			s->runs = (unsigned)v;
			runs_given = 1;
			break;
		case 'W':
			number_arg("--warmup", optarg, 0, MAX_WARMUP, &v);
			s->warmup = (unsigned)v;
			break;
		case 'P':
			/* '' asks for no prepare step, even for a make job */
			*no_prepare = *optarg == '\0';
			s->prepare_str = *no_prepare ? NULL : optarg;
			break;
		case 'L':
			s->lead_ms = seconds_arg("--lead", optarg);
			break;
		case 'M':
			s->lead_max_ms = seconds_arg("--lead-max", optarg);
			break;
		case 'k':
			if (*optarg == '\0' || strlen(optarg) > 200)
				usage_fail("-k: label must be 1..200 characters");
			for (const char *p = optarg; *p; p++)
				if ((unsigned char)*p < 0x20 || *p == 0x7f)
					usage_fail("-k: label holds a control character");
			s->label = optarg;
			break;
		case 'o':
			if (*optarg == '\0')
				usage_fail("-o: empty directory name");
			*outdir = optarg;
			break;
		case 'l':
			if (s->nslots > MAX_LOADS)
				usage_fail("-l: at most %d loads", MAX_LOADS);
			if (loadspec_parse(optarg, &slots[s->nslots], err, sizeof err) < 0)
				usage_fail("%s", err);
			if (slots[s->nslots].load == slots[0].load)
				break;	/* no_load is always measured */
			for (size_t i = 1; i < s->nslots; i++)
				if (strcmp(slots[i].name, slots[s->nslots].name) == 0)
					usage_fail("-l: load '%s' given twice", slots[i].name);
			s->nslots++;
			break;
		case 'N':
			number_arg("--load-nice", optarg, -20, 19, &v);
			s->sched.load.has_nice = 1;
			s->sched.load.nice = (int)v;
			break;
		case 'Y':
			if ((s->sched.load.policy = sched_policy_parse(optarg)) < 0)
				usage_fail("--load-policy: '%s' is not other, batch or idle",
				    optarg);
			s->sched.load.has_policy = 1;
			break;
		case 'X':
			number_arg("--load-pids-max", optarg, 1, 4194304, &v);
			s->pids_max = v;
			break;
		case 'T':
			v = 10;
			if (optarg)
				number_arg("--latency", optarg, 1, 1000, &v);
			s->probe.period_ms = (unsigned)v;
			break;
		case 'E':
			number_arg("--probe-nice", optarg, -20, 19, &v);
			s->probe.has_nice = 1;
			s->probe.nice = (int)v;
			break;
		case 'R':
			v = num_parse_ms(optarg, 50000, &why);
			if (why)
				usage_fail("--probe-work: '%s' is %s (allowed 0..50 percent, "
				    "at most 3 decimals)", optarg, why);
			s->probe.work_mpct = (unsigned)v;
			probe_work = 1;
			break;
		case 'C':
		case 'J':
			if (sched_cpus_parse(optarg, ch == 'C' ? &s->sched.load :
			    &s->sched.job, err, sizeof err) < 0)
				usage_fail("%s: %s", ch == 'C' ? "--load-cpus" : "--job-cpus",
				    err);
			break;
		case 'Z':
			s->series = 1;
			break;
		case 'K':
			s->keep_suspect = 1;
			break;
		case 'U':
			v = num_parse_ms(optarg, 100000, &why);
			if (why || v == 0)
				usage_fail("--until-ci: '%s' is %s (allowed 0.001..100 percent, "
				    "at most 3 decimals)", optarg, why ? why : "zero");
			s->until_ci_pct = (double)v / 1000;
			break;
		case 'S':
			if (sweep_add(&s->sweep, optarg, err, sizeof err) < 0)
				usage_fail("--sweep: %s", err);
			break;
		case 'h':
			*help = 1;
			return NULL;
		default:
			getopt_fail("run", ch, argv);
		}
	}
	if (s->until_ci_pct > 0 && !runs_given)
		s->runs = 30;
	if (s->until_ci_pct > 0 && s->runs < 3)
		usage_fail("--until-ci: -n %u is too few (at least 3 rounds)", s->runs);
	if (s->probe.has_nice && s->probe.period_ms == 0)
		usage_fail("--probe-nice: there is no probe without --latency");
	if (probe_work && s->probe.period_ms == 0)
		usage_fail("--probe-work: there is no probe without --latency");
	argc -= optind;
	argv += optind;
	if (argc > 0 && argv[0][0] == '\0')
		usage_fail("empty command name");
	if (s->sweep.n && sweep_check(&s->sweep, argc > 0 ? argv : NULL,
	    s->prepare_str, err, sizeof err) < 0)
		usage_fail("--sweep: %s", err);
	if (argc > 0) {
		int e = proc_find_command(argv[0], s->job_path, sizeof s->job_path);
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
	*cmdc = argc;
	return argv;
}

int
cmd_run_check(int argc, char **argv)
{
	struct session s;
	struct loadspec slots[MAX_LOADS + 1];
	const char *outdir;
	int no_prepare, cmdc, help;

	run_args(argc, argv, &s, slots, &outdir, &no_prepare, &cmdc, &help);
	sweep_free(&s.sweep);
	return 0;
}

/*
 * A sweep's cells: the job and its prepare step at each combination of
 * values.  A make job with no --prepare gets each cell's own clean step.
 */
static void
make_cells(struct session *s, struct fgtree *tree, int no_prepare)
{
	char *const *argv = s->argv;
	/* the built-in job's own clean step runs in its tree, as it is */
	int tree_clean = s->builtin && s->prepare == tree->prepare;
	const char *prepare = tree_clean ? NULL : s->prepare_str;

	s->ncells = sweep_ncells(&s->sweep);
	s->cells = xcalloc(s->ncells, sizeof *s->cells);
	/* the template is the command as given: the session's to free */
	s->command_template = s->builtin ? xstrdup(s->command) : s->command;
	for (size_t i = 0; i < s->ncells; i++) {
		struct sweep_cell *c = &s->cells[i];
		sweep_cell(&s->sweep, i, argv, prepare, c);
		if (tree_clean) {
			c->prepare = tree->prepare;
			c->prepare_str = xstrdup(s->prepare_str);
		} else if (c->prepare_str) {
			c->prepare = xcalloc(4, sizeof *c->prepare);
			c->prepare[0] = xstrdup("/bin/sh");
			c->prepare[1] = xstrdup("-c");
			c->prepare[2] = xstrdup(c->prepare_str);
			c->own_prepare = 1;
		} else if (!s->builtin && !no_prepare) {
			s->argv = c->argv;
			s->prepare = NULL;
			s->prepare_str = NULL;
			if (infer_prepare(s)) {
				c->prepare = (char **)s->prepare;
				c->prepare_str = (char *)s->prepare_str;
				c->prepare_inferred = 1;
				c->own_prepare = 1;
			}
		}
	}
	s->prepare_inferred = 0;
}

/* Where the job runs: a make job's -C DIR (the last one), else ".". */
static const char *
job_dir(char *const argv[])
{
	const char *dir = ".";

	if (!makejob_is_make(argv[0]))
		return dir;
	for (size_t i = 1; argv[i]; i++) {
		if (strcmp(argv[i], "-C") == 0 && argv[i + 1])
			dir = argv[++i];
		else if (strncmp(argv[i], "-C", 2) == 0 && argv[i][2])
			dir = argv[i] + 2;
		else if (strncmp(argv[i], "--directory=", 12) == 0)
			dir = argv[i] + 12;
	}
	return dir;
}

/* The session's own results lines read back by the report code and
 * summarised; -1: no run finished, nothing to read. */
static int
read_back(const struct session *s, struct rset *rs)
{
	struct rfilter all = { .keep_suspect = s->keep_suspect };

	memset(rs, 0, sizeof *rs);
	if (s->lines_len == 0)
		return -1;
	if (rset_add_mem(rs, s->results_path, s->lines, s->lines_len, &all) < 0)
		fatal(1, "reading back this session's results: %s", strerror(errno));
	rset_summarise(rs, RSORT_FIRST);
	return 0;
}

/*
 * The session's table: its own results lines, read back by the report
 * code and printed as `contest report` prints that file, so that the
 * two can never disagree.
 */
static void
print_table(const struct session *s)
{
	struct rset rs;

	if (read_back(s, &rs) < 0)
		return;		/* no run finished: nothing to tell */
	report_text(stdout, &rs, 0, 0);
	report_warn_suspects(&rs);
	rset_free(&rs);
}

/* The cells an --until-ci session has not narrowed yet, for its last line. */
static char ci_note[1024];

/*
 * Is every cell's interval narrow enough to stop: each load's Ratio CI95
 * within until_ci_pct percent of the Ratio (no_load's Time CI95 when no
 * load runs)?  The same figures the table prints, from the same lines.
 */
static int
ci_narrow(struct session *s)
{
	struct rset rs;
	int narrow = 1, any = 0;
	size_t used = 0;

	ci_note[0] = '\0';
	if (read_back(s, &rs) < 0)
		return 0;
	for (size_t r = 0; r < rs.nrow; r++)
		for (size_t b = 0; b < rs.nblk; b++) {
			const struct rcell *c = rset_cell(&rs, r, b);
			int base = b == rs.base;
			if ((base && rs.nblk > 1) || !rcell_ran(c))
				continue;
			any = 1;
			double rel = base ? (c->ok > 1 ? rcell_fig(c, FIG_WALL)->ci95 / rcell_fig(c, FIG_WALL)->mean : NAN) :
			    c->ratio_ci95 / c->ratio;
			rel *= 100;
			if (rel <= s->until_ci_pct)
				continue;
			narrow = 0;
			if (used < sizeof ci_note)
				used += (size_t)snprintf(ci_note + used, sizeof ci_note - used,
				    "%s%s%s%s (%s%.1f%%)", used ? ", " : "", rs.blk[b].name,
				    rs.nrow > 1 ? " " : "", rs.nrow > 1 ? rs.row[r].name : "",
				    base ? "Time \xc2\xb1" : "\xc2\xb1", isnan(rel) ? 0 : rel);
		}
	rset_free(&rs);
	return narrow && any;
}

/* What --until-ci did, under the table. */
static void
until_ci_line(struct session *s)
{
	if (s->until_ci_pct <= 0 || s->rounds_measured == 0)
		return;
	if (s->stopped_early)
		printf("until-ci %g%%: stopped after %u of at most %u rounds: every "
		    "Ratio's CI95 within %g%% of it\n", s->until_ci_pct,
		    s->rounds_measured, s->runs, s->until_ci_pct);
	else if (ci_narrow(s))
		printf("until-ci %g%%: every Ratio's CI95 within %g%% of it after %u "
		    "rounds\n", s->until_ci_pct, s->until_ci_pct, s->rounds_measured);
	else
		printf("until-ci %g%%: ran %u rounds, -n's most; not within %g%%: %s\n",
		    s->until_ci_pct, s->rounds_measured, s->until_ci_pct, ci_note);
}

int
cmd_run(int argc, char **argv)
{
	struct session s;
	struct loadspec slots[MAX_LOADS + 1];
	struct fgtree tree;
	const char *outdir;
	char err[512], *prep_argv[4], **inferred = NULL;
	int no_prepare, help;

	memset(&tree, 0, sizeof tree);
	tree.dir_fd = -1;
	/* as given, for scope_enter: parsing permutes and advances argv
	 * (static: reachable, not leaked, on every early return or exit) */
	static char **given;
	given = calloc((size_t)argc + 1, sizeof *given);
	if (given == NULL)
		fatal(1, "out of memory");
	memcpy(given, argv, (size_t)argc * sizeof *given);
	argv = run_args(argc, argv, &s, slots, &outdir, &no_prepare, &argc, &help);
	if (help) {
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
	s.dir = results_dir(outdir);

	proc_init();
	if (results_open(&s, err, sizeof err) < 0)
		usage_fail("%s", err);
	static char contained[1024];
	const char *nocg = getenv("CONTEST_CGROUP");
	if (nocg && strcmp(nocg, "0") == 0)
		snprintf(contained, sizeof contained, "process groups and a watchdog "
		    "(cgroups off: CONTEST_CGROUP=0)");
	else if (cg_session_init(err, sizeof err) == 0) {
		proc_watch_cgroup(cg_session_path(), cg_pids_session());
		static char where[320];
		char pids[320];
		if (scope_unit())
			snprintf(where, sizeof where, "%s, Delegate=yes, made by "
			    "contest", scope_unit());
		else
			snprintf(where, sizeof where, "%s", cg_where());
		if (cg_pids_where())
			snprintf(pids, sizeof pids, "pids.max in force (%s)",
			    cg_pids_where());
		else
			snprintf(pids, sizeof pids, "no pids.max (%s)", scope_why() ?
			    scope_why() : "no pids controller for us");
		snprintf(contained, sizeof contained, "a cgroup v2 per load run "
		    "(cgroup.kill) under %.300s (in %.300s), %.300s, process groups and a "
		    "watchdog", cg_session_path(), where, pids);
		s.cgroup_where = where;
	} else
		snprintf(contained, sizeof contained, "process groups and a watchdog "
		    "(no cgroup: %.300s)", err);
	s.containment = contained;

	if (argc == 0) {
		if (fgtree_setup(s.dir_fd, s.dir, s.si.nproc, &tree, err, sizeof err) < 0) {
			if (tree.refused)
				usage_fail("the default job: %s", err);
			fatal(1, "%s", err);
		}
		if (tree.generated)
			warnmsg("generated the default job in %s", tree.dir);
		if (tree.restored)
			warnmsg("the default job in %s was not what contest generates "
			    "(%s): written again", tree.dir, tree.differs);
		/* The job's make must not join a make that runs us. */
		unsetenv("MAKEFLAGS");
		unsetenv("MFLAGS");
		unsetenv("MAKELEVEL");
		s.argv = tree.argv;
		s.command = tree.command;
		s.job_dirfd = tree.dir_fd;
		s.builtin = 1;
		s.job_sha256 = tree.sha256;
		if (s.prepare_str == NULL && !no_prepare) {
			s.prepare = tree.prepare;
			s.prepare_str = "make -s -f Makefile clean";
		}
	} else {
		s.argv = argv;
		s.command = argv_join(argv, 0);
		if (s.prepare_str == NULL && !no_prepare && s.sweep.n == 0)
			inferred = infer_prepare(&s);
	}
	if (s.sweep.n) {
		make_cells(&s, &tree, no_prepare);
	} else if (s.prepare == NULL && s.prepare_str) {
		prep_argv[0] = (char *)"/bin/sh";
		prep_argv[1] = (char *)"-c";
		prep_argv[2] = (char *)s.prepare_str;
		prep_argv[3] = NULL;
		s.prepare = prep_argv;
	}

	/* the probe's work: none by default (a pure wake-up, whose cost on
	 * the job stays under 1%); --probe-work 5 is interbench's audio */
	if (s.probe.period_ms && s.probe.work_mpct)
		s.probe.work = probe_calibrate(s.probe.period_ms,
		    s.probe.work_mpct / 1e5);
	provenance_read(&s.prov, s.builtin ? tree.dir : job_dir(s.argv));
	if (s.until_ci_pct > 0)
		s.narrow = ci_narrow;
	int status = session_run(&s);

	print_table(&s);
	until_ci_line(&s);
	printf("containment: %s\n", s.containment);
	if (s.log_path)
		printf("results: %s  log: %s\n", s.results_path, s.log_path);
	if (finish_stdout() && status == 0)
		status = 1;
	free(s.lines);
	if (inferred) {
		argv_free(inferred);
		free((char *)s.prepare_str);
	}
	free(s.results_path);
	free(s.log_path);
	if (s.cells) {
		for (size_t i = 0; i < s.ncells; i++)
			sweep_cell_free(&s.cells[i]);
		free(s.cells);
		free((char *)s.command_template);
		s.command = NULL;
	}
	sweep_free(&s.sweep);
	if (!s.builtin)
		free((char *)s.command);
	fgtree_free(&tree);
	if (s.results_fd >= 0)
		close(s.results_fd);
	if (s.log_fd >= 0)
		close(s.log_fd);
	if (s.dir_fd >= 0)
		close(s.dir_fd);
	return status;
}
