/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Log-linear latency histograms of nanoseconds: every power of two is
 * cut into `sub` equal buckets (sub a power of two), values below 2*sub
 * get a bucket each.  A bucket's width is at most 1/sub of its floor, so
 * its midpoint is within 1/(2*sub) of any value in it: 1.6% at the
 * default 32.  How results store one is contest/record/histrec.h's.
 */
#ifndef CONTEST_HIST_H
#define CONTEST_HIST_H

#include <stdatomic.h>
#include <stddef.h>

#define HIST_SUB	32	/* sub-buckets per power of two, by default */
#define HIST_TOP_LOG2	40	/* values from 2^40 ns (18 min) share the last bucket */
/* Buckets of the default layout: 2*sub exact ones, then sub per power of
 * two from 2*sub up to 2^HIST_TOP_LOG2. */
#define HIST_BUCKETS	(2 * HIST_SUB + (HIST_TOP_LOG2 - 6 + 1) * HIST_SUB)

/* How many buckets a layout of sub has. */
size_t	hist_nbuckets(unsigned sub);
/* The bucket of value v. */
size_t	hist_index(unsigned long long v, unsigned sub);
/* The smallest value of bucket i, and how many values it holds. */
unsigned long long hist_floor(size_t i, unsigned sub);
unsigned long long hist_width(size_t i, unsigned sub);
/* The largest relative error of a percentile read as a bucket midpoint. */
double	hist_precision(unsigned sub);

/* A histogram being summarised: counts in sub's layout, and the exact
 * extremes when known (max 0: unknown). */
struct hist {
	unsigned	 sub;
	const unsigned long long *count;	/* hist_nbuckets(sub) of them */
	unsigned long long min, max;
	/* n > 0: count holds only buckets lo .. lo+n-1 (the rest are 0),
	 * as a report keeps the thousands of cells it merges */
	size_t		 lo, n;
};

/* The buckets h holds: [*lo, return), count[i - *lo] for each. */
size_t	hist_span(const struct hist *, size_t *lo);
/* Samples in it. */
unsigned long long hist_total(const struct hist *);
/*
 * The q (0..1) quantile by nearest rank: the midpoint of the bucket that
 * holds it, kept within the exact min and max when they are known; q 0
 * and 1 are min and max themselves.  0 for an empty histogram.
 */
double	hist_quantile(const struct hist *, double q);
/*
 * The same, 0 < q < 1, of a histogram given as [bucket floor, count]
 * pairs in bucket order (as results store it), without spreading it into
 * a layout's every bucket; NaN for pairs out of order, or no samples.
 */
double	hist_quantile_pairs(const unsigned long long *pair, size_t n, unsigned sub,
	    unsigned long long min, unsigned long long max, double q);

/* A histogram in memory shared by the processes that count into it (a
 * load's workers, the latency probe) and the driver that reads it. */
struct hist_shared {
	_Atomic unsigned long long count[HIST_BUCKETS];
	_Atomic unsigned long long min, max;	/* since the last restart */
};
/* Count v (ns), and keep it if it is a new extreme. */
void	hist_shared_add(struct hist_shared *, unsigned long long v);
/* Begin the extremes anew (at the job's start; and before any count). */
void	hist_shared_restart(struct hist_shared *);
/* Its counts and extremes now (max 0: nothing since the restart). */
void	hist_shared_read(struct hist_shared *, unsigned long long *count,
	    unsigned long long *min, unsigned long long *max);

#endif
