/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * contest bisect: for git bisect run, whether a label's runs look like
 * GOOD's or BAD's.  With --run it first measures the kernel booted: a
 * session of contest's own, a round more at each look until the call
 * is made or -n is spent, each look at alpha over the looks there can
 * be, so that stopping once decided keeps the call's error; the step it
 * judges is GOOD's and BAD's alone, decided once (bisect.c).
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "query.h"
#include "report.h"
#include "results_dir.h"
#include "runopt.h"
#include "rset.h"
#include "sys.h"
#include "util.h"
#include "waitfor.h"

/* git bisect run stops on an exit above 127: where nothing can be
 * called (no step, a label with no results, a session that could not
 * run), the bisect must stop, not take the commit for bad. */
#define BISECT_ABORT	255

static volatile sig_atomic_t stop_sig;

static void
on_stop(int sig)
{
	stop_sig = sig;
}

static void
on_child(int sig)
{
	(void)sig;	/* only here so that waitfor() returns */
}

/* The labels, checked: none empty, none twice. */
static void
labels_in(char **argv, int n)
{
	for (int a = 0; a < n; a++) {
		if (*argv[a] == '\0')
			usage_fail("empty label");
		for (int b = 0; b < a; b++)
			if (strcmp(argv[a], argv[b]) == 0)
				usage_fail("label '%s' is given twice", argv[a]);
	}
}

/* q's results, labels[0..n) alone, with the rounds paired tests need. */
static void
read_labels(struct rset *rs, const struct query *q0, char *const *labels, int n)
{
	struct query q = *q0;

	q.f.labels = q.labels;
	for (int a = 0; a < n; a++)
		q.labels[a] = labels[a];
	q.f.nlabels = (size_t)n;
	q.f.pairs = 1;
	memset(rs, 0, sizeof *rs);
	query_load(rs, NULL, 0, &q);
	char bad[64];
	if (q.cmp.gate_names && cmp_gate_metrics(rs->figs, q.cmp.gate_names, bad,
	    sizeof bad) == 0 && bad[0])
		usage_fail("--gate: '%s' is neither one of contest's figures nor a job "
		    "metric of these results", bad);
}

/* Run av (contest itself) and wait, asleep until it ends or a stop
 * signal comes, which it is sent too; its exit status, 128+sig. */
static int
session(char **av)
{
	char self[4096];
	ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
	pid_t parent = getpid(), pid;
	int st = 0, sent = 0;

	/* the contest on PATH where /proc cannot say which this is */
	if (len <= 0)
		snprintf(self, sizeof self, "contest");
	else
		self[len] = '\0';
	fflush(stdout);
	if ((pid = fork()) < 0) {
		warnmsg("--run: fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		/* a session outlives no bisect, even one killed with -9 */
		if (die_with_parent(parent) < 0)
			_exit(127);
		execvp(self, av);
		warnmsg("--run: %s: %s", self, strerror(errno));
		_exit(127);
	}
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			warnmsg("--run: waitpid: %s", strerror(errno));
			return -1;
		}
		if (stop_sig && !sent) {
			kill(pid, stop_sig);
			sent = 1;
		}
		waitfor(-1, WAITFOR_READ, -1);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* GOOD's settings as its results say them ("config"), bar the session's
 * shape, which bisect sets; said once, on the first session.  Results
 * from before "config": its loads, lead and explicit prepare step (a
 * make job's inferred one is inferred again). */
static size_t
replay(const struct rrun *env, const struct rset *rs, int first, char **av,
    char *lead)
{
	size_t k = 0;

	if (env && env->config) {
		k = runopt_argv(env->config, env->nconfig, RUNOPT_REPLAY, av);
		if (first) {
			char said[900];
			size_t off = 0;
			said[0] = '\0';
			for (size_t i = 0; i < k && off < sizeof said; i++)
				off += (size_t)snprintf(said + off, sizeof said - off,
				    " %s", av[i]);
			warnmsg("--run: GOOD's settings replayed:%s", k ? said : " none");
		}
		/* no_load alone was asked as no -l at all */
		return k;
	}
	if (first)
		warnmsg("--run: GOOD's results say no config (an older "
		    "contest): replaying its loads, lead and prepare step alone");
	if (env && !isnan(env->lead_s)) {
		snprintf(lead, 32, "--lead=%.3f", env->lead_s);
		av[k++] = xstrdup(lead);
	}
	if (env && env->prepare && env->prepare_inferred == 0)
		av[k++] = xstrdup("--prepare"), av[k++] = xstrdup(env->prepare);
	for (size_t b = 0; b < rs->nblk; b++)
		if (b != rs->base || rs->nblk == 1)	/* no_load alone: -l no_load */
			av[k++] = xstrdup("-l"), av[k++] = xstrdup(rs->blk[b].name);
	return k;
}

/* contest run -o DIR -k CAND -n ADD [--warmup 0] GOOD'S SETTINGS --
 * COMMAND */
static int
add_rounds(const char *dir, const char *cand, unsigned add, int first,
    const struct rset *rs, const char *good, char **cmd, int ncmd)
{
	const struct rrun *env = NULL;
	char n[16], lead[32];
	size_t k = 0;

	for (size_t r = 0; r < rs->nrow && env == NULL; r++)
		if (strcmp(rs->row[r].label, good) == 0)
			env = rs->row[r].env;
	size_t nset = env && env->config ? env->nconfig : 2 * rs->nblk + 4;
	char **av = xcalloc(12 + nset + (size_t)ncmd, sizeof *av);
	snprintf(n, sizeof n, "%u", add);
	av[k++] = "contest", av[k++] = "run", av[k++] = "-o", av[k++] = (char *)dir;
	av[k++] = "-k", av[k++] = (char *)cand, av[k++] = "-n", av[k++] = n;
	if (!first)	/* the first session's warmup warmed the machine */
		av[k++] = "--warmup", av[k++] = "0";
	size_t from = k;
	k += replay(env, rs, first, av + k, lead);
	size_t to = k;
	av[k++] = "--";
	for (int i = 0; i < ncmd; i++)
		av[k++] = cmd[i];
	int rc = session(av);
	for (size_t i = from; i < to; i++)
		free(av[i]);
	free(av);
	return rc;
}

/* Where the session writes: the one results directory -f names, or the
 * results dir. */
static const char *
run_dir(const struct query *q)
{
	struct stat st;

	if (q->npaths == 0)
		return results_dir(NULL);
	if (q->npaths > 1 || stat(q->paths[0], &st) != 0 || !S_ISDIR(st.st_mode))
		usage_fail("--run: -f names one results directory, where the "
		    "session is written");
	return q->paths[0];
}

/* One look: the call on the runs so far (0, 1, 125), its lines to f. */
static int
look(FILE *f, const struct query *q, char **three)
{
	struct rset rs;

	read_labels(&rs, q, three, 3);
	int rc = bisect_decide(f, &rs, three[0], three[1], three[2], &q->cmp);
	rset_free(&rs);
	return rc;
}

static int
bisect_run(struct query *q, char **argv, int n)
{
	unsigned max = q->rounds_max ? q->rounds_max : 10;
	unsigned min = q->rounds_min ? q->rounds_min : max < 3 ? max : 3;
	char label[RUN_LABEL_MAX + 1], *three[3] = { argv[0], argv[1], label };
	struct rset rs;

	if (n < 3)
		usage_fail("--run needs GOOD, BAD and a COMMAND after them");
	labels_in(argv, 2);
	if (min > max)
		usage_fail("--min-runs %u is more than -n %u", min, max);
	if (q->f.nlabels > 1)
		usage_fail("--run: one -k, the candidate's label");
	if (q->f.nlabels) {
		run_label_check(q->labels[0]);	/* the session's own bound */
		snprintf(label, sizeof label, "%s", q->labels[0]);
	} else {
		time_t t = time(NULL);
		strftime(label, sizeof label, "bisect-%Y%m%dT%H%M%SZ", gmtime(&t));
		snprintf(label + strlen(label), sizeof label - strlen(label), "-%ld",
		    (long)getpid());
	}
	labels_in(three, 3);
	const char *dir = run_dir(q);
	read_labels(&rs, q, three, 2);
	long step = bisect_step(&rs, argv[0], argv[1], &q->cmp);
	if (step <= 0) {	/* bisect_step said why */
		rset_free(&rs);
		return BISECT_ABORT;
	}
	q->cmp.looks = max - min + 1;
	waitfor_catch(on_stop, on_child, SA_NOCLDSTOP);
	int rc = 125;
	for (unsigned rounds = 0; rounds < max && rc == 125; ) {
		unsigned add = rounds ? 1 : min;
		int st = add_rounds(dir, label, add, rounds == 0, &rs, argv[0], argv + 2,
		    n - 2);
		if (stop_sig) {
			rset_free(&rs);
			return 128 + stop_sig;
		}
		rounds += add;
		if (st == 1) {	/* the job failed: this commit cannot be measured */
			warnmsg("--run: %s's job failed: skip (125)", label);
			rset_free(&rs);
			return 125;
		}
		if (st != 0) {
			warnmsg("--run: the session exited %d: the bisect stops (%d)",
			    st, BISECT_ABORT);
			rset_free(&rs);
			return BISECT_ABORT;
		}
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		if (m == NULL)
			fatal(1, "out of memory");
		rc = look(m, q, three);
		if (fclose(m) != 0)
			fatal(1, "out of memory");
		if (rc != 125 || rounds >= max) {	/* the call, or the last look */
			fputs(buf, stdout);
			printf("%s: %u round%s (at most %u), %u look%s of %u\n", label, rounds,
			    rounds == 1 ? "" : "s", max, rounds - min + 1,
			    rounds - min ? "s" : "", q->cmp.looks);
		} else
			warnmsg("--run: %u rounds, can't tell yet: one more", rounds);
		free(buf);
		if (rc != 0 && rc != 1 && rc != 125)
			rc = BISECT_ABORT;
	}
	rset_free(&rs);
	return finish_stdout() ? BISECT_ABORT : rc;
}

int
cmd_bisect(int argc, char **argv)
{
	struct query q;
	struct rset rs;
	int i = query_parse(argc, argv, &q, Q_BISECT);

	if (q.run && q.cmp.looks)
		usage_fail("--looks is a plain bisect's: --run counts its own");
	if (q.run)
		return bisect_run(&q, argv + i, argc - i);
	if (q.f.nlabels || q.rounds_max || q.rounds_min)
		usage_fail("%s is --run's", q.f.nlabels ? "-k" : q.rounds_max ?
		    "-n" : "--min-runs");
	if (argc - i != 3)
		usage_fail("needs GOOD, BAD and CAND labels (see 'contest bisect --help')");
	labels_in(argv + i, 3);
	read_labels(&rs, &q, argv + i, 3);
	int rc = bisect_decide(stdout, &rs, argv[i], argv[i + 1], argv[i + 2], &q.cmp);
	rset_free(&rs);
	if (rc == 2)
		return EXIT_USAGE;
	return finish_stdout() ? 125 : rc;
}
