/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The comparison of labels, built once and printed by every format: per
 * load (and sweep value) one column per label, the rows of cmp_figs[]
 * (columns.c) and one per job metric (cmp_fig()), each candidate's
 * change against the baseline and its test (cmp_test.c), and per gated
 * figure a verdict: regression (worse,
 * significant and beyond the threshold), improvement (the same, better),
 * no change (its interval within +-threshold), or can't tell.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "util.h"

const char *const cmp_verdict_names[CV_N] = {
	[CV_NONE] = "", [CV_REGRESSION] = "regression", [CV_CANTTELL] = "can't tell",
	[CV_IMPROVEMENT] = "improvement", [CV_NOCHANGE] = "no change",
	[CV_FAILED] = "failed",
};

static int
by_p(const void *a, const void *b)
{
	double pa = (*(struct cmpval *const *)a)->p, pb = (*(struct cmpval *const *)b)->p;

	return pa < pb ? -1 : pa > pb;
}

/* Holm-Bonferroni over the gated tests, the gate's family: the k-th
 * smallest of m p-values is scaled by m - k, and never below the one
 * before it.  An ungated test is shown uncorrected. */
static void
holm(struct cmp *m)
{
	size_t n = 0, cap = m->ng * (size_t)cmp_nfig(m->rs) * m->ncol + 1;
	struct cmpval **v = xcalloc(cap, sizeof *v);

	for (size_t g = 0; g < m->ng; g++)
		for (size_t i = 0; i < (size_t)cmp_nfig(m->rs) * m->ncol; i++) {
			struct cmpval *x = &m->g[g].val[i];
			x->padj = NAN;
			if (!isnan(x->p) && x->gated)
				v[n++] = x;
		}
	qsort(v, n, sizeof *v, by_p);
	double prev = 0;
	for (size_t k = 0; k < n; k++) {
		double adj = v[k]->p * (double)(n - k);
		adj = adj > 1 ? 1 : adj;
		prev = adj > prev ? adj : prev;
		v[k]->padj = prev;
	}
	free(v);
}

/* Whether row r of the stored results is an A/A for group g: another
 * label's runs of the baseline's host, command and sweep value. */
static int
aa_row(const struct cmp *m, const struct cmpgroup *g, size_t r)
{
	const struct rrow *w = &m->aa->row[r], *b = NULL;

	for (size_t i = 0; i < m->col[0].nrows && b == NULL; i++)
		if (m->rs->row[m->col[0].rows[i]].sweep == g->sweep)
			b = &m->rs->row[m->col[0].rows[i]];
	if (b == NULL || strcmp(w->host, b->host) != 0 ||
	    strcmp(w->command, b->command) != 0 || (w->sweep == NULL) != (g->sweep == NULL) ||
	    (w->sweep && strcmp(w->sweep, g->sweep) != 0))
		return 0;
	for (size_t k = 0; k < m->ncol; k++)
		if (strcmp(w->label, m->col[k].label) == 0)
			return 0;
	return 1;
}

/* The units, boots or (ses) sessions of one boot, of cell c (z: its
 * no_load cell) with col measured. */
static size_t
units(const struct rcell *c, const struct rcell *z, const struct column *col,
    int ses)
{
	struct bootside s;

	if (ses)
		return cmp_sessions_of_boot(c, z, col);
	return cmp_boot_side(c, z, col, &s) > 1 ? s.nb : 0;
}

/* The label whose boots (ses: sessions of one boot) lend their spread
 * to figure col in group g: the compared label's with the most, two at
 * least; else, with every stored label at hand (cmpopt.aa), an A/A's of
 * the same host, command and load; nb 0: none. */
static struct bootspread
spread_of(const struct cmp *m, const struct cmpgroup *g, const struct column *col,
    int ses)
{
	struct bootspread sp = { NULL, NULL, 0, NULL };
	size_t nb;

	for (size_t k = 0; k < m->ncol; k++)
		if (g->cell[k] && (nb = units(g->cell[k], g->zero[k], col, ses)) > 1 &&
		    nb > sp.nb)
			sp = (struct bootspread){ g->cell[k], g->zero[k], nb,
			    m->col[k].label };
	if (sp.nb || m->aa == NULL)
		return sp;
	const struct rset *aa = m->aa;
	const char *blk = m->rs->blk[g->blk].name;
	for (size_t b = 0; b < aa->nblk; b++) {
		if (strcmp(aa->blk[b].name, blk) != 0)
			continue;
		for (size_t r = 0; r < aa->nrow; r++) {
			const struct rcell *c = rset_cell(aa, r, b);
			const struct rcell *z = aa->base < aa->nblk ?
			    rset_cell(aa, r, aa->base) : NULL;
			if (c && aa_row(m, g, r) && (nb = units(c, z, col, ses)) > 1 &&
			    nb > sp.nb)
				sp = (struct bootspread){ c, z, nb, aa->row[r].name };
		}
	}
	return sp;
}

static void
build_group(struct cmp *m, struct cmpgroup *g)
{
	const struct rset *rs = m->rs;
	int base_blk = g->blk == rs->base;

	g->val = xcalloc((size_t)cmp_nfig(m->rs) * m->ncol, sizeof *g->val);
	for (size_t k = 0; k < m->ncol; k++)
		if (g->cell[k] && g->cell[k]->ok)
			g->nran++;
	for (int f = 0; f < cmp_nfig(m->rs); f++)
		for (size_t k = 0; k < m->ncol; k++) {
			struct cmpval *v = &g->val[f * m->ncol + k];
			const struct rcell *a = g->cell[0], *b = g->cell[k];
			const struct column *col = cmp_fig(m->rs, f);
			/* a figure 1 by definition has nothing to compare */
			int none = base_blk && col->base_one;
			v->v = none ? NAN : col_value(col, b, base_blk);
			v->pct = v->p = v->padj = v->mde_pct = v->gate_pct = NAN;
			v->est_pct = v->lo_pct = v->hi_pct = NAN;
			v->t.kind = CT_NONE;
			if (!isnan(v->v))
				g->shown[f] = 1;
			double va = none ? NAN : col_value(col, a, base_blk);
			if (isnan(v->v) || isnan(va))
				continue;
			v->pct = va != 0 ? (v->v / va - 1) * 100 : v->v == 0 ? 0 : NAN;
			if (k == 0 || !col->worse)
				continue;
			v->gated = col->gate && (CMP_GATE(f) & m->gate);
			cmp_test(&v->t, a, b, g->zero[0], g->zero[k], col, col_runs(col, a),
			    col_runs(col, b));
			/* the sessions' lender only where both ran in one boot */
			int one = cmp_boots_shared(a, b);
			struct bootspread sp[2] = { spread_of(m, g, col, 0),
			    { NULL, NULL, 0, NULL } };
			if (one && !m->runs_in_boot)
				sp[1] = spread_of(m, g, col, 1);
			if (!one || !m->runs_in_boot)
				cmp_boots(&v->t, a, b, g->zero[0], g->zero[k], col,
				    m->col[0].label, m->col[k].label, sp);
			v->p = v->padj = v->t.p;
			m->ntests += !isnan(v->p);
			m->family += !isnan(v->p) && v->gated;
		}
}

/* A gated figure's verdict from its test: beyond the threshold and
 * significant either way, or its interval within +-threshold (two one-
 * sided tests, each at alpha / 2), or neither. */
enum cmp_verdict
cmp_rule(int sig, double est, double lo, double hi, int worse, double thr)
{
	if (isnan(est))
		return CV_CANTTELL;
	if (sig && worse * est > thr)
		return CV_REGRESSION;
	if (sig && -worse * est > thr)
		return CV_IMPROVEMENT;
	if (lo > -thr && hi < thr)
		return CV_NOCHANGE;
	return CV_CANTTELL;
}

static enum cmp_verdict
verdict(const struct cmp *m, struct cmpval *v, int worse)
{
	if (v->t.kind == CT_NONE)
		return CV_CANTTELL;
	enum cmp_verdict r = cmp_rule(v->sig, v->est_pct, v->lo_pct, v->hi_pct,
	    worse, m->threshold);
	/* one boot a side and no boot spread known: the interval is the
	 * runs', which can show neither that the boots did not differ nor
	 * that a change is not theirs (an A/A of two boots at a 3% boot
	 * spread read "regression" one time in nine) */
	if (r != CV_CANTTELL && cmp_one_boot_each(&v->t)) {
		v->runs_said = r;
		return CV_CANTTELL;
	}
	return r;
}

/* A candidate's verdict: failed where a run of a load failed under it
 * (a kernel that fails the job or the load fails the gate, whatever the
 * runs that did succeed say), else the first its figures reach of
 * regression, can't tell, improvement and no change. */
static enum cmp_verdict
col_verdict(const struct cmpcol *c)
{
	static const enum cmp_verdict order[] = { CV_REGRESSION, CV_CANTTELL,
	    CV_IMPROVEMENT, CV_NOCHANGE };

	if (c->failed)
		return CV_FAILED;
	for (size_t i = 0; i < 4; i++)
		if (c->nverdict[order[i]])
			return order[i];
	return CV_CANTTELL;	/* nothing gated was compared */
}

/* What a candidate's tests say of boots, for its verdict's line. */
static void
boots_said(struct cmpcol *c, const struct cmptest *t)
{
	if (t->kind == CT_BOOTS) {
		for (int i = 0; i < 2; i++)
			c->boots[i] = c->nboots && c->boots[i] < t->boots[i] ?
			    c->boots[i] : t->boots[i];
		c->nboots++;
	}
	c->noneboot += cmp_one_boot_each(t);
	c->nonesession += cmp_one_boot_each(t) && t->by_session;
	c->nsession += t->by_session && t->boots[0] && t->boots[1];
	c->nunrecorded += t->boot_note == BN_UNRECORDED;
	c->nwelch += t->boot_note == BN_WELCH;
	if (t->spread_label) {
		c->nwidened++;
		c->widened_label = t->spread_label;
		c->widened_boots = t->spread_boots;
	}
}

/* One candidate's figure judged, and counted into its column. */
static void
judge_val(struct cmp *m, struct cmpval *v, int fig, struct cmpcol *c, size_t g)
{
	/* MinDetect and the gate's power at Holm's strictest step */
	double astrict = m->holm && m->family ? m->alpha / (double)m->family : m->alpha;
	double p = m->holm && v->gated ? v->padj : v->p;
	int worse = cmp_fig(m->rs, fig)->worse;

	v->sig = p < m->alpha;
	if (v->t.kind == CT_NONE)
		return;
	cmp_interval(&v->t, m->alpha, &v->est_pct, &v->lo_pct, &v->hi_pct);
	/* the change shown is the change tested: a paired test's over the
	 * rounds both ran, not the means over every run (a round one side
	 * lost would move one mean and not the other) */
	if (!isnan(v->est_pct))
		v->pct = v->est_pct;
	if (v->t.kind == CT_PAIRED) {
		c->npaired++;
		c->pairs_min = c->pairs_min && c->pairs_min < v->t.pairs ?
		    c->pairs_min : v->t.pairs;
		c->pairs_max = c->pairs_max > v->t.pairs ? c->pairs_max : v->t.pairs;
	} else
		c->nunpaired++;
	boots_said(c, &v->t);
	if (!v->gated)
		return;
	v->mde_pct = cmp_detect(&v->t, astrict, 0, worse, CMP_POWER);
	v->gate_pct = cmp_detect(&v->t, astrict, m->threshold, worse, CMP_POWER);
	/* a size, whichever way is worse: a fall of Loads as a rise of Time */
	if (!isnan(v->gate_pct) && (isnan(c->gate_pct) || v->gate_pct > c->gate_pct)) {
		c->gate_pct = v->gate_pct;
		c->gate_fig = fig;
		c->gate_g = g;
	}
}

/* Each candidate's figures judged once the p-values are final, and each
 * candidate's verdict. */
static void
judge(struct cmp *m)
{
	for (size_t k = 0; k < m->ncol; k++)
		m->col[k].gate_pct = NAN;
	for (size_t g = 0; g < m->ng; g++) {
		struct cmpgroup *gr = &m->g[g];
		for (size_t k = 1; k < m->ncol; k++) {
			struct cmpcol *c = &m->col[k];
			int both = gr->cell[0] && gr->cell[0]->ok && gr->cell[k] &&
			    gr->cell[k]->ok, worse = 0;
			for (int f = 0; f < cmp_nfig(m->rs); f++) {
				struct cmpval *v = &gr->val[f * m->ncol + k];
				judge_val(m, v, f, c, g);
				if (!v->gated || !both)
					continue;
				v->verdict = verdict(m, v, cmp_fig(m->rs, f)->worse);
				v->worse = v->verdict == CV_REGRESSION;
				worse |= v->worse;
				c->nverdict[v->verdict]++;
				m->cant_tell += v->verdict == CV_CANTTELL;
			}
			c->regressed += worse != 0;
			c->compared += both;
			if (cmp_load_failed(gr, k)) {
				c->failed++;
				c->failed_runs += gr->cell[k]->failed;
				c->failed_of += gr->cell[k]->ok + gr->cell[k]->failed +
				    gr->cell[k]->nsuspect;
			}
			/* no figure of it was judged: that is not "no change" */
			if (cmp_base_failed(gr, k) || cmp_not_run(gr, k)) {
				c->base_failed += cmp_base_failed(gr, k);
				c->not_run += cmp_not_run(gr, k);
				c->nverdict[CV_CANTTELL]++;
				m->cant_tell++;
			}
		}
	}
	for (size_t k = 1; k < m->ncol; k++) {
		struct cmpcol *c = &m->col[k];
		size_t figs = 0;
		for (int v = CV_NONE + 1; v < CV_FIGS; v++)
			figs += c->nverdict[v];
		c->verdict = col_verdict(c);
		m->regressed += c->verdict == CV_REGRESSION;
		m->failed += c->verdict == CV_FAILED;
		/* --strict: nothing judged is not a pass either */
		m->cant_tell += figs == 0 && c->verdict == CV_CANTTELL;
	}
}

/* Each label's cell of load b at sweep value sw (and its no_load cell);
 * 0 when no label ran it. */
static int
group_cells(struct cmp *m, struct cmpgroup *g, size_t b, const char *sw)
{
	const struct rset *rs = m->rs;
	int any = 0;

	g->blk = b;
	g->sweep = sw;
	g->cell = xcalloc(m->ncol, sizeof *g->cell);
	g->zero = xcalloc(m->ncol, sizeof *g->zero);
	for (size_t k = 0; k < m->ncol; k++)
		for (size_t i = 0; i < m->col[k].nrows; i++) {
			size_t r = m->col[k].rows[i];
			const struct rcell *c = rset_cell(rs, r, b);
			if (rs->row[r].sweep == sw && rcell_ran(c)) {
				g->cell[k] = c;
				g->zero[k] = rs->base < rs->nblk ?
				    rset_cell(rs, r, rs->base) : NULL;
				any = 1;
			}
		}
	if (!any) {
		free(g->cell);
		free(g->zero);
		memset(g, 0, sizeof *g);
	}
	return any;
}

int
cmp_build(struct cmp *m, const struct rset *rs, char *const *labels,
    size_t nlabels, const struct cmpopt *o)
{
	memset(m, 0, sizeof *m);
	m->rs = rs;
	m->aa = o->aa;
	m->ncol = nlabels;
	m->threshold = o->threshold;
	/* a loop that looks again and again keeps its error over all looks */
	m->looks = o->looks ? o->looks : 1;
	m->alpha = o->alpha / m->looks;
	m->holm = o->holm;
	m->runs_in_boot = o->runs_in_boot;
	m->gate = o->gate;
	if (o->gate_names) {
		char bad[64];
		unsigned jm = cmp_gate_metrics(rs->figs, o->gate_names, bad, sizeof bad);
		if (jm == 0 && bad[0]) {
			warnmsg("--gate: '%s' is neither one of contest's figures nor a "
			    "job metric of these results", bad);
			return -1;
		}
		m->gate |= jm;
	}
	if (!o->gate_set)
		m->gate |= cmp_gate_all_metrics(rs->figs);
	m->col = xcalloc(nlabels, sizeof *m->col);
	size_t *rows = xcalloc(nlabels * (rs->nrow + 1), sizeof *rows);
	const char **sweeps = xcalloc(rs->nrow + 1, sizeof *sweeps);
	size_t nsweep = 0;
	int sweepless = 0;

	for (size_t k = 0; k < nlabels; k++) {
		long n = rset_label_rows(rs, labels[k], rows + k * (rs->nrow + 1),
		    rs->nrow);
		if (n < 0) {
			free(rows);
			free(sweeps);
			cmp_free(m);
			return -1;
		}
		m->col[k].label = labels[k];
		m->col[k].nrows = (size_t)n;
		m->col[k].rows = rows + k * (rs->nrow + 1);
		for (long i = 0; i < n; i++) {
			const char *sw = rs->row[m->col[k].rows[i]].sweep;
			size_t j;
			if (sw == NULL) {
				sweepless = 1;
				continue;
			}
			for (j = 0; j < nsweep && sweeps[j] != sw; j++)
				;
			if (j == nsweep)
				sweeps[nsweep++] = sw;
		}
	}
	m->rowbuf = rows;
	/* groups: per sweep value (none first), per load */
	size_t nsw = nsweep + (size_t)sweepless;
	m->g = xcalloc(nsw * rs->nblk + 1, sizeof *m->g);
	for (size_t s = 0; s < nsw; s++) {
		const char *sw = sweepless ? (s ? sweeps[s - 1] : NULL) : sweeps[s];
		for (size_t b = 0; b < rs->nblk; b++) {
			if (group_cells(m, &m->g[m->ng], b, sw)) {
				build_group(m, &m->g[m->ng]);
				m->ng++;
			}
		}
	}
	free(sweeps);
	if (m->holm)
		holm(m);
	judge(m);
	return 0;
}

void
cmp_free(struct cmp *m)
{
	for (size_t g = 0; g < m->ng; g++) {
		free(m->g[g].cell);
		free(m->g[g].zero);
		free(m->g[g].val);
	}
	free(m->g);
	free(m->col);
	free(m->rowbuf);
	memset(m, 0, sizeof *m);
}

const char *
cmp_group_name(char *buf, size_t len, const struct cmp *m,
    const struct cmpgroup *g)
{
	snprintf(buf, len, "%s%s%s", m->rs->blk[g->blk].name, g->sweep ? " " : "",
	    g->sweep ? g->sweep : "");
	return buf;
}
