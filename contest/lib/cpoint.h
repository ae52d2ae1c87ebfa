/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Change points of a series, as Hunter and Apache Otava find them in
 * nightly performance data: E-divisive means (Matteson and James, 2014,
 * with alpha 1) proposes where a segment splits, a two-sample t-test
 * between the two sides decides whether it does, and the split
 * sides are searched again.  Where no one split passes, a rise and the
 * fall that undoes it (a bump) is looked for with E-divisive's end as
 * well, inside against outside, its threshold divided by the pairs of
 * ends it was chosen among.  At the end each change point is tested
 * against its neighbours' segments once more and the weakest that no
 * longer passes is dropped, until all pass.  Deterministic: no
 * permutation test.  The test is Welch's, so that noise that grew or
 * shrank does not hide a change in the mean, and a point far off its
 * side's median is left out of it, so that one bad night does not; a
 * split that fails is searched on either side all the same.
 */
#ifndef CONTEST_CPOINT_H
#define CONTEST_CPOINT_H

#include <stddef.h>

#define CPOINT_P	0.001	/* the t-test's threshold, as Otava's default */
#define CPOINT_MIN	3	/* points each side of a change, at least */
/* a point this many robust standard deviations from its side's median is
 * left out of the test between the sides, in a side of CPOINT_OUT_N
 * points or more, one in CPOINT_OUT_N at most */
#define CPOINT_OUT	5
#define CPOINT_OUT_N	10
/* a side of fewer points takes the pooled spread in the test, not its own */
#define CPOINT_OWN	6

struct cpoint {
	size_t	 at;		/* the first point after the change */
	double	 p;		/* the t-test between the segments either side */
	double	 before, after;	/* those segments' means */
	size_t	 nbefore, nafter;
	double	 lo, hi;	/* CI95 of after - before (Welch's) */
	size_t	 nout, out;	/* points left out as outliers; the first */
};

/*
 * The change points of x[0..n) (every one finite), at most max of them
 * into out, in order; at least min points a side, p below pmax.  Returns
 * how many, or -1 out of memory.
 */
long	cpoint_find(const double *x, size_t n, size_t min, double pmax,
	    struct cpoint *out, size_t max);

/* The t-test of x[0..a) against x[a..n) (2 points at least in all, one
 * a side): its p, the means and the CI95 of the change in c (c->at = a). */
double	cpoint_test(const double *x, size_t a, size_t n, struct cpoint *c);

#endif
