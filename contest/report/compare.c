/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The comparison of labels, built once and printed by every format: per
 * load (and sweep value) one column per label, the figures of
 * cmp_figs[], each candidate's change against the baseline and its test;
 * a candidate regresses where a gated figure changed significantly for
 * the worse beyond the threshold.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "util.h"

const struct cmp_figdef cmp_figs[CF_NFIG] = {
	[CF_MIN] = { "Min", "Time", "time_min", 0, 0, -1 },
	[CF_AMEAN] = { "Amean", "Time", "time_amean", +1, CMP_GATE_TIME, FIG_WALL },
	[CF_STDDEV] = { "Stddev", "Time", "time_stddev", 0, 0, -1 },
	[CF_COV] = { "CoeffVar", "Time", "time_coeffvar", 0, 0, -1 },
	[CF_MAX] = { "Max", "Time", "time_max", 0, 0, -1 },
	[CF_BAMEAN] = { "BAmean-50", "Time", "time_bamean50", 0, 0, -1 },
	[CF_RATIO] = { "Amean", "Ratio", "ratio", +1, CMP_GATE_RATIO, -1 },
	[CF_RATE] = { "Amean", "Loads", "loads_per_s", -1, CMP_GATE_LOAD, -1 },
	[CF_WAIT] = { "Amean", "Wait%", "wait_pct", +1, CMP_GATE_WAIT, FIG_WAIT },
	[CF_LAT] = { "Amean", "Lat p99", "lat_p99_us", +1, CMP_GATE_LAT, -1 },
	[CF_MET] = { "Amean", "Met%", "met_pct", -1, 0, -1 },
	[CF_LOADP] = { "Amean", "Load%", "load_pct", -1, 0, FIG_LOADP },
};

static const char *const gate_names[] = { "time", "ratio", "wait", "lat", "load" };

unsigned
cmp_gate_parse(const char *s)
{
	unsigned gate = 0;
	char *copy = xstrdup(s), *save = NULL;

	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		size_t i;
		for (i = 0; i < 5 && strcmp(w, gate_names[i]) != 0; i++)
			;
		if (i == 5) {
			free(copy);
			return 0;
		}
		gate |= 1u << i;
	}
	free(copy);
	return gate;
}

const char *
cmp_gate_name(unsigned bit)
{
	for (size_t i = 0; i < 5; i++)
		if (bit == 1u << i)
			return gate_names[i];
	return "?";
}

/* The figure as the tables print it; NaN: none.  What is shown is what
 * is tested: the probe's p99 and Met% as the mean of the runs' own. */
static double
fig_value(const struct rcell *c, int fig, int base_blk)
{
	if (c == NULL || c->ok == 0)
		return NAN;
	if (cmp_figs[fig].fig >= 0) {
		const struct stats *st = rcell_fig(c, (enum fig_id)cmp_figs[fig].fig);
		return st->n ? st->mean : NAN;
	}
	switch (fig) {
	case CF_MIN: return rcell_fig(c, FIG_WALL)->min;
	case CF_STDDEV: return c->ok > 1 ? rcell_fig(c, FIG_WALL)->sd : NAN;
	/* mmtests' calc_coeffvar: a stddev it cannot compute counts as 0 */
	case CF_COV: return c->ok > 1 ? rcell_fig(c, FIG_WALL)->cv * 100 : 0;
	case CF_MAX: return rcell_fig(c, FIG_WALL)->max;
	case CF_BAMEAN: return c->bamean;
	case CF_RATIO: return base_blk ? NAN : c->ratio;
	case CF_RATE: return c->rate.n ? c->rate.mean : NAN;
	case CF_LAT: return c->p99.n ? c->p99.mean : NAN;
	case CF_MET: return c->met.n ? c->met.mean : NAN;
	}
	return NAN;
}

/* The runs' values a figure's test compares; NULL: not tested. */
static const struct stats *
fig_runs(const struct rcell *c, int fig)
{
	if (cmp_figs[fig].fig >= 0)
		return rcell_fig(c, (enum fig_id)cmp_figs[fig].fig);
	switch (fig) {
	case CF_RATE: return &c->rate;
	case CF_LAT: return &c->p99;
	case CF_MET: return &c->met;
	}
	return NULL;
}

/* The smallest change of fig that its test between a and b could find
 * at alpha with CMP_POWER, in percent of a's value; NaN: not tested. */
static double
fig_mde(const struct rcell *a, const struct rcell *b, int fig, double va,
    double alpha)
{
	double df, se;

	if (fig == CF_RATIO)
		se = stats_se_diff(a->ratio_se, a->ratio_df, b->ratio_se, b->ratio_df,
		    &df);
	else {
		const struct stats *sa = fig_runs(a, fig), *sb = fig_runs(b, fig);
		se = sa ? stats_welch_se(sa, sb, &df) : NAN;
	}
	double mde = stats_mde(se, df, alpha, CMP_POWER);
	return va != 0 && !isnan(mde) ? mde / fabs(va) * 100 : NAN;
}

static double
fig_test(const struct rcell *a, const struct rcell *b, int fig)
{
	double t, df;

	if (fig == CF_RATIO)
		return stats_se_test(a->ratio, a->ratio_se, a->ratio_df, b->ratio,
		    b->ratio_se, b->ratio_df, &df);
	const struct stats *sa = fig_runs(a, fig), *sb = fig_runs(b, fig);
	return sa ? stats_welch(sa, sb, &t, &df) : NAN;
}

static int
by_p(const void *a, const void *b)
{
	double pa = (*(struct cmpval *const *)a)->p, pb = (*(struct cmpval *const *)b)->p;

	return pa < pb ? -1 : pa > pb;
}

/* Holm-Bonferroni over every test in the table: the k-th smallest of m
 * p-values is scaled by m - k, and never below the one before it. */
static void
holm(struct cmp *m)
{
	size_t n = 0, cap = m->ng * CF_NFIG * m->ncol + 1;
	struct cmpval **v = xcalloc(cap, sizeof *v);

	for (size_t g = 0; g < m->ng; g++)
		for (size_t i = 0; i < CF_NFIG * m->ncol; i++)
			if (!isnan(m->g[g].val[i].p))
				v[n++] = &m->g[g].val[i];
	qsort(v, n, sizeof *v, by_p);
	double prev = 0;
	for (size_t k = 0; k < n; k++) {
		double adj = v[k]->p * (double)(n - k);
		adj = adj > 1 ? 1 : adj;
		prev = adj > prev ? adj : prev;
		v[k]->padj = prev;
	}
	m->ntests = n;
	free(v);
}

static void
build_group(struct cmp *m, struct cmpgroup *g)
{
	const struct rset *rs = m->rs;
	int base_blk = g->blk == rs->base;

	g->val = xcalloc(CF_NFIG * m->ncol, sizeof *g->val);
	for (size_t k = 0; k < m->ncol; k++)
		if (g->cell[k] && g->cell[k]->ok)
			g->nran++;
	for (int f = 0; f < CF_NFIG; f++)
		for (size_t k = 0; k < m->ncol; k++) {
			struct cmpval *v = &g->val[f * m->ncol + k];
			const struct rcell *a = g->cell[0], *b = g->cell[k];
			v->v = fig_value(b, f, base_blk);
			v->pct = v->p = v->padj = v->mde_pct = NAN;
			if (!isnan(v->v))
				g->shown[f] = 1;
			double va = fig_value(a, f, base_blk);
			if (isnan(v->v) || isnan(va))
				continue;
			v->pct = va != 0 ? (v->v / va - 1) * 100 : v->v == 0 ? 0 : NAN;
			if (k == 0 || !cmp_figs[f].worse)
				continue;
			v->p = v->padj = fig_test(a, b, f);
		}
}

/* Each group's verdicts, once the p-values are final; and what each
 * tested figure could have seen (under Holm, at the strictest step's
 * alpha: alpha over the table's tests). */
static void
judge(struct cmp *m)
{
	double alpha = m->holm && m->ntests ? m->alpha / (double)m->ntests : m->alpha;

	for (size_t k = 0; k < m->ncol; k++)
		m->col[k].blind_pct = NAN;
	for (size_t g = 0; g < m->ng; g++) {
		struct cmpgroup *gr = &m->g[g];
		int base_blk = gr->blk == m->rs->base;
		for (size_t k = 1; k < m->ncol; k++) {
			int worse = 0, tested = 0;
			for (int f = 0; f < CF_NFIG; f++) {
				struct cmpval *v = &gr->val[f * m->ncol + k];
				double p = m->holm ? v->padj : v->p;
				v->sig = p < m->alpha;
				v->gated = (cmp_figs[f].gate & m->gate) != 0 && !isnan(v->v);
				v->worse = v->gated && v->sig &&
				    cmp_figs[f].worse * v->pct > m->threshold;
				worse |= v->worse;
				tested |= v->gated && !isnan(p);
				if (isnan(p))
					continue;
				v->mde_pct = fig_mde(gr->cell[0], gr->cell[k], f,
				    fig_value(gr->cell[0], f, base_blk), alpha);
				struct cmpcol *c = &m->col[k];
				if (v->gated && !isnan(v->mde_pct) &&
				    (isnan(c->blind_pct) || v->mde_pct > c->blind_pct)) {
					c->blind_pct = v->mde_pct;
					c->blind_fig = f;
					c->blind_g = g;
				}
			}
			if (worse)
				m->col[k].regressed++;
			if (gr->cell[0] && gr->cell[0]->ok && gr->cell[k] &&
			    gr->cell[k]->ok && !tested)
				m->col[k].untested++;
			if (gr->cell[0] && gr->cell[0]->ok && gr->cell[k] && gr->cell[k]->ok)
				m->col[k].compared++;
		}
	}
	for (size_t k = 1; k < m->ncol; k++)
		m->regressed += m->col[k].regressed;
}

int
cmp_build(struct cmp *m, const struct rset *rs, char *const *labels,
    size_t nlabels, const struct cmpopt *o)
{
	memset(m, 0, sizeof *m);
	m->rs = rs;
	m->ncol = nlabels;
	m->threshold = o->threshold;
	m->alpha = o->alpha;
	m->holm = o->holm;
	m->gate = o->gate;
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
			struct cmpgroup *g = &m->g[m->ng];
			int any = 0;
			g->blk = b;
			g->sweep = sw;
			g->cell = xcalloc(nlabels, sizeof *g->cell);
			for (size_t k = 0; k < nlabels; k++)
				for (size_t i = 0; i < m->col[k].nrows; i++) {
					size_t r = m->col[k].rows[i];
					const struct rcell *c = rset_cell(rs, r, b);
					if (rs->row[r].sweep == sw && rcell_ran(c)) {
						g->cell[k] = c;
						any = 1;
					}
				}
			if (!any) {
				free(g->cell);
				continue;
			}
			build_group(m, g);
			m->ng++;
		}
	}
	free(sweeps);
	if (m->holm)
		holm(m);
	else
		for (size_t g = 0; g < m->ng; g++)
			for (size_t i = 0; i < CF_NFIG * m->ncol; i++)
				m->ntests += !isnan(m->g[g].val[i].p);
	judge(m);
	return 0;
}

void
cmp_free(struct cmp *m)
{
	for (size_t g = 0; g < m->ng; g++) {
		free(m->g[g].cell);
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
