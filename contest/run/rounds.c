/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rounds of a session: each round every unit (a load, of a sweep's
 * cell) once, starting one unit further on each round; each run written
 * as it ends; --until-ci asked after each measured round; and the end
 * said.  The run path (onerun.c, loadrun.c) is the only code that forks
 * loads or the job, and the driver sleeps in waitfor() while a run goes
 * on: it never polls.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "derive.h"
#include "onerun.h"
#include "proc.h"
#include "resultline.h"
#include "results.h"
#include "rounds.h"
#include "util.h"

/* A sweep's cell becomes the job, its prepare step with it. */
static void
use_cell(struct session *s, size_t cell)
{
	const struct sweep_cell *c;

	if (s->cells == NULL)
		return;
	c = &s->cells[cell];
	s->argv = c->argv;
	s->command = c->command;
	s->prepare = c->prepare;
	s->prepare_str = c->prepare_str;
	s->prepare_inferred = c->prepare_inferred;
}

static void
progress(const struct session *s, size_t done, size_t total,
    const struct run_record *rec, double t_start)
{
	static int tty = -1;

	if (tty < 0)
		tty = isatty(2);
	if (!tty)
		return;
	if (rec == NULL) {
		fputs("\r\033[K", stderr);
		return;
	}
	double el = mono_now() - t_start;
	long left = done ? (long)(el / (double)done * (double)(total - done)) : -1;
	char eta[32] = "?";
	if (left >= 0)
		snprintf(eta, sizeof eta, "%ld:%02ld", left / 60, left % 60);
	char name[1536];
	fprintf(stderr, "\r\033[Kcontest: round %u/%u  %s  %s %u  run %zu/%zu  "
	    "elapsed %ld:%02ld  left ~%s", rec->round + 1, s->warmup + s->runs,
	    unit_name(s, rec, name, sizeof name), rec->warmup ? "warmup" : "run",
	    rec->index, done + 1, total, (long)el / 60, (long)el % 60, eta);
	fflush(stderr);
}

/* A run done: its figures worked out and its line written. */
static void
record_run(struct session *s, struct run_record *rec)
{
	reap_orphans();
	figures_derive(s, rec);
	if (results_append(s, rec) < 0) {
		progress(s, 0, 0, NULL, 0);
		fatal(1, "%s: cannot append a result: %s (earlier lines are intact)",
		    s->results_path, strerror(errno));
	}
	series_free(&rec->series);
	s->nrec++;
}

/* A run that failed, said; 1 when the session stops, since what failed
 * would fail every run the same way (the job's exec, its prepare step),
 * with *status the session's exit status. */
static int
failed_run(const struct session *s, const struct run_record *rec, int *status)
{
	char name[1536];

	progress(s, 0, 0, NULL, 0);
	warnmsg("%s %s %u: %s", unit_name(s, rec, name, sizeof name),
	    rec->warmup ? "warmup" : "run", rec->index, rec->why);
	if (*status == 0)
		*status = 1;
	if (rec->status == RUN_EXEC_FAILED) {
		*status = rec->exit_code;
		return 1;
	}
	return rec->status == RUN_PREPARE_FAILED;
}

/* At the end, each unit whose load failed some of its runs; how many. */
static size_t
say_load_failures(const struct session *s, size_t units, const unsigned *lfail,
    const struct run_record *lfail_rec)
{
	char name[1536];
	size_t nlf = 0;

	for (size_t u = 0; u < units; u++)
		if (lfail[u]) {
			const struct run_record *r = &lfail_rec[u];
			warnmsg("%s: %u run%s failed by the load, not the job (%s; the "
			    "last: %s); the other loads ran", unit_name(s, r, name,
			    sizeof name), lfail[u], lfail[u] == 1 ? "" : "s",
			    run_status_name(r->status), r->why);
			nlf++;
		}
	return nlf;
}

int
session_run(struct session *s)
{
	unsigned rounds = s->warmup + s->runs;
	size_t ncells = s->cells ? s->ncells : 1, units = ncells * s->nslots;
	size_t total = (size_t)rounds * units;
	unsigned *nth = xcalloc(units * 2, sizeof *nth);
	/* per unit: runs whose load failed, and the last one's record (the
	 * only records kept: a run's is written, then its room reused) */
	unsigned *lfail = xcalloc(units, sizeof *lfail);
	struct run_record *lfail_rec = xcalloc(units, sizeof *lfail_rec);
	struct run_record *rec = xcalloc(1, sizeof *rec);
	int stop = 0, status = 0;
	double t_start = mono_now();

	s->nrec = 0;
	for (unsigned round = 0; round < rounds && !stop; round++) {
		/* Each round starts one unit (a load of a sweep's cell) further
		 * on, so that no load always follows the same one, nor always
		 * runs first. */
		for (size_t k = 0; k < units && !stop; k++) {
			size_t unit = (round + k) % units;
			memset(rec, 0, sizeof *rec);
			rec->slot = unit % s->nslots;
			rec->cell = unit / s->nslots;
			rec->position = (unsigned)k;
			rec->round = round;
			rec->warmup = round < s->warmup;
			rec->index = ++nth[unit * 2 + (rec->warmup ? 1 : 0)];
			use_cell(s, rec->cell);

			progress(s, s->nrec, total, rec, t_start);
			if (run_one(s, rec) != 0 || proc_signal) {
				stop = 1;
				break;
			}
			record_run(s, rec);
			if (rec->status == RUN_OK)
				continue;
			if (failed_run(s, rec, &status))
				stop = 1;
			else if (rec->status != RUN_FAILED) {
				/* one load that cannot run (or that its job cannot
				 * run beside) fails its own runs, not the night's:
				 * the other loads go on, and the end says so */
				lfail[unit]++;
				lfail_rec[unit] = *rec;
			}
		}
		if (stop || round < s->warmup)
			continue;
		s->rounds_measured = round + 1 - s->warmup;
		/* at least three rounds: an interval of two runs is no interval */
		if (s->narrow && s->rounds_measured >= 3 && round + 1 < rounds &&
		    s->narrow(s)) {
			s->stopped_early = 1;
			break;
		}
	}
	progress(s, 0, 0, NULL, 0);
	free(nth);
	free(rec);
	proc_kill_all();

	if (say_load_failures(s, units, lfail, lfail_rec) && (status == 0 || status == 1))
		status = 3;
	free(lfail);
	free(lfail_rec);

	if (proc_signal) {
		warnmsg("interrupted by signal %d: %zu completed run%s kept",
		    (int)proc_signal, s->nrec, s->nrec == 1 ? "" : "s");
		status = 128 + proc_signal;
	}
	return status;
}
