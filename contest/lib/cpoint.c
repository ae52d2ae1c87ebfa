/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpoint.h"
#include "stats.h"

/*
 * Where E-divisive means splits y[0..len): the tau (the left side's
 * size, min..len-min) that maximises
 *   Q(tau) = tau (len - tau) / len * (2 B / (tau (len - tau))
 *            - L / C(tau, 2) - R / C(len - tau, 2))
 * with B the sum of |y_i - y_j| across the split and L, R those within
 * each side.  Moving one point from the right side to the left changes L
 * and R by its distances to the points left of it and right of it: O(len)
 * each, O(len^2) for every tau (after[0..len): scratch).
 */
static size_t
best_split(const double *y, size_t len, size_t min, double *after)
{
	double total = 0, left = 0, right;
	size_t best = 0;
	double bestq = -INFINITY;

	/* after[t]: y[t]'s distances to the points after it, whose sum is
	 * every pair's; each pair is taken twice in all, not three times */
	for (size_t t = 0; t < len; t++) {
		after[t] = 0;
		for (size_t k = t + 1; k < len; k++)
			after[t] += fabs(y[t] - y[k]);
		total += after[t];
	}
	right = total;
	for (size_t t = 0; t + min < len; t++) {
		/* y[t] moves to the left side, which then holds t + 1 points */
		double lsum = 0;
		for (size_t i = 0; i < t; i++)
			lsum += fabs(y[i] - y[t]);
		left += lsum;
		right -= after[t];
		size_t a = t + 1, b = len - a;
		if (a < min)
			continue;
		double between = total - left - right;
		double e = 2 * between / ((double)a * (double)b) -
		    (a > 1 ? left / ((double)a * (double)(a - 1) / 2) : 0) -
		    (b > 1 ? right / ((double)b * (double)(b - 1) / 2) : 0);
		double q = (double)a * (double)b / (double)len * e;
		if (q > bestq) {
			bestq = q;
			best = a;
		}
	}
	return best;
}

/* Student's two-sample t-test of y[0..a) against y[a..len): its p, and
 * the change's means and CI95 into c. */
static double
ttest(const double *y, size_t a, size_t len, struct cpoint *c)
{
	double m[2] = { 0, 0 }, ss = 0;
	size_t n[2] = { a, len - a };

	for (size_t i = 0; i < len; i++)
		m[i >= a] += y[i];
	m[0] /= (double)n[0];
	m[1] /= (double)n[1];
	for (size_t i = 0; i < len; i++)
		ss += (y[i] - m[i >= a]) * (y[i] - m[i >= a]);
	double df = (double)len - 2;
	double se = sqrt(ss / df * (1 / (double)n[0] + 1 / (double)n[1]));
	double d = m[1] - m[0];
	c->before = m[0];
	c->after = m[1];
	c->nbefore = n[0];
	c->nafter = n[1];
	if (!(se > 0)) {	/* no noise: any difference is the change */
		c->lo = c->hi = d;
		return d != 0 ? 0 : 1;
	}
	double q = stats_t_inv(0.05, df);
	c->lo = d - q * se;
	c->hi = d + q * se;
	return stats_t_pvalue(d / se, df);
}

static int
by_at(const void *a, const void *b)
{
	const struct cpoint *x = a, *y = b;

	return (x->at > y->at) - (x->at < y->at);
}

/* Each change point against the segments either side of it, as they are
 * now; the weakest that fails goes, until none does.  Returns the count
 * kept. */
static size_t
revalidate(const double *x, size_t n, double pmax, struct cpoint *cp, size_t k)
{
	for (;;) {
		size_t worst = k;
		double wp = -1;
		for (size_t i = 0; i < k; i++) {
			size_t from = i ? cp[i - 1].at : 0, to = i + 1 < k ? cp[i + 1].at : n;
			cp[i].p = ttest(x + from, cp[i].at - from, to - from, &cp[i]);
			if (cp[i].p >= pmax && cp[i].p > wp) {
				wp = cp[i].p;
				worst = i;
			}
		}
		if (worst == k)
			return k;
		memmove(cp + worst, cp + worst + 1, (k - worst - 1) * sizeof *cp);
		k--;
	}
}

long
cpoint_find(const double *x, size_t n, size_t min, double pmax,
    struct cpoint *out, size_t max)
{
	/* segments still to search, as [from, to) pairs: at most one more
	 * than the change points found */
	size_t *seg = malloc(2 * (n + 1) * sizeof *seg), nseg = 0, k = 0;
	double *after = malloc((n + 1) * sizeof *after);

	if (seg == NULL || after == NULL) {
		free(seg);
		free(after);
		return -1;
	}
	if (min < 1)
		min = 1;
	seg[nseg++] = 0;
	seg[nseg++] = n;
	while (nseg > 0 && k < max) {
		size_t to = seg[--nseg], from = seg[--nseg];
		if (to - from < 2 * min)
			continue;
		size_t a = best_split(x + from, to - from, min, after);
		struct cpoint c;
		if (a == 0 || (c.p = ttest(x + from, a, to - from, &c)) >= pmax)
			continue;
		c.at = from + a;
		out[k++] = c;
		seg[nseg++] = from;
		seg[nseg++] = c.at;
		seg[nseg++] = c.at;
		seg[nseg++] = to;
	}
	free(seg);
	free(after);
	qsort(out, k, sizeof *out, by_at);
	return (long)revalidate(x, n, pmax, out, k);
}
