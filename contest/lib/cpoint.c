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

/*
 * Where a rise and a fall that undoes it (a bump) lie in y[0..len), by
 * E-divisive means as Matteson and James define it: the tau and the end
 * kappa (the points after kappa left out) that maximise
 *   Q(tau, kappa) = tau m / kappa * (2 B / (tau m) - L / C(tau, 2)
 *                   - R / C(m, 2)),  m = kappa - tau,
 * with B the sum of |y_i - y_j| across [0, tau) and [tau, kappa), and L,
 * R those within each side.  As kappa grows by one point y_e, its
 * distances to the points before it, summed up to each tau (p[tau]), add
 * p[tau] to B(tau) and p[e] - p[tau] to R(tau): O(len) a point, O(len^2)
 * in all (s: 5 (len + 1) doubles of scratch).  The sides are at least min
 * points; *end gets kappa.
 */
static size_t
best_pair(const double *y, size_t len, size_t min, double *s, size_t *end)
{
	double *lw = s, *bw = s + len + 1, *rw = s + 2 * (len + 1), *p = s + 3 * (len + 1);
	double *inv = s + 4 * (len + 1);
	double bestq = -INFINITY;
	size_t best = 0;

	for (size_t t = 0; t <= len; t++) {
		lw[t] = bw[t] = rw[t] = 0;
		inv[t] = t ? 1 / (double)t : 0;
	}
	for (size_t e = 0; e < len; e++) {
		/* y[e] joins: p[t], its distances to y[0..t) */
		p[0] = 0;
		for (size_t t = 0; t < e; t++)
			p[t + 1] = p[t] + fabs(y[t] - y[e]);
		for (size_t t = 0; t <= e; t++) {
			bw[t] += p[t];
			rw[t] += p[e] - p[t];
		}
		lw[e + 1] = lw[e] + p[e];
		/* Q = 2 / kappa (B - m L / (tau - 1) - tau R / (m - 1)):
		 * no division in the loop over tau */
		size_t k = e + 1;	/* kappa */
		double ik = 2 / (double)k;
		for (size_t t = min; t + min <= k; t++) {
			size_t m = k - t;
			double q = ik * (bw[t] - (t > 1 ? (double)m * lw[t] * inv[t - 1] : 0) -
			    (m > 1 ? (double)t * rw[t] * inv[m - 1] : 0));
			if (q > bestq) {
				bestq = q;
				best = t;
				*end = k;
			}
		}
	}
	return best;
}

/* The k-th smallest of v[0..n) (Wirth's selection, v reordered). */
static double
select_k(double *v, size_t n, size_t k)
{
	long l = 0, m = (long)n - 1, kk = (long)k;

	while (l < m) {
		double x = v[kk];
		long i = l, j = m;
		do {
			while (v[i] < x)
				i++;
			while (x < v[j])
				j--;
			if (i <= j) {
				double t = v[i];
				v[i++] = v[j];
				v[j--] = t;
			}
		} while (i <= j);
		if (j < kk)
			l = i;
		if (kk < i)
			m = j;
	}
	return v[kk];
}

/* The median of v[0..n) (reordered): O(n), a test costs no sort. */
static double
median(double *v, size_t n)
{
	double m = select_k(v, n, n / 2);

	if (n % 2)
		return m;
	double below = v[0];	/* the largest of v[0..n/2), by now below m */
	for (size_t i = 1; i < n / 2; i++)
		below = v[i] > below ? v[i] : below;
	return (below + m) / 2;
}

/*
 * The points of y[0..len) left out of the test of [lo, hi) against the
 * rest: in a side of CPOINT_OUT_N points or more, one over CPOINT_OUT
 * robust standard deviations (1.4826 median absolute deviations of that
 * side, so that where the noise grew only that side's far points are
 * far) from the side's median, the farthest first, one in CPOINT_OUT_N
 * of the side at most.  Marked in buf's room after len + 1 doubles (NULL:
 * none), counted off n[] and into c->nout, the first in c->out.
 */
static const unsigned char *
outliers(const double *y, size_t len, size_t lo, size_t hi, struct cpoint *c,
    double *buf, size_t n[2])
{
	double med[2], scale[2] = { 0, 0 };

	c->nout = 0;
	c->out = 0;
	for (int side = 0; side < 2; side++) {
		size_t k = 0;
		for (size_t i = 0; i < len; i++)
			if ((i >= lo && i < hi) == side)
				buf[k++] = y[i];
		med[side] = median(buf, k);
		for (size_t i = 0; i < k; i++)
			buf[i] = fabs(buf[i] - med[side]);
		scale[side] = k >= CPOINT_OUT_N ? 1.4826 * median(buf, k) : 0;
	}
	if (!(scale[0] > 0 || scale[1] > 0))
		return NULL;
	size_t cap[2] = { n[0] / CPOINT_OUT_N, n[1] / CPOINT_OUT_N };
	unsigned char *out = memset(buf + len + 1, 0, len + 1);
	for (;;) {
		size_t far = len;
		double worst = 1;
		for (size_t i = 0; i < len; i++) {
			int sd = i >= lo && i < hi;
			double z = scale[sd] > 0 ? fabs(y[i] - med[sd]) / (CPOINT_OUT *
			    scale[sd]) : 0;
			if (!out[i] && cap[sd] > 0 && z > worst) {
				worst = z;
				far = i;
			}
		}
		if (far == len)
			return out;
		int sd = far >= lo && far < hi;
		out[far] = 1;
		n[sd]--;
		cap[sd]--;
		if (c->nout++ == 0 || far < c->out)
			c->out = far;
	}
}

/*
 * Welch's two-sample t-test of y[lo..hi) against the rest of y[0..len):
 * its p, and the means (the rest's before) and the CI95 of the
 * difference into c.  Unequal variances: a night's noise that grew after
 * a step does not hide the step.  In a side of CPOINT_OUT_N points or
 * more, a point over CPOINT_OUT robust standard deviations (1.4826 median
 * absolute deviations of that side) from the side's median is left out,
 * the farthest first, one in CPOINT_OUT_N of the side at most (fewer
 * points give too rough a median absolute deviation): one night 20% off
 * does not hide a step of 6% (c->nout, c->out: how many, the first).  A side of one point is held against the other side's spread,
 * as a new observation is.  pooled: Student's test, for a bump inside
 * against outside: its inside is short by nature, and the bump's own
 * threshold (pmax over the pairs of ends) is far out in a tail where the
 * few df of a short side's own spread would hide any.
 */
static double
ttest_in(const double *y, size_t len, size_t lo, size_t hi, struct cpoint *c,
    double *buf, int pooled)
{
	size_t n[2] = { len - (hi - lo), hi - lo };
	const unsigned char *out = outliers(y, len, lo, hi, c, buf, n);

	double m[2] = { 0, 0 }, ss[2] = { 0, 0 };
	for (size_t i = 0; i < len; i++)
		if (!out || !out[i])
			m[i >= lo && i < hi] += y[i];
	m[0] /= (double)n[0];
	m[1] /= (double)n[1];
	for (size_t i = 0; i < len; i++)
		if (!out || !out[i]) {
			double d = y[i] - m[i >= lo && i < hi];
			ss[i >= lo && i < hi] += d * d;
		}
	double v0 = n[0] > 1 ? ss[0] / (double)(n[0] - 1) : NAN;
	double v1 = n[1] > 1 ? ss[1] / (double)(n[1] - 1) : NAN;
	double se, df;
	if (n[0] < 2 || n[1] < 2) {	/* one point: against the other's spread */
		double v = n[0] < 2 ? v1 : v0;
		size_t nn = n[0] < 2 ? n[1] : n[0];
		se = sqrt(v * (1 / (double)n[0] + 1 / (double)n[1]));
		df = (double)nn - 1;
	} else {
		/* a side of fewer than CPOINT_OWN points is too few to know its
		 * own spread (E-divisive picks the split that makes its sides
		 * tight): it takes the pooled one, with the pooled df */
		double vp = (ss[0] + ss[1]) / (double)(n[0] + n[1] - 2);
		double dp = (double)(n[0] + n[1] - 2);
		double w0 = n[0] < CPOINT_OWN ? vp : v0, w1 = n[1] < CPOINT_OWN ? vp : v1;
		double f0 = n[0] < CPOINT_OWN ? dp : (double)(n[0] - 1);
		double f1 = n[1] < CPOINT_OWN ? dp : (double)(n[1] - 1);
		double a = w0 / (double)n[0], b = w1 / (double)n[1];
		se = sqrt(a + b);
		if (pooled || (n[0] < CPOINT_OWN && n[1] < CPOINT_OWN)) {
			se = sqrt(vp * (1 / (double)n[0] + 1 / (double)n[1]));
			df = dp;	/* Student's, pooled */
		}
		else
			df = a + b > 0 ? (a + b) * (a + b) / (a * a / f0 + b * b / f1) : dp;
	}
	double d = m[1] - m[0];
	c->before = m[0];
	c->after = m[1];
	c->nbefore = n[0];
	c->nafter = n[1];
	/* no noise: any difference is the change (but for the last bits of
	 * sums of one value, which are noise and differences of their own) */
	double ulp = 1e-12 * (fabs(m[0]) + fabs(m[1]));
	if (!(se > ulp)) {
		if (fabs(d) <= ulp)
			d = 0;
		c->lo = c->hi = d;
		return d != 0 ? 0 : 1;
	}
	double q = stats_t_inv(0.05, df);
	c->lo = d - q * se;
	c->hi = d + q * se;
	return stats_t_pvalue(d / se, df);
}

/* y[0..a) against y[a..len). */
static double
ttest(const double *y, size_t a, size_t len, struct cpoint *c, double *buf)
{
	return ttest_in(y, len, a, len, c, buf, 0);
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
revalidate(const double *x, size_t n, double pmax, struct cpoint *cp, size_t k,
    double *buf)
{
	for (;;) {
		size_t worst = k;
		double wp = -1;
		for (size_t i = 0; i < k; i++) {
			size_t from = i ? cp[i - 1].at : 0, to = i + 1 < k ? cp[i + 1].at : n;
			cp[i].p = ttest(x + from, cp[i].at - from, to - from, &cp[i], buf);
			cp[i].out += from;
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

/* On a segment's start: one side of a split that failed, searched on. */
#define SEG_ON	((size_t)1 << (sizeof(size_t) * 8 - 1))

long
cpoint_find(const double *x, size_t n, size_t min, double pmax,
    struct cpoint *out, size_t max)
{
	/* segments still to search, as [from, to) pairs: at most one more
	 * than the change points found */
	size_t *seg = malloc(2 * (n + 1) * sizeof *seg), nseg = 0, k = 0;
	double *scratch = malloc(5 * (n + 1) * sizeof *scratch);

	if (seg == NULL || scratch == NULL) {
		free(seg);
		free(scratch);
		return -1;
	}
	if (min < 1)
		min = 1;
	seg[nseg++] = 0;
	seg[nseg++] = n;
	while (nseg > 0 && k + 1 < max) {
		size_t to = seg[--nseg], from = seg[--nseg], end;
		int on = (from & SEG_ON) != 0;	/* a failed split's side */
		from &= ~SEG_ON;
		size_t len = to - from;
		if (len < 2 * min)
			continue;
		size_t a = best_split(x + from, len, min, scratch);
		struct cpoint c;
		if (a == 0 || (c.p = ttest(x + from, a, len, &c, scratch)) >= pmax) {
			/*
			 * No one split: a bump, inside against outside, at pmax
			 * over the pairs of ends it was chosen among (about
			 * len^2 / 2), so that noise does not pass for one.
			 */
			size_t split = a;
			if (on || len < 3 * min || (a = best_pair(x + from, len, min, scratch,
			    &end)) == 0 || end + min > len || ttest_in(x + from, len, a,
			    end, &c, scratch, 1) >= pmax / ((double)len * (double)len / 2)) {
				/* nothing here, but where E-divisive split it (a
				 * change of spread, say) the two sides are searched
				 * on, once: a step within one of them must not go
				 * unseen, and a search of every split that fails
				 * would cost a year of nights three times the time */
				if (!on && split >= 2 * min && len - split >= 2 * min &&
				    nseg + 4 <= 2 * (n + 1)) {
					seg[nseg++] = from | SEG_ON;
					seg[nseg++] = from + split;
					seg[nseg++] = (from + split) | SEG_ON;
					seg[nseg++] = to;
				}
				continue;
			}
			out[k] = c;
			out[k++].at = from + end;
			seg[nseg++] = from + a;
			seg[nseg++] = from + end;
			seg[nseg++] = from + end;
			seg[nseg++] = to;
			to = from + a;
		}
		c.at = from + a;
		out[k++] = c;
		seg[nseg++] = from;
		seg[nseg++] = c.at;
		if (to > c.at) {
			seg[nseg++] = c.at;
			seg[nseg++] = to;
		}
	}
	free(seg);
	qsort(out, k, sizeof *out, by_at);
	k = revalidate(x, n, pmax, out, k, scratch);
	free(scratch);
	return (long)k;
}

double
cpoint_test(const double *x, size_t a, size_t n, struct cpoint *c)
{
	c->at = a;
	c->before = c->after = c->lo = c->hi = NAN;
	double *buf = a > 0 && a < n && n > 2 ? malloc(2 * (n + 1) * sizeof *buf) : NULL;
	c->p = buf ? ttest(x, a, n, c, buf) : NAN;
	free(buf);
	return c->p;
}
