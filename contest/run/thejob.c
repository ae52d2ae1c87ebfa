/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The session's job: COMMAND as given or the built-in tree, each run's
 * prepare step, the session's id, and what the session holds given back
 * at its end.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "command.h"
#include "makejob.h"
#include "prepare.h"
#include "thejob.h"
#include "util.h"

void
session_id(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	size_t n = strftime(buf, len, "%Y%m%dT%H%M%SZ", &tm);
	snprintf(buf + n, len - n, "-%ld", (long)getpid());
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
	    "round%s, alone", s->cfg.warmup, s->cfg.runs, s->cfg.runs == 1 ? "" : "s");
	if (s->cfg.nslots > 1)
		fprintf(stderr, " and beside %zu load%s", s->cfg.nslots - 1,
		    s->cfg.nslots == 2 ? "" : "s");
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
char **
the_job(struct session *s, char **argv, int argc, struct builtin_job *tree,
    int no_prepare, char *prep_argv[4])
{
	char **inferred = NULL;

	if (argc == 0)
		builtin_job(s, tree, no_prepare);
	else {
		s->argv = argv;
		s->command = argv_join(argv, 0);
		if (s->prepare_str == NULL && !no_prepare && s->cfg.sweep.n == 0)
			inferred = prepare_infer(s);
	}
	if (s->cfg.sweep.n) {
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
void
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
	sweep_free(&s->cfg.sweep);
	if (!s->builtin)
		free((char *)s->command);
	builtin_free(tree);
	if (s->results_fd >= 0)
		close(s->results_fd);
	if (s->log_fd >= 0)
		close(s->log_fd);
	if (s->cap_fd >= 0)
		close(s->cap_fd);
	jm_free(s->cfg.jm, s->cfg.njm);
	if (s->dir_fd >= 0)
		close(s->dir_fd);
}

