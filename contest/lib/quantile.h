/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sorting and nearest-rank quantiles: the part of the statistics that
 * needs no libm, so forktime can do without it (every library mapped
 * into a process is a cost each of its forks pays).
 */
#ifndef CONTEST_QUANTILE_H
#define CONTEST_QUANTILE_H

#include <stddef.h>

/* Sort v[0..n-1] ascending. */
void	stats_sort(double *v, size_t n);

/*
 * The q quantile (0..1) of sorted[0..n-1] by nearest rank: the smallest
 * sample with at least q of the samples at or below it.  0 when n is 0.
 */
double	stats_percentile(const double *sorted, size_t n, double q);

/* The median of sorted[0..n-1] with sorted[p] left out; NaN when none
 * is left.  Each run against the others, one sort for all of them. */
double	stats_median_without(const double *sorted, size_t n, size_t p);

/* The mean of v[0..n-1]; 0 when n is 0. */
double	stats_mean(const double *v, size_t n);

#endif
