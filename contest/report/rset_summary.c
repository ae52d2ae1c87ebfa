/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * After the last file: runs that may have done no work found across each
 * session and taken out of their cells, every cell's figures summarised,
 * Ratio and its interval against no_load, and the rows put in order.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rset_impl.h"
#include "util.h"

/* By session (any fixed order: the pointer), then round. */
static int
pair_order(const void *pa, const void *pb)
{
	const struct rpair *a = pa, *b = pb;

	if (a->session != b->session)
		return (uintptr_t)a->session < (uintptr_t)b->session ? -1 : 1;
	return (a->round > b->round) - (a->round < b->round);
}

static int
by_cpu(const void *pa, const void *pb)
{
	const struct cell_pcpu *a = pa, *b = pb;

	return (a->cpu > b->cpu) - (a->cpu < b->cpu);
}

/* The job metrics' sums, and the probe's CPUs', become the cell's. */
static void
take_metrics(struct cell_acc *a, struct rcell *c)
{
	if (a->pcpu) {
		c->pcpu = a->pcpu;
		c->npcpu = a->npcpu;
		a->pcpu = NULL;
		for (size_t k = 0; k < c->npcpu; k++) {
			stats_finish(&c->pcpu[k].p99, c->pcpu[k].m2[0]);
			stats_finish(&c->pcpu[k].max, c->pcpu[k].m2[1]);
		}
		qsort(c->pcpu, c->npcpu, sizeof *c->pcpu, by_cpu);
	}
	if (a->jm == NULL)
		return;
	c->jm = a->jm;
	for (size_t k = 0; k < RSET_JM; k++)
		stats_finish(&c->jm[k], a->jm2[k]);
	free(a->jm2);
	a->jm = NULL;
	a->jm2 = NULL;
}

/* Its runs by session and round (sorted so) and by boot, the cell's. */
static void
take_runs(struct cell_acc *a, struct rcell *c)
{
	c->pair = a->pair;
	c->npair = a->npair;
	a->pair = NULL;
	c->boot = a->boot;
	c->nboot = a->nboot;
	a->boot = NULL;
	if (c->npair > 1)
		qsort(c->pair, c->npair, sizeof *c->pair, pair_order);
}

/* A cell from what its runs left in the accumulator (NULL: no runs). */
static void
summarise_cell(struct cell_acc *a, struct rcell *c)
{
	struct stats *to[NFIG];
	struct stats *sto[NSUM] = { &c->rate, &c->p99, &c->met, &c->p999,
	    &c->pmax };

	double none = 0;

	for (int k = 0; k < FIG_NPOOL; k++)
		to[k] = &c->fig[k];
	to[F_LOADS] = &c->loads;

	c->met_pct = c->bamean = c->skipped = NAN;
	if (a == NULL) {
		c->wall = xcalloc(1, sizeof *c->wall);
		for (int k = 0; k < NFIG; k++)
			stats_compute(&none, 0, to[k]);
		for (int k = 0; k < NSUM; k++)
			stats_compute(&none, 0, sto[k]);
		return;
	}
	int wall = fig_pool(FIG_WALL);
	c->ok = a->fig[wall].n;
	c->failed = a->failed;
	c->last_exit = a->last_exit;
	c->last_signal = a->last_signal;
	c->headline = a->headline;
	for (int k = 0; k < NFIG; k++)
		stats_compute(a->fig[k].v ? a->fig[k].v : &none, a->fig[k].n, to[k]);
	for (int k = 0; k < NSUM; k++) {
		*sto[k] = a->sum[k];
		stats_finish(sto[k], a->m2[k]);
	}
	/* the times stay, in file order: formats print them */
	c->wall = a->fig[wall].v ? a->fig[wall].v : xcalloc(1, sizeof *c->wall);
	a->fig[wall].v = NULL;
	c->c = a->c;
	c->nc = 0;
	a->c = NULL;
	a->capc = 0;
	c->scx_changed = a->scx_changed;
	for (size_t j = 0; j < a->nc; j++) {
		if (c->c[j].n == 0)
			continue;	/* only runs taken out again had it */
		c->c[c->nc] = c->c[j];
		c->c[c->nc].mean /= (double)c->c[j].n;
		c->c[c->nc++].rate /= (double)c->c[j].n;
	}
	c->lat = a->lat;
	c->probe = a->probe;
	a->lat.count = a->probe.count = NULL;
	if (a->lat_inexact || c->lat.h.max == 0)
		c->lat.h.min = c->lat.h.max = 0;
	if (a->probe_inexact || c->probe.h.max == 0)
		c->probe.h.min = c->probe.h.max = 0;
	take_runs(a, c);
	take_metrics(a, c);
	c->met_pct = fig_met_pct(a->met, a->deadlines);
	c->skipped = a->nskipped ? (double)a->skipped / (double)a->nskipped : NAN;
	/* BAmean-50 as mmtests computes it: the mean of the int(n x 50 / 100)
	 * fastest runs, at least one (at n = 3, the fastest alone) */
	if (c->ok) {
		double *v = xcalloc(c->ok, sizeof *v);
		size_t half = c->ok * 50 / 100 ? c->ok * 50 / 100 : 1;
		memcpy(v, c->wall, c->ok * sizeof *v);
		stats_sort(v, c->ok);
		c->bamean = 0;
		for (size_t i = 0; i < half; i++)
			c->bamean += v[i] / (double)half;
		free(v);
	}
	for (int k = 0; k < NFIG; k++) {
		free(a->fig[k].v);
		a->fig[k].v = NULL;
	}
}

static const struct rset *sort_rs;
static size_t sort_blk;
static enum rsort sort_how;

static int
row_order(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = 0;

	if (sort_how == RSORT_LABEL)
		c = rset_labelcmp(sort_rs->row[a].name, sort_rs->row[b].name);
	else if (sort_how == RSORT_TIME) {
		const struct rcell *ca = rset_cell(sort_rs, a, sort_blk);
		const struct rcell *cb = rset_cell(sort_rs, b, sort_blk);
		/* rows without runs go last */
		double ta = ca->ok ? rcell_fig(ca, FIG_WALL)->mean : INFINITY;
		double tb = cb->ok ? rcell_fig(cb, FIG_WALL)->mean : INFINITY;
		c = (ta > tb) - (ta < tb);
	}
	return c ? c : (a > b) - (a < b);
}

static const struct rset *timed_rs;

static int
timed_order(const void *pa, const void *pb)
{
	const struct timed_run *a = pa, *b = pb;
	/* interned: one session is one pointer, and most pairs share it */
	int c = a->session == b->session ? 0 : strcmp(a->session, b->session);

	if (c == 0 && a->file != b->file)
		c = strcmp(timed_rs->fname[a->file], timed_rs->fname[b->file]);
	return c ? c : (a->line > b->line) - (a->line < b->line);
}

/* A session's runs by what makes a run one run: its cell (load, sweep
 * values, variant, build), warmup or not and its number; then in the
 * order read, so that the first read is the one kept. */
static int
same_run_order(const void *pa, const void *pb)
{
	const struct timed_run *a = *(const struct timed_run *const *)pa;
	const struct timed_run *b = *(const struct timed_run *const *)pb;

	if (a->cell != b->cell)
		return a->cell < b->cell ? -1 : 1;
	if (a->measured != b->measured)
		return a->measured < b->measured ? -1 : 1;
	if (a->runno != b->runno)
		return a->runno < b->runno ? -1 : 1;
	/* a copy never added (rs_dedup_run) is never the one kept */
	if (a->dup != b->dup)
		return a->dup < b->dup ? -1 : 1;
	return (a > b) - (a < b);
}

/* The runs of one session (t[0..n), in timed_order) read more than once:
 * each after the first marked dup, and those past the filters wanted
 * again, to be taken out.  The files they came from, first and again, in
 * *pair (the first such pair; the rest are counted). */
static size_t
mark_dups(struct rset *rs, struct timed_run *t, size_t n, struct timed_run **by,
    struct want **w, size_t *nw, size_t *capw, uint32_t pair[2], size_t *npairs)
{
	size_t dups = 0;

	for (size_t k = 0; k < n; k++)
		by[k] = &t[k];
	if (n > 1)
		qsort(by, n, sizeof *by, same_run_order);
	for (size_t k = 1; k < n; k++) {
		struct timed_run *a = by[k - 1], *b = by[k];
		if (a->cell != b->cell || a->measured != b->measured ||
		    a->runno != b->runno || b->runno == 0)
			continue;
		b->dup = b->out = 1;
		dups++;
		if (*npairs == 0 || pair[0] != a->file || pair[1] != b->file) {
			if (*npairs == 0)
				pair[0] = a->file, pair[1] = b->file;
			++*npairs;
		}
		if (b->acc == UINT32_MAX)
			continue;
		rs->nrun--;
		xgrow(w, capw, *nw + 1, sizeof **w, 8);
		(*w)[(*nw)++] = (struct want){ { b->file, b->line }, b->acc };
	}
	return dups;
}

/* A flagged run on its way to its cell's note, in the order read. */
struct flagged {
	uint32_t	 acc, file, line;
	struct suspect	 s;
};

static int
flagged_order(const void *pa, const void *pb)
{
	const struct flagged *a = pa, *b = pb;

	if (a->acc != b->acc)
		return a->acc < b->acc ? -1 : 1;
	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	return (a->line > b->line) - (a->line < b->line);
}

/* A suspect run read a second time: out of its cell again. */
static int
unread_line(const struct jnode *o, unsigned long lineno, void *arg)
{
	struct reread *x = arg;
	struct rset *rs = (struct rset *)x->rs;

	while (x->k < x->n && x->w[x->k].at.line < lineno)
		x->k++;
	for (; x->k < x->n && x->w[x->k].at.line == lineno; x->k++) {
		struct cell_acc *a = &rs->acc[x->w[x->k].acc];
		struct rrun r;
		if (rs_parse_run(rs, o, lineno, rs->fname[x->w[x->k].at.file], &r, 0) == 0)
			rs_accumulate(rs, a, &r, o, x->w[x->k].at.file, 1, -1);
		rs_free_run(&r);
	}
	return 0;
}

/*
 * Each session's runs: first, a run read twice (a file given twice, or
 * copied within the results directory) is one run, its copies read again
 * and taken out of their cells, with one warning naming the files.  Then
 * its ok runs in the order they ran through suspect_mark(): the flagged
 * ones go to their cells' notes (sus[acc], nsus[acc]) and, unless asked
 * to keep them, out of their cells the same way, as failed runs never
 * went in.
 */
static void
mark_suspects(struct rset *rs, struct suspect **sus, size_t *nsus)
{
	struct srun *sr = xcalloc(rs->ntimed + 1, sizeof *sr);
	struct sflag *sf = xcalloc(rs->ntimed + 1, sizeof *sf);
	struct timed_run **by = xcalloc(rs->ntimed + 1, sizeof *by);
	size_t *at = xcalloc(rs->ntimed + 1, sizeof *at);
	struct flagged *fl = NULL;
	struct want *w = NULL;
	size_t nfl = 0, capfl = 0, nw = 0, capw = 0, dups = 0, npairs = 0;
	uint32_t pair[2] = { 0, 0 };
	static const struct rfilter all;

	rs_dedup_free(rs);	/* the reading is done */
	timed_rs = rs;
	if (rs->ntimed > 1)	/* qsort may not be handed NULL, even for none */
		qsort(rs->timed, rs->ntimed, sizeof *rs->timed, timed_order);
	for (size_t i = 0, j; i < rs->ntimed; i = j) {
		size_t m = 0;
		for (j = i; j < rs->ntimed && rs->timed[j].session == rs->timed[i].session; j++)
			;
		dups += mark_dups(rs, rs->timed + i, j - i, by, &w, &nw, &capw, pair,
		    &npairs);
		/* the no-work check: the session's ok runs, each once */
		for (size_t k = i; k < j; k++) {
			const struct timed_run *t = &rs->timed[k];
			if (t->dup || t->failed)
				continue;
			at[m] = k;
			sr[m++] = (struct srun){ t->cell, t->sweep, t->wall, t->measured };
		}
		suspect_mark(sr, m, sf);
		double med, warm = suspect_warmup(sr, m, &med);
		int shown = 0;
		for (size_t k = i; k < j; k++)
			shown |= rs->timed[k].acc != UINT32_MAX;
		if (!isnan(warm) && shown) {
			xgrow(&rs->warm, &rs->capwarm, rs->nwarm + 1, sizeof *rs->warm, 8);
			rs->warm[rs->nwarm++] = (struct rwarmup){ rs->timed[i].session,
			    warm, med };
		}
		for (size_t q = 0; q < m; q++) {
			struct timed_run *t = &rs->timed[at[q]];
			if (t->acc == UINT32_MAX || !sf[q].why)
				continue;
			xgrow(&fl, &capfl, nfl + 1, sizeof *fl, 8);
			fl[nfl++] = (struct flagged){ t->acc, t->file, t->line,
			    { (long)t->runno, t->wall, sf[q] } };
			if (rs->keep_suspect)
				continue;
			t->out = 1;
			xgrow(&w, &capw, nw + 1, sizeof *w, 8);
			w[nw++] = (struct want){ { t->file, t->line }, t->acc };
		}
	}
	if (dups)
		warnmsg("%zu run%s read twice, counted once (the same session, run, "
		    "load, variant and sweep cell): %s%s%s%s", dups, dups == 1 ? "" : "s",
		    rs->fname[pair[0]], pair[0] == pair[1] ? " read twice" : " and ",
		    pair[0] == pair[1] ? "" : rs->fname[pair[1]],
		    npairs > 1 ? ", and other files" : "");
	rs_read_again(rs, w, nw, rs_keys_for(&all), unread_line,
	    "its runs that may have done no work or were read twice stay in the "
	    "means");
	free(w);
	free(by);
	free(at);
	if (nfl > 1)
		qsort(fl, nfl, sizeof *fl, flagged_order);
	size_t *capsus = xcalloc(rs->nacc + 1, sizeof *capsus);
	for (size_t i = 0; i < nfl; i++) {
		uint32_t a = fl[i].acc;
		xgrow(&sus[a], &capsus[a], nsus[a] + 1, sizeof *sus[a], 4);
		sus[a][nsus[a]++] = fl[i].s;
	}
	free(capsus);
	free(fl);
	free(sr);
	free(sf);
}

void
rset_summarise(struct rset *rs, enum rsort how)
{
	rs->base = rs->nblk;
	for (size_t b = 0; b < rs->nblk; b++)
		if (strcmp(rs->blk[b].name, "no_load") == 0)
			rs->base = b;
	/* no_load's block comes first, as in the run's table */
	if (rs->base < rs->nblk && rs->base > 0) {
		struct rblock t = rs->blk[rs->base];
		memmove(rs->blk + 1, rs->blk, rs->base * sizeof *rs->blk);
		rs->blk[0] = t;
		for (size_t i = 0; i < rs->nacc; i++)
			if (rs->acc[i].blk == rs->base)
				rs->acc[i].blk = 0;
			else if (rs->acc[i].blk < rs->base)
				rs->acc[i].blk++;
		for (size_t i = 0; i < rs->nsrun; i++)
			if (rs->srun[i].blk == rs->base)
				rs->srun[i].blk = 0;
			else if (rs->srun[i].blk < rs->base)
				rs->srun[i].blk++;
		rs->base = 0;
	}
	rs_name_rows(rs);
	struct suspect **sus = xcalloc(rs->nacc + 1, sizeof *sus);
	size_t *nsus = xcalloc(rs->nacc + 1, sizeof *nsus);
	mark_suspects(rs, sus, nsus);
	rs->cell = xcalloc(rs->nrow * rs->nblk + 1, sizeof *rs->cell);
	for (size_t i = 0; i < rs->nacc; i++) {
		struct rcell *c = rset_cell(rs, rs->acc[i].row, rs->acc[i].blk);
		summarise_cell(&rs->acc[i], c);
		c->suspect = sus[i];
		c->nsuspect = nsus[i];
	}
	free(sus);
	free(nsus);
	for (size_t k = 0; k < rs->nrow * rs->nblk; k++)
		if (rs->cell[k].wall == NULL)
			summarise_cell(NULL, &rs->cell[k]);
	for (size_t k = 0; k < rs->nrow * rs->nblk; k++) {
		struct rcell *c = &rs->cell[k];
		/* suspect runs left out are named under the table; kept in,
		 * they make the figures doubtful */
		c->noisy = c->ok > 0 && (c->ok < RSET_MIN_RUNS ||
		    rcell_fig(c, FIG_WALL)->cv > RSET_NOISY_CV || (c->nsuspect > 0 && rs->keep_suspect) ||
		    c->scx_changed > 0);
	}
	for (size_t r = 0; r < rs->nrow; r++)
		for (size_t b = 0; b < rs->nblk; b++) {
			struct rcell *c = rset_cell(rs, r, b);
			const struct rcell *base = rs->base < rs->nblk ?
			    rset_cell(rs, r, rs->base) : NULL;
			c->ratio = c->ratio_sd = c->ratio_ci95 = c->ratio_se =
			    c->ratio_df = NAN;
			if (base == NULL || base->ok == 0 || c->ok == 0)
				continue;
			if (b == rs->base) {
				c->ratio = 1;	/* by definition, with no spread */
				continue;
			}
			c->ratio = stats_ratio(rcell_fig(c, FIG_WALL), rcell_fig(base, FIG_WALL), &c->ratio_sd);
			c->ratio_se = stats_ratio_se(rcell_fig(c, FIG_WALL), rcell_fig(base, FIG_WALL), &c->ratio_df);
			c->ratio_ci95 = stats_ratio_ci95(rcell_fig(c, FIG_WALL), rcell_fig(base, FIG_WALL));
		}
	rs->order = xcalloc(rs->nrow * rs->nblk + 1, sizeof *rs->order);
	sort_rs = rs;
	sort_how = how;
	for (size_t b = 0; b < rs->nblk; b++) {
		size_t *o = rs->order + b * rs->nrow;
		for (size_t r = 0; r < rs->nrow; r++)
			o[r] = r;
		sort_blk = b;
		qsort(o, rs->nrow, sizeof *o, row_order);
	}
	rs->figs = cmp_figs_make(rs->figs, rs);
}
