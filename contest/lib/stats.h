/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Summary statistics: the one place they are computed. */
#ifndef CONTEST_STATS_H
#define CONTEST_STATS_H

#include <stddef.h>

#include "quantile.h"	/* sorting, nearest rank, mean */

struct stats {
	size_t	n;
	double	mean;
	double	sd;	/* sample standard deviation (n-1); 0 when n < 2 */
	double	cv;	/* sd / mean; 0 when mean is 0 */
	double	min, max, median;
	double	ci95;	/* half-width of the 95% CI of the mean (Student's t) */
};

/* Two-sided 95% quantile of Student's t with df degrees of freedom. */
double	stats_t95(size_t df);

/* Summarise v[0..n-1]; v is not modified.  n may be 0 (all zero). */
void	stats_compute(const double *v, size_t n, struct stats *out);

/*
 * The same as values go by, for a figure a report tests but never shows
 * the median of (Welford's updates: n, mean, sd, cv, min, max and ci95
 * as stats_compute gives them, to rounding; median NaN).  Start from a
 * zeroed struct stats and a zeroed m2.
 */
void	stats_add(struct stats *, double *m2, double v);
/* Take one v back out (min and max stay as they were: what is left is
 * within them). */
void	stats_remove(struct stats *, double *m2, double v);
void	stats_finish(struct stats *, double m2);

/*
 * Ratio a/b of two independent means and its standard deviation by
 * first-order error propagation: sd(r) = r * sqrt((sa/a)^2 + (sb/b)^2).
 */
double	stats_ratio(const struct stats *a, const struct stats *b, double *sd);

/*
 * The standard error of that ratio from the two standard errors, with
 * its Welch-Satterthwaite degrees of freedom.  NaN unless both sides
 * have two runs or more.
 */
double	stats_ratio_se(const struct stats *a, const struct stats *b, double *df);

/*
 * The 95% confidence interval of that ratio: half-width from the two
 * standard errors, t quantile at the Welch-Satterthwaite degrees of
 * freedom (rounded down: the wider interval).  NaN unless both sides
 * have two runs or more.
 */
double	stats_ratio_ci95(const struct stats *a, const struct stats *b);

/* Two-sided p-value of Student's t statistic with df degrees of freedom. */
double	stats_t_pvalue(double t, double df);

/* Its inverse: the t >= 0 whose two-sided p-value is p (0 < p < 1), to
 * 1e-9; NaN for df not above 0. */
double	stats_t_inv(double p, double df);

/* Welch-Satterthwaite: the df of a sum of two variance terms va, vb,
 * each with its own df. */
double	stats_ws_df(double va, double dfa, double vb, double dfb);
/*
 * The power of a gate that reports a change when its estimate D is
 * beyond thr (>= 0) and its t-test is significant at two-sided alpha in
 * the same direction: P(D > thr and D > t(1-alpha/2, df) x S), for D
 * normal with mean delta and variance var[0] + var[1], and S its standard
 * error as the test estimates it: each var[i] from a sample with df[i]
 * degrees of freedom, and with two (Welch's test: var[1] not NaN or 0)
 * the t quantile at their Welch-Satterthwaite df.  With thr 0 and one
 * component it is the t-test's own power, the noncentral t's upper tail.
 * Integrated numerically over the estimates; NaN without a variance or df.
 */
double	stats_gate_power(double delta, const double var[2], const double df[2],
	    double alpha, double thr);

/* The smallest delta that gate reports with the given power (to a
 * thousandth of its standard error); NaN without a variance or df. */
double	stats_gate_detect(const double var[2], const double df[2], double alpha,
	    double thr, double power);

/* Welch's standard error of b's mean minus a's, and its df; NaN unless
 * both sides have two runs or more. */
double	stats_welch_se(const struct stats *a, const struct stats *b, double *df);

/* The standard error of the difference of two estimates with standard
 * errors sea, seb and their dfs, and the Welch-Satterthwaite df. */
double	stats_se_diff(double sea, double dfa, double seb, double dfb, double *df);

/*
 * Welch's unequal-variance t-test of b's mean against a's: the two-sided
 * p-value, with t (positive when b is larger) and df.  NaN unless both
 * sides have two runs or more.
 */
double	stats_welch(const struct stats *a, const struct stats *b, double *t,
	    double *df);

/*
 * The t-test of b against a from their standard errors and degrees of
 * freedom (two ratios' delta-method errors): the two-sided p-value, df
 * by Welch-Satterthwaite.  NaN when either side has none.
 */
double	stats_se_test(double a, double sea, double dfa, double b, double seb,
	    double dfb, double *df);

#endif
