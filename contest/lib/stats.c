/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* t(0.975, df) for df = 1..30; beyond that the normal limit is close enough
 * after a small correction. */
static const double t975[] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

double
stats_t95(size_t df)
{
	if (df == 0)
		return INFINITY;
	if (df <= sizeof t975 / sizeof t975[0])
		return t975[df - 1];
	/* the last few solved: a report asks the same df of every figure
	 * of a row, and each solution is thirty incomplete betas */
	static struct { size_t df; double t; } seen[8];
	for (size_t i = 0; i < sizeof seen / sizeof *seen; i++)
		if (seen[i].df == df)
			return seen[i].t;
	/* Past the table, solve p(t) = 0.05 on the t distribution itself:
	 * bisection between the normal quantile and df 30's, to 1e-9. */
	double lo = 1.959963, hi = t975[29];
	while (hi - lo > 1e-9) {
		double mid = (lo + hi) / 2;
		if (stats_t_pvalue(mid, (double)df) > 0.05)
			lo = mid;
		else
			hi = mid;
	}
	memmove(seen + 1, seen, sizeof seen - sizeof *seen);
	seen[0].df = df;
	seen[0].t = (lo + hi) / 2;
	return seen[0].t;
}

void
stats_add(struct stats *s, double *m2, double v)
{
	s->n++;
	if (s->n == 1)
		s->min = s->max = v;
	if (v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	double d = v - s->mean;
	s->mean += d / (double)s->n;
	*m2 += d * (v - s->mean);
}

void
stats_remove(struct stats *s, double *m2, double v)
{
	if (s->n <= 1) {
		memset(s, 0, sizeof *s);
		*m2 = 0;
		return;
	}
	double mean = (s->mean * (double)s->n - v) / (double)(s->n - 1);
	*m2 -= (v - mean) * (v - s->mean);
	if (*m2 < 0)
		*m2 = 0;	/* rounding: no spread is left */
	s->mean = mean;
	s->n--;
}

void
stats_finish(struct stats *s, double m2)
{
	s->sd = s->cv = s->ci95 = 0;
	s->median = s->n ? NAN : 0;
	if (s->n > 1) {
		s->sd = sqrt(m2 / (double)(s->n - 1));
		s->ci95 = stats_t95(s->n - 1) * s->sd / sqrt((double)s->n);
	}
	if (s->mean != 0)
		s->cv = s->sd / fabs(s->mean);
}

void
stats_compute(const double *v, size_t n, struct stats *s)
{
	memset(s, 0, sizeof *s);
	s->n = n;
	if (n == 0)
		return;

	double sum = 0;
	s->min = s->max = v[0];
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < s->min)
			s->min = v[i];
		if (v[i] > s->max)
			s->max = v[i];
	}
	s->mean = sum / (double)n;

	if (n > 1) {
		double ss = 0;
		for (size_t i = 0; i < n; i++)
			ss += (v[i] - s->mean) * (v[i] - s->mean);
		s->sd = sqrt(ss / (double)(n - 1));
		s->ci95 = stats_t95(n - 1) * s->sd / sqrt((double)n);
	}
	if (s->mean != 0)
		s->cv = s->sd / fabs(s->mean);

	double *sorted = malloc(n * sizeof *sorted);
	if (sorted == NULL) {
		s->median = s->mean;	/* degrade, never crash a report */
		return;
	}
	memcpy(sorted, v, n * sizeof *sorted);
	stats_sort(sorted, n);
	s->median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	free(sorted);
}

double
stats_ratio(const struct stats *a, const struct stats *b, double *sd)
{
	if (b->mean == 0 || a->n == 0 || b->n == 0) {
		if (sd)
			*sd = 0;
		return 0;
	}
	double r = a->mean / b->mean;
	if (sd) {
		double ra = a->mean != 0 ? a->sd / a->mean : 0;
		double rb = b->sd / b->mean;
		*sd = fabs(r) * sqrt(ra * ra + rb * rb);
	}
	return r;
}

/* t quantile for a fractional df: the next lower whole df (wider). */
static double
t95_frac(double df)
{
	return df >= 1 ? stats_t95((size_t)floor(df)) : NAN;
}

/* Welch-Satterthwaite: the df of a sum of two variance terms va, vb,
 * each with its own df. */
static double
ws_df(double va, double dfa, double vb, double dfb)
{
	double den = va * va / dfa + vb * vb / dfb;

	return den > 0 ? (va + vb) * (va + vb) / den : dfa + dfb;
}

static double
welch_df(double va, size_t na, double vb, size_t nb)
{
	return ws_df(va, (double)(na - 1), vb, (double)(nb - 1));
}

double
stats_ratio_se(const struct stats *a, const struct stats *b, double *df)
{
	*df = NAN;
	if (a->n < 2 || b->n < 2 || a->mean == 0 || b->mean == 0)
		return NAN;
	/* squared relative standard errors of the two means */
	double ua = a->sd * a->sd / ((double)a->n * a->mean * a->mean);
	double ub = b->sd * b->sd / ((double)b->n * b->mean * b->mean);

	*df = welch_df(ua, a->n, ub, b->n);
	return fabs(a->mean / b->mean) * sqrt(ua + ub);
}

double
stats_ratio_ci95(const struct stats *a, const struct stats *b)
{
	double df, se = stats_ratio_se(a, b, &df);

	return isnan(se) ? NAN : t95_frac(df) * se;
}

/*
 * The regularised incomplete beta function I_x(a, b) by its continued
 * fraction (modified Lentz), which converges fast for x < (a+1)/(a+b+2);
 * the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) covers the rest.
 */
static double
beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m;
		double num = m * (b - m) * x / ((a - 1 + m2) * (a + m2));
		for (int half = 0; half < 2; half++) {
			d = 1 + num * d;
			d = 1 / (fabs(d) < tiny ? tiny : d);
			c = 1 + num / c;
			if (fabs(c) < tiny)
				c = tiny;
			h *= d * c;
			num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
		}
		if (fabs(d * c - 1) < 1e-15)
			break;
	}
	return h;
}

static double
ibeta(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) +
	    a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double
stats_t_pvalue(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	return ibeta(df / 2, 0.5, df / (df + t * t));
}

double
stats_t_inv(double p, double df)
{
	if (!(df > 0) || !(p > 0 && p < 1))
		return NAN;
	double lo = 0, hi = 1;
	while (stats_t_pvalue(hi, df) > p && hi < 1e12)
		hi *= 2;
	while (hi - lo > 1e-9 * (hi > 1 ? hi : 1)) {
		double mid = (lo + hi) / 2;
		if (stats_t_pvalue(mid, df) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double
stats_welch_se(const struct stats *a, const struct stats *b, double *df)
{
	*df = NAN;
	if (a->n < 2 || b->n < 2)
		return NAN;
	double va = a->sd * a->sd / (double)a->n, vb = b->sd * b->sd / (double)b->n;

	*df = welch_df(va, a->n, vb, b->n);
	return sqrt(va + vb);
}

double
stats_se_diff(double sea, double dfa, double seb, double dfb, double *df)
{
	*df = NAN;
	if (isnan(sea) || isnan(seb) || !(dfa > 0) || !(dfb > 0))
		return NAN;
	*df = ws_df(sea * sea, dfa, seb * seb, dfb);
	return sqrt(sea * sea + seb * seb);
}

double
stats_se_test(double a, double sea, double dfa, double b, double seb,
    double dfb, double *df)
{
	*df = NAN;
	if (isnan(a) || isnan(b) || isnan(sea) || isnan(seb) || !(dfa > 0) ||
	    !(dfb > 0))
		return NAN;
	double va = sea * sea, vb = seb * seb;

	*df = ws_df(va, dfa, vb, dfb);
	if (va + vb == 0)
		return a == b ? 1 : 0;
	return stats_t_pvalue((b - a) / sqrt(va + vb), *df);
}

double
stats_welch(const struct stats *a, const struct stats *b, double *t, double *df)
{
	*t = *df = NAN;
	if (a->n < 2 || b->n < 2)
		return NAN;
	double va = a->sd * a->sd / (double)a->n, vb = b->sd * b->sd / (double)b->n;
	double diff = b->mean - a->mean;

	*df = welch_df(va, a->n, vb, b->n);
	if (va + vb == 0) {
		/* no noise at all: any difference is certain, none is none */
		*t = diff == 0 ? 0 : copysign(INFINITY, diff);
		return diff == 0 ? 1 : 0;
	}
	*t = diff / sqrt(va + vb);
	return stats_t_pvalue(*t, *df);
}

/*
 * The gate's power, integrated over the estimated standard error: it is
 * made of one variance component (a paired test) or two (Welch's, each
 * side's with its own df), each estimated as var x chi-square(df) / df,
 * and Welch's test takes its t quantile at the Welch-Satterthwaite df of
 * the estimates.  Simpson's rule on each component's chi density over
 * +-12 of its spreads; t quantiles interpolated over the df the
 * estimates can give.  A simulation of 20,000 draws agrees to within a
 * point of power at n = 3, 5 and 10 (tests/unit/stats.c).
 */
#define GATE_STEPS	200	/* one component */
#define GATE_STEPS2	80	/* each of two */
#define GATE_TQ		64	/* t quantiles tabulated over the df range */

/* One component's grid: u = (estimated sd) / (true sd), and Simpson's
 * weight times u's density. */
struct gate_axis {
	int	 n;
	double	 u[GATE_STEPS + 1], wt[GATE_STEPS + 1];
};

static void
gate_axis(struct gate_axis *g, double df, int steps)
{
	double sd = 1 / sqrt(2 * df), lo = 1 - 12 * sd, hi = 1 + 12 * sd;

	lo = lo < 0 ? 0 : lo;
	double h = (hi - lo) / steps;
	/* u^2 df is chi-square with df degrees of freedom */
	double c = log(2.0) + (df / 2) * log(df / 2) - lgamma(df / 2);
	g->n = steps;
	for (int i = 0; i <= steps; i++) {
		double u = lo + i * h;
		double f = u > 0 ? exp(c + (df - 1) * log(u) - df * u * u / 2) :
		    df == 1 ? exp(c) : 0;
		g->u[i] = u;
		g->wt[i] = f * h / 3 * (i == 0 || i == steps ? 1 : i % 2 ? 4 : 2);
	}
}

/* What the power integral needs, worked out once for every delta. */
struct gate {
	int		 k;		/* components: 1 or 2 */
	double		 var[2], df[2], se, thr;
	struct gate_axis a[2];
	double		 tq[GATE_TQ + 1], idf0, idf1;	/* t quantiles over 1/df */
	double		*bar, *wt;	/* per grid point: the estimate's bar, weight */
	size_t		 npt;
};

static double
gate_tq(const struct gate *g, double df)
{
	if (g->k == 1 || g->idf1 == g->idf0)
		return g->tq[0];
	double x = (1 / df - g->idf0) / (g->idf1 - g->idf0) * GATE_TQ;
	int j = x <= 0 ? 0 : x >= GATE_TQ ? GATE_TQ - 1 : (int)x;
	double f = x - j;
	return g->tq[j] + (g->tq[j + 1] - g->tq[j]) * f;
}

static int
gate_init(struct gate *g, const double *var, const double *df, int k,
    double alpha, double thr)
{
	memset(g, 0, sizeof *g);
	g->k = k;
	g->thr = thr;
	for (int i = 0; i < k; i++) {
		g->var[i] = var[i];
		g->df[i] = df[i];
		g->se += var[i];
	}
	g->se = sqrt(g->se);
	if (k == 1)
		g->tq[0] = stats_t_inv(alpha, df[0]);
	else {
		/* Welch-Satterthwaite df lies between the smaller df and the sum */
		g->idf0 = 1 / (df[0] + df[1]);
		g->idf1 = 1 / (df[0] < df[1] ? df[0] : df[1]);
		for (int j = 0; j <= GATE_TQ; j++)
			g->tq[j] = stats_t_inv(alpha, 1 / (g->idf0 + (g->idf1 -
			    g->idf0) * j / GATE_TQ));
	}
	for (int i = 0; i < k; i++)
		gate_axis(&g->a[i], df[i], k == 1 ? GATE_STEPS : GATE_STEPS2);
	g->npt = k == 1 ? (size_t)g->a[0].n + 1 :
	    (size_t)(g->a[0].n + 1) * (size_t)(g->a[1].n + 1);
	g->bar = malloc(g->npt * sizeof *g->bar);
	g->wt = malloc(g->npt * sizeof *g->wt);
	if (g->bar == NULL || g->wt == NULL) {
		free(g->bar);
		free(g->wt);
		return -1;
	}
	size_t p = 0;
	for (int i = 0; i <= g->a[0].n; i++) {
		if (k == 1) {
			g->bar[p] = g->tq[0] * g->se * g->a[0].u[i];
			g->wt[p++] = g->a[0].wt[i];
			continue;
		}
		for (int j = 0; j <= g->a[1].n; j++) {
			double va = var[0] * g->a[0].u[i] * g->a[0].u[i];
			double vb = var[1] * g->a[1].u[j] * g->a[1].u[j];
			g->bar[p] = va + vb > 0 ?
			    gate_tq(g, ws_df(va, df[0], vb, df[1])) * sqrt(va + vb) : 0;
			g->wt[p++] = g->a[0].wt[i] * g->a[1].wt[j];
		}
	}
	for (size_t q = 0; q < g->npt; q++)
		if (g->bar[q] < thr)
			g->bar[q] = thr;
	return 0;
}

static double
gate_at(const struct gate *g, double delta)
{
	double p = 0;

	for (size_t q = 0; q < g->npt; q++)
		p += g->wt[q] * 0.5 * erfc((g->bar[q] - delta) / g->se / sqrt(2));
	return p;
}

/* Components of a standard error: one, or two where var[1] is given. */
static int
gate_parts(const double *var, const double *df)
{
	if (isnan(var[0]) || !(df[0] > 0) || var[0] < 0)
		return 0;
	if (isnan(var[1]) || var[1] == 0)
		return 1;
	return df[1] > 0 && var[1] > 0 ? 2 : 0;
}

double
stats_gate_power(double delta, const double var[2], const double df[2],
    double alpha, double thr)
{
	struct gate g;
	int k = gate_parts(var, df);

	if (k == 0 || var[0] + (k > 1 ? var[1] : 0) == 0 ||
	    gate_init(&g, var, df, k, alpha, thr) < 0)
		return NAN;
	double p = gate_at(&g, delta);
	free(g.bar);
	free(g.wt);
	return p;
}

double
stats_gate_detect(const double var[2], const double df[2], double alpha,
    double thr, double power)
{
	struct gate g;
	int k = gate_parts(var, df);

	if (k == 0)
		return NAN;
	if (var[0] + (k > 1 ? var[1] : 0) == 0)
		return thr;	/* no noise: the threshold is the rule */
	if (gate_init(&g, var, df, k, alpha, thr) < 0)
		return NAN;
	double lo = 0, hi = thr + g.se;
	while (gate_at(&g, hi) < power && hi < 1e6 * (g.se + thr))
		hi *= 2;
	/* to a thousandth of the standard error, far finer than printed; or
	 * to adjacent doubles, where that error is below their spacing (runs
	 * that differ by the same amount in every round): else it never ends */
	while (hi - lo > 1e-3 * g.se) {
		double mid = (lo + hi) / 2;
		if (mid <= lo || mid >= hi)
			break;
		if (gate_at(&g, mid) < power)
			lo = mid;
		else
			hi = mid;
	}
	free(g.bar);
	free(g.wt);
	return (lo + hi) / 2;
}
