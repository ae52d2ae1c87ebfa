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

double
stats_ws_df(double va, double dfa, double vb, double dfb)
{
	double den = va * va / dfa + vb * vb / dfb;

	return den > 0 ? (va + vb) * (va + vb) / den : dfa + dfb;
}

static double
welch_df(double va, size_t na, double vb, size_t nb)
{
	return stats_ws_df(va, (double)(na - 1), vb, (double)(nb - 1));
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
	*df = stats_ws_df(sea * sea, dfa, seb * seb, dfb);
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

	*df = stats_ws_df(va, dfa, vb, dfb);
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
