/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Each run's prepare step when none is given: a make job's own clean
 * (make -n says whether there is one), and with a sweep each cell's own,
 * the built-in job's clean or the --prepare with {NAME}s replaced.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "makejob.h"
#include "prepare.h"
#include "proc.h"
#include "util.h"

/*
 * A make job with no --prepare is cleaned before every run by its own
 * make with "clean", unless make -n says there is no such step.  Returns
 * the argv to free, or NULL.
 */
char **
prepare_infer(struct session *s)
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

/*
 * A sweep's cells: the job and its prepare step at each combination of
 * values.  A make job with no --prepare gets each cell's own clean step.
 */
void
prepare_cells(struct session *s, struct builtin_job *tree, int no_prepare)
{
	char *const *argv = s->argv;
	/* the built-in job's own clean step runs in its tree, as it is */
	int tree_clean = s->builtin && s->prepare == tree->prepare;
	const char *prepare = tree_clean ? NULL : s->prepare_str;

	s->ncells = sweep_ncells(&s->cfg.sweep);
	s->cells = xcalloc(s->ncells, sizeof *s->cells);
	/* the template is the command as given: the session's to free */
	s->command_template = s->builtin ? xstrdup(s->command) : s->command;
	for (size_t i = 0; i < s->ncells; i++) {
		struct sweep_cell *c = &s->cells[i];
		sweep_cell(&s->cfg.sweep, i, argv, prepare, c);
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
			if (prepare_infer(s)) {
				c->prepare = (char **)s->prepare;
				c->prepare_str = (char *)s->prepare_str;
				c->prepare_inferred = 1;
				c->own_prepare = 1;
			}
		}
	}
	s->prepare_inferred = 0;
}
