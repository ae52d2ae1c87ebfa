/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * contest run: the command line checked whole before anything runs (its
 * options are runopt_table.c), then the session put together (its
 * results dir, containment, the job and its prepare step), run, and
 * ended with its table.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "columns.h"
#include "command.h"
#include "contain.h"
#include "builtin.h"
#include "makejob.h"
#include "provenance.h"
#include "proc.h"
#include "results.h"
#include "rounds.h"
#include "runopt.h"
#include "scope.h"
#include "session_table.h"
#include "thejob.h"
#include "util.h"

void
usage_run(FILE *f)
{
	runopt_usage(f, "Time COMMAND with no load and beside each load, in "
	    "interleaved rounds.\nWithout COMMAND, time the built-in default "
	    "job: a generated C tree\nbuilt with make -jNCPU (needs cc and "
	    "make).");
}

/* The probe's options together: each needs the probe, its CPUs this
 * process may use and not too many, its policy one this system has. */
static void
probe_check(struct session *s)
{
	const struct run_config *c = &s->cfg;
	struct probe_cfg *p = &s->cfg.probe;
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
run_rest(int argc, char **argv, struct session *s, int *cmdc)
{
	char err[512];

	if (s->cfg.until_ci_pct > 0 && !s->cfg.runs_given)
		s->cfg.runs = 30;
	if (s->cfg.until_ci_pct > 0 && s->cfg.runs < 3)
		usage_fail("--until-ci: -n %u is too few (at least 3 rounds)", s->cfg.runs);
	probe_check(s);
	if (argc == 0 && s->cfg.dashdash)
		usage_fail("no command after '--': name the command to time, or "
		    "leave '--' out for the built-in job");
	if (argc > 0 && argv[0][0] == '\0')
		usage_fail("empty command name");
	if (!s->cfg.dashdash)
		runopt_tail_check(argc, argv);
	if (s->cfg.sweep.n && sweep_check(&s->cfg.sweep, argc > 0 ? argv : NULL,
	    s->prepare_str, err, sizeof err) < 0)
		usage_fail("--sweep: %s", err);
	if (argc > 0) {
		int e = command_find(argv[0], s->job_path, sizeof s->job_path);
		if (e == ENOENT && !strchr(argv[0], '/'))
			fatal(127, "%s: command not found", argv[0]);
		if (e)
			fatal(e == ENOENT ? 127 : 126, "%s: %s", argv[0], strerror(e));
	}
	if (sched_check(&s->cfg.sched.load, err, sizeof err) < 0)
		usage_fail("loads: %s", err);
	if (sched_check(&s->cfg.sched.job, err, sizeof err) < 0)
		usage_fail("job: %s", err);
	sched_describe(&s->cfg.sched, s->sched_text, sizeof s->sched_text);
	if (s->cfg.nvariants == 1)
		usage_fail("--variant: one variant compares with nothing: give two or "
		    "more");
	for (size_t i = 0; i < s->cfg.nvariants; i++)
		if (variant_sched(&s->cfg.variants[i], &s->cfg.sched, err, sizeof err) < 0)
			usage_fail("--variant %s: loads: %s", s->cfg.variants[i].name, err);
	*cmdc = argc;
	return argv;
}

/*
 * The options and COMMAND, every one checked before anything runs; bad
 * input ends here with one line and exit 2.  *cmdc and the return: the
 * COMMAND's words (none: the built-in job); NULL for --help.
 */
static char **
run_args(int argc, char **argv, struct session *s, int *cmdc)
{
	static struct job_metric jm_store[JM_MAX];
	static struct loadspec slots[RUN_LOADS_MAX + 1];
	static struct variant vars[VARIANT_MAX];
	struct run_config *c = &s->cfg;
	char err[512];
	int bad = 0;

	memset(s, 0, sizeof *s);
	s->dir_fd = s->results_fd = s->log_fd = s->job_dirfd = s->cap_fd = -1;
	/* what a parse that exited half way (a fuzzer's) compiled goes now */
	jm_free(jm_store, JM_MAX);
	c->jm = jm_store;
	c->slots = slots;
	c->variants = vars;
	if (loadspec_parse("no_load", &c->slots[0], err, sizeof err) < 0)
		usage_fail("%s", err);
	c->nslots = 1;

	int first = runopt_parse(argc, argv, c, &bad);
	if (first == -2)
		return NULL;
	if (first < 0)
		getopt_fail("run", bad, argv);
	/* a metric is a --gate name beside compare's own figures */
	for (size_t i = 0; i < c->njm; i++)
		if (cmp_gate_parse(c->jm[i].name))
			usage_fail("--job-metric: '%s' is the name of one of "
			    "contest's own figures", c->jm[i].name);
	s->label = c->label;
	s->prepare_str = c->prepare;
	return run_rest(argc - first, argv + first, s, cmdc);
}

int
cmd_run_check(int argc, char **argv)
{
	struct session s;
	int cmdc;

	run_args(argc, argv, &s, &cmdc);
	sweep_free(&s.cfg.sweep);
	jm_free(s.cfg.jm, s.cfg.njm);
	return 0;
}

int
cmd_run(int argc, char **argv)
{
	struct session s;
	struct builtin_job tree;	/* the built-in job, when it is the job */
	char err[512], *prep_argv[4];

	memset(&tree, 0, sizeof tree);
	tree.dir_fd = -1;
	argv = run_args(argc, argv, &s, &argc);
	if (argv == NULL) {
		usage_run(stdout);
		return finish_stdout();
	}

	/* before anything is opened or written: this may exec us again,
	 * asking for what was asked here */
	scope_enter(&s.cfg, argv, argc);
	sysinfo_collect(&s.si);
	session_id(s.id, sizeof s.id);
	if (s.label == NULL)
		s.label = s.si.kernel;
	s.dir = results_dir(s.cfg.outdir);
	/* what a variant without a scheduler of its own runs under */
	provenance_sched_ext(s.scx0, sizeof s.scx0);
	for (size_t i = 0; i < s.cfg.nvariants; i++)
		if (s.cfg.variants[i].kind == VK_SCHED_EXT && (s.scx0[0] == '\0' ||
		    strcmp(s.scx0, "none") == 0))
			fatal(1, "--variant %s: this kernel has no sched_ext (no "
			    "/sys/kernel/sched_ext/state)", s.cfg.variants[i].name);

	proc_init();
	if (results_open(&s, err, sizeof err) < 0)
		usage_fail("%s", err);
	contain_session(&s);
	char **inferred = the_job(&s, argv, argc, &tree, s.cfg.no_prepare,
	    prep_argv);

	/* the probe's work: none by default (a pure wake-up, whose cost on
	 * the job stays under 1%); --probe-work 5 is interbench's audio */
	if (s.cfg.probe.period_ms && s.cfg.probe.work_mpct)
		s.cfg.probe.work = probe_calibrate(s.cfg.probe.period_ms,
		    s.cfg.probe.work_mpct / 1e5);
	provenance_read(&s.prov, s.builtin ? tree.dir : makejob_dir(s.argv));
	if (s.cfg.until_ci_pct > 0)
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
