/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A figure's test between two labels' cells, as compare makes it: paired
 * over the rounds of one session that both ran, where there are two or
 * more (variants interleaved in one boot: a round's drift falls on both),
 * else Welch's t-test on the runs' values (Ratio: a t-test on the two
 * ratios' delta-method standard errors).  Either way the change as a
 * fraction of the baseline (a paired Time or Ratio: the mean of the log
 * ratios, so that a change is a ratio), its standard error's variance
 * components with their degrees of freedom, and the p-value.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "report.h"
#include "util.h"

const char *const cmp_kind_names[CT_N] = {
	[CT_NONE] = "", [CT_WELCH] = "welch", [CT_RATIO] = "ratio",
	[CT_PAIRED] = "paired", [CT_BOOTS] = "boots",
};

static const struct rpair *
find_pair(const struct rcell *c, const struct rpair *key)
{
	size_t lo = 0, hi = c ? c->npair : 0;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct rpair *p = &c->pair[mid];
		int cmp = p->session != key->session ?
		    ((uintptr_t)p->session < (uintptr_t)key->session ? -1 : 1) :
		    (p->round > key->round) - (p->round < key->round);
		if (cmp == 0)
			return p;
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * The per-round differences of b against a (za, zb: their no_load cells,
 * for Ratio), in d[], and the baseline's values in base[]; how many.  A
 * round counts where every cell it needs ran it, with the value measured
 * (and above zero for a log).
 */
static size_t
differences(const struct rcell *a, const struct rcell *b, const struct rcell *za,
    const struct rcell *zb, const struct column *k, int lg, double *d, double *base)
{
	int pv = col_pv(k);
	size_t n = 0;

	for (size_t i = 0; i < a->npair; i++) {
		const struct rpair *pa = &a->pair[i], *pb = find_pair(b, pa);
		double x, y;
		if (pb == NULL)
			continue;
		if (pv < 0) {	/* Ratio: each side's over its own no_load */
			const struct rpair *qa = find_pair(za, pa), *qb = find_pair(zb, pa);
			if (qa == NULL || qb == NULL)
				continue;
			int w = fig_pool(FIG_WALL);
			x = pa->v[w] / qa->v[w];
			y = pb->v[w] / qb->v[w];
		} else {
			x = rpair_v(pa, pv);
			y = rpair_v(pb, pv);
		}
		if (isnan(x) || isnan(y) || isinf(x) || isinf(y) || (lg && (x <= 0 || y <= 0)))
			continue;
		d[n] = lg ? log(y) - log(x) : y - x;
		base[n++] = x;
	}
	return n;
}

/* Paired over the rounds both ran: 1, or 0 with fewer than two. */
static int
paired(struct cmptest *t, const struct rcell *a, const struct rcell *b,
    const struct rcell *za, const struct rcell *zb, const struct column *k)
{
	int lg = k->log;

	if (a->npair < 2 || b->npair < 2)
		return 0;
	double *d = xcalloc(a->npair, sizeof *d), *x = xcalloc(a->npair, sizeof *x);
	size_t n = differences(a, b, za, zb, k, lg, d, x);
	struct stats sd, sx;

	stats_compute(d, n, &sd);
	stats_compute(x, n, &sx);
	free(d);
	free(x);
	if (n < 2 || (!lg && sx.mean == 0))
		return 0;
	/* a raw figure's change in parts of the baseline's mean over them */
	double scale = lg ? 1 : sx.mean;
	t->kind = CT_PAIRED;
	t->pairs = n;
	t->log = lg;
	t->est = sd.mean / scale;
	t->var[0] = sd.sd * sd.sd / (double)n / (scale * scale);
	t->df[0] = (double)(n - 1);
	t->dfse = t->df[0];
	if (sd.sd == 0)
		t->p = sd.mean == 0 ? 1 : 0;
	else
		t->p = stats_t_pvalue(sd.mean / (sd.sd / sqrt((double)n)), t->df[0]);
	return 1;
}

void
cmp_test(struct cmptest *t, const struct rcell *a, const struct rcell *b,
    const struct rcell *za, const struct rcell *zb, const struct column *k,
    const struct stats *sa, const struct stats *sb)
{
	double tt, df;

	t->kind = CT_NONE;
	t->pairs = 0;
	t->log = 0;
	t->est = t->p = t->dfse = NAN;
	t->var[0] = t->var[1] = t->df[0] = t->df[1] = NAN;
	if (paired(t, a, b, za, zb, k))
		return;
	if (k->src == S_RATIO) {
		if (isnan(a->ratio_se) || isnan(b->ratio_se) || !(a->ratio != 0))
			return;
		t->kind = CT_RATIO;
		t->est = b->ratio / a->ratio - 1;
		t->var[0] = a->ratio_se * a->ratio_se / (a->ratio * a->ratio);
		t->var[1] = b->ratio_se * b->ratio_se / (a->ratio * a->ratio);
		t->df[0] = a->ratio_df;
		t->df[1] = b->ratio_df;
		t->p = stats_se_test(a->ratio, a->ratio_se, a->ratio_df, b->ratio,
		    b->ratio_se, b->ratio_df, &t->dfse);
		return;
	}
	if (sa == NULL || sb == NULL || sa->n < 2 || sb->n < 2 || sa->mean == 0)
		return;
	t->kind = CT_WELCH;
	t->est = sb->mean / sa->mean - 1;
	/* the baseline's mean taken as known: a change in parts of it */
	double m2 = sa->mean * sa->mean;
	t->var[0] = sa->sd * sa->sd / (double)sa->n / m2;
	t->var[1] = sb->sd * sb->sd / (double)sb->n / m2;
	t->df[0] = (double)(sa->n - 1);
	t->df[1] = (double)(sb->n - 1);
	t->p = stats_welch(sa, sb, &tt, &df);
	t->dfse = df;
}

/* A change in the test's terms as a percentage. */
static double
pct(const struct cmptest *t, double x)
{
	return t->log ? expm1(x) * 100 : x * 100;
}

/* A change in percent, given in the test's terms (worse: its sign). */
static double
terms(const struct cmptest *t, double pc)
{
	return t->log ? log1p(pc / 100) : pc / 100;
}

void
cmp_interval(const struct cmptest *t, double alpha, double *est, double *lo,
    double *hi)
{
	*est = *lo = *hi = NAN;
	if (t->kind == CT_NONE)
		return;
	double se = sqrt(t->var[0] + (isnan(t->var[1]) ? 0 : t->var[1]));
	double q = se > 0 ? stats_t_inv(alpha, t->dfse) : 0;
	*est = pct(t, t->est);
	*lo = pct(t, t->est - q * se);
	*hi = pct(t, t->est + q * se);
}

double
cmp_detect(const struct cmptest *t, double alpha, double thr_pct, int worse,
    double power)
{
	if (t->kind == CT_NONE || worse == 0)
		return NAN;
	/* the gate looks one way: a rise, or a fall, beyond the threshold */
	double thr = worse > 0 ? terms(t, thr_pct) : -terms(t, -thr_pct);
	double d = stats_gate_detect(t->var, t->df, alpha, thr, power);
	return isnan(d) ? NAN : worse > 0 ? pct(t, d) : -pct(t, -d);
}
