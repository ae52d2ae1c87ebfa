/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rounds of a session: each round every unit (a load, of a sweep's
 * cell) once, each variant of it in a balanced order, starting one unit
 * further on each round; each run written as it ends; --until-ci asked
 * after each measured round; and the end said.  The run path (onerun.c, loadrun.c) is the only code that forks
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
#include "provenance.h"
#include "resultline.h"
#include "results.h"
#include "rounds.h"
#include "util.h"
#include "variant.h"

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
	    "elapsed %ld:%02ld  left ~%s", rec->round + 1, s->cfg.warmup + s->cfg.runs,
	    unit_name(s, rec, name, sizeof name), rec->warmup ? "warmup" : "run",
	    rec->index, done + 1, total, (long)el / 60, (long)el % 60, eta);
	fflush(stderr);
}

/* A run done: its figures worked out and its line written. */
static void
record_run(struct session *s, struct run_record *rec)
{
	reap_orphans();
	run_ended(s, rec);
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
			warnmsg("%s: %u run%s failed by the %s, not the job (%s; the "
			    "last: %s); the other %ss ran", unit_name(s, r, name,
			    sizeof name), lfail[u], lfail[u] == 1 ? "" : "s",
			    r->status == RUN_VARIANT_FAILED ? "variant" : "load",
			    run_status_names[r->status], r->why,
			    r->status == RUN_VARIANT_FAILED ? "variant" : "load");
			nlf++;
		}
	return nlf;
}

/* Before a run of variant v: any other variant's program stopped, then
 * v switched to; 0, 1 if interrupted, -1 with rec failed. */
static int
enter_variant(struct session *s, struct run_record *rec)
{
	for (size_t u = 0; u < s->cfg.nvariants; u++)
		if (u != rec->variant)
			variant_leave(&s->cfg.variants[u], s->scx0);
	if (proc_signal)
		return 1;
	int r = variant_enter(&s->cfg.variants[rec->variant], s->log_fd, s->scx0,
	    rec->why, sizeof rec->why);
	if (r < 0)
		rec->status = RUN_VARIANT_FAILED;
	return r;
}

/* A run, with its variant switched to before it and checked after it:
 * 0, or 1 if interrupted. */
static int
variant_run(struct session *s, struct run_record *rec)
{
	int r = 0;

	if (s->cfg.nvariants) {
		/* what a run that fails to switch still records */
		provenance_sched_ext(rec->scx, sizeof rec->scx);
		r = enter_variant(s, rec);
	}

	if (r > 0)
		return 1;
	if (r < 0)
		return 0;	/* failed: recorded with its reason */
	if (run_one(s, rec) != 0)
		return 1;
	/* a run that saw another scheduler measured neither */
	if (s->cfg.nvariants && rec->status == RUN_OK &&
	    variant_check(&s->cfg.variants[rec->variant], s->scx0, rec->scx,
	    rec->scx_after[0] ? rec->scx_after : rec->scx, rec->why,
	    sizeof rec->why) < 0)
		rec->status = RUN_VARIANT_FAILED;
	return 0;
}

/* What a session's rounds keep count of. */
struct tally {
	size_t		 units, nv, total;
	unsigned	*nth;		/* per unit and variant: runs, warmups */
	/* per unit and variant: runs whose load (or variant) failed, and the
	 * last one's record (the only records kept: a run's is written, then
	 * its room reused) */
	unsigned	*lfail;
	struct run_record *lfail_rec;
	double		 t_start;
	int		 status;
};

/* One round: each unit (a load of a sweep's cell) once, starting one
 * further on each round, so that no load always follows the same one,
 * nor always runs first; each unit's variants one after another, in the
 * order of a Williams design's row.  1 when the session stops. */
static int
one_round(struct session *s, unsigned round, struct tally *t, struct run_record *rec)
{
	size_t order[VARIANT_MAX] = { 0 };

	if (s->cfg.nvariants)
		variant_order(t->nv, round < s->cfg.warmup ? round : round - s->cfg.warmup,
		    order);
	for (size_t k = 0; k < t->units * t->nv; k++) {
		size_t unit = (round + k / t->nv) % t->units, u;
		memset(rec, 0, sizeof *rec);
		rec->slot = unit % s->cfg.nslots;
		rec->cell = unit / s->cfg.nslots;
		rec->variant = order[k % t->nv];
		rec->position = (unsigned)k;
		rec->round = round;
		rec->warmup = round < s->cfg.warmup;
		u = unit * t->nv + rec->variant;
		rec->index = ++t->nth[u * 2 + (rec->warmup ? 1 : 0)];
		use_cell(s, rec->cell);

		progress(s, s->nrec, t->total, rec, t->t_start);
		if (variant_run(s, rec) != 0 || proc_signal)
			return 1;
		record_run(s, rec);
		if (rec->status == RUN_OK)
			continue;
		if (failed_run(s, rec, &t->status))
			return 1;
		if (rec->status != RUN_FAILED) {
			/* one load that cannot run (or that its job cannot run
			 * beside), or one variant that cannot be had, fails its
			 * own runs, not the night's: the others go on, and the
			 * end says so */
			t->lfail[u]++;
			t->lfail_rec[u] = *rec;
		}
	}
	return 0;
}

int
session_run(struct session *s)
{
	unsigned rounds = s->cfg.warmup + s->cfg.runs;
	struct tally t = { .nv = s->cfg.nvariants ? s->cfg.nvariants : 1, .t_start = mono_now() };
	struct run_record *rec = xcalloc(1, sizeof *rec);
	int stop = 0;

	t.units = (s->cells ? s->ncells : 1) * s->cfg.nslots;
	t.total = (size_t)rounds * t.units * t.nv;
	t.nth = xcalloc(t.units * t.nv * 2, sizeof *t.nth);
	t.lfail = xcalloc(t.units * t.nv, sizeof *t.lfail);
	t.lfail_rec = xcalloc(t.units * t.nv, sizeof *t.lfail_rec);
	s->nrec = 0;
	for (unsigned round = 0; round < rounds && !stop; round++) {
		stop = one_round(s, round, &t, rec);
		if (stop || round < s->cfg.warmup)
			continue;
		s->rounds_measured = round + 1 - s->cfg.warmup;
		/* at least three rounds: an interval of two runs is no interval */
		if (s->narrow && s->rounds_measured >= 3 && round + 1 < rounds &&
		    s->narrow(s)) {
			s->stopped_early = 1;
			break;
		}
	}
	progress(s, 0, 0, NULL, 0);
	free(t.nth);
	free(rec);
	/* a kept program asked to go (told, then killed, when interrupted) */
	for (size_t v = 0; v < s->cfg.nvariants; v++)
		variant_leave(&s->cfg.variants[v], s->scx0);
	proc_kill_all();

	if (say_load_failures(s, t.units * t.nv, t.lfail, t.lfail_rec) &&
	    (t.status == 0 || t.status == 1))
		t.status = 3;
	free(t.lfail);
	free(t.lfail_rec);

	if (proc_signal) {
		warnmsg("interrupted by signal %d: %zu completed run%s kept",
		    (int)proc_signal, s->nrec, s->nrec == 1 ? "" : "s");
		t.status = 128 + proc_signal;
	}
	return t.status;
}
