/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <math.h>	/* NAN alone: no libm */
#include <stdlib.h>

#include "quantile.h"

/*
 * Sorting doubles without a comparison callback: a report sorts each
 * cell's figures, thousands of runs each, and qsort's indirect calls were
 * a tenth of its time.  Quicksort on the median of three, insertion sort
 * for short runs, heapsort past a depth of 2 log2 n (never quadratic).
 */
static void
insertion(double *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		double x = v[i];
		size_t j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static void
sift(double *v, size_t root, size_t n)
{
	for (size_t child; (child = 2 * root + 1) < n; root = child) {
		if (child + 1 < n && v[child + 1] > v[child])
			child++;
		if (!(v[child] > v[root]))
			return;
		double t = v[root];
		v[root] = v[child];
		v[child] = t;
	}
}

static void
heapsort_d(double *v, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift(v, i, n);
	for (size_t i = n; i-- > 1;) {
		double t = v[0];
		v[0] = v[i];
		v[i] = t;
		sift(v, 0, i);
	}
}

static void
quick(double *v, size_t n, unsigned depth)
{
	while (n > 16) {
		if (depth-- == 0) {
			heapsort_d(v, n);
			return;
		}
		double a = v[0], b = v[n / 2], c = v[n - 1];
		double pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
		size_t i = 0, j = n - 1;
		for (;;) {	/* Hoare: v[..i) <= pivot <= v(j..] */
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i >= j)
				break;
			double t = v[i];
			v[i] = v[j];
			v[j] = t;
			i++;
			j--;
		}
		size_t left = j + 1;	/* v[0..left) and v[left..n) */
		if (left < n - left) {
			quick(v, left, depth);
			v += left;
			n -= left;
		} else {
			quick(v + left, n - left, depth);
			n = left;
		}
	}
	insertion(v, n);
}

void
stats_sort(double *v, size_t n)
{
	size_t m = 0;
	unsigned depth = 0;

	/* NaN has no place among numbers: they go last, in no order */
	for (size_t i = 0; i < n; i++)
		if (v[i] == v[i]) {
			double t = v[m];
			v[m++] = v[i];
			v[i] = t;
		}
	for (size_t k = m; k > 1; k >>= 1)
		depth += 2;
	quick(v, m, depth);
}

double
stats_percentile(const double *sorted, size_t n, double q)
{
	if (n == 0)
		return 0;
	/* the rank ceil(q * n), 1-based, without ceil(3) */
	double want = q * (double)n;
	size_t rank = (size_t)want;

	if ((double)rank < want - 1e-9)
		rank++;
	return sorted[rank == 0 ? 0 : rank - 1 < n ? rank - 1 : n - 1];
}

double
stats_median_without(const double *a, size_t k, size_t p)
{
	size_t n = k - 1;

	if (k < 2)
		return NAN;
#define AT(j)	a[(j) < p ? (j) : (j) + 1]
	return n % 2 ? AT(n / 2) : (AT(n / 2 - 1) + AT(n / 2)) / 2;
#undef AT
}

double
stats_mean(const double *v, size_t n)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return n ? sum / (double)n : 0;
}
