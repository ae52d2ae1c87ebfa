/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <math.h>

#include "hist.h"

/* floor(log2(v)), 0 for 0: a report takes it of every bucket of every
 * run's histogram. */
static unsigned
log2u(unsigned long long v)
{
#if defined(__GNUC__)
	return v ? 63u - (unsigned)__builtin_clzll(v) : 0;
#else
	unsigned e = 0;

	while (v >>= 1)
		e++;
	return e;
#endif
}

size_t
hist_nbuckets(unsigned sub)
{
	unsigned s = log2u(sub);

	return 2 * (size_t)sub + (size_t)(HIST_TOP_LOG2 - (s + 1) + 1) * sub;
}

size_t
hist_index(unsigned long long v, unsigned sub)
{
	unsigned s = log2u(sub);

	if (v < 2ULL * sub)
		return (size_t)v;
	unsigned e = log2u(v);
	if (e >= HIST_TOP_LOG2)
		return hist_nbuckets(sub) - 1;
	/* e >= s + 1: the top s + 1 bits pick the bucket */
	unsigned long long m = v >> (e - s);	/* in [sub, 2 sub) */
	return 2 * (size_t)sub + (size_t)(e - s - 1) * sub + (size_t)(m - sub);
}

unsigned long long
hist_floor(size_t i, unsigned sub)
{
	unsigned s = log2u(sub);

	if (i < 2 * (size_t)sub)
		return i;
	size_t k = i - 2 * (size_t)sub;
	unsigned e = (unsigned)(k / sub) + s + 1;
	return (unsigned long long)(sub + k % sub) << (e - s);
}

unsigned long long
hist_width(size_t i, unsigned sub)
{
	if (i < 2 * (size_t)sub)
		return 1;
	return 1ULL << ((unsigned)((i - 2 * (size_t)sub) / sub) + 1);
}

double
hist_precision(unsigned sub)
{
	return 1.0 / (2.0 * sub);
}

size_t
hist_span(const struct hist *h, size_t *lo)
{
	*lo = h->n ? h->lo : 0;
	return h->n ? h->lo + h->n : hist_nbuckets(h->sub);
}

unsigned long long
hist_total(const struct hist *h)
{
	unsigned long long n = 0;
	size_t lo, hi = hist_span(h, &lo);

	for (size_t i = lo; i < hi; i++)
		n += h->count[i - lo];
	return n;
}

/* A percentile's value: its bucket's midpoint, within the exact extremes
 * when they are known (max 0: not known). */
static double
bucket_value(size_t i, unsigned sub, unsigned long long min, unsigned long long max)
{
	double v = (double)hist_floor(i, sub) + (double)(hist_width(i, sub) - 1) / 2;

	if (max) {
		if (v < (double)min)
			v = (double)min;
		if (v > (double)max)
			v = (double)max;
	}
	return v;
}

double
hist_quantile(const struct hist *h, double q)
{
	unsigned long long total = hist_total(h), seen = 0;
	size_t nb = hist_nbuckets(h->sub);

	if (total == 0)
		return 0;
	if (q <= 0 && h->max)
		return (double)h->min;
	if (q >= 1 && h->max)
		return (double)h->max;
	/* nearest rank: the smallest bucket whose cumulative count reaches
	 * ceil(q * total) */
	double want = q * (double)total;
	size_t lo, hi = hist_span(h, &lo);
	for (size_t i = lo; i < hi; i++) {
		seen += h->count[i - lo];
		if (h->count[i - lo] == 0 || (double)seen < want)
			continue;
		return bucket_value(i, h->sub, h->min, h->max);
	}
	return h->max ? (double)h->max : (double)hist_floor(nb - 1, h->sub);
}

double
hist_quantile_pairs(const unsigned long long *pair, size_t n, unsigned sub,
    unsigned long long min, unsigned long long max, double q)
{
	unsigned long long total = 0, seen = 0;
	size_t prev = 0;

	for (size_t k = 0; k < n; k++) {
		size_t i = hist_index(pair[2 * k], sub);
		if (k && i <= prev)
			return NAN;	/* not in bucket order: not for this walk */
		prev = i;
		total += pair[2 * k + 1];
	}
	if (total == 0 || q <= 0 || q >= 1)
		return NAN;
	double want = q * (double)total;
	for (size_t k = 0; k < n; k++) {
		seen += pair[2 * k + 1];
		if (pair[2 * k + 1] && (double)seen >= want)
			return bucket_value(hist_index(pair[2 * k], sub), sub, min, max);
	}
	return NAN;
}

void
hist_shared_add(struct hist_shared *h, unsigned long long v)
{
	unsigned long long x;

	atomic_fetch_add_explicit(&h->count[hist_index(v, HIST_SUB)], 1,
	    memory_order_relaxed);
	/* A failed exchange reloads x: retry only while v still beats it. */
	x = atomic_load_explicit(&h->min, memory_order_relaxed);
	while (v < x && !atomic_compare_exchange_weak_explicit(&h->min, &x, v,
	    memory_order_relaxed, memory_order_relaxed))
		;
	x = atomic_load_explicit(&h->max, memory_order_relaxed);
	while (v > x && !atomic_compare_exchange_weak_explicit(&h->max, &x, v,
	    memory_order_relaxed, memory_order_relaxed))
		;
}

void
hist_shared_restart(struct hist_shared *h)
{
	atomic_store(&h->min, ~0ULL);
	atomic_store(&h->max, 0);
}

void
hist_shared_read(struct hist_shared *h, unsigned long long *count,
    unsigned long long *min, unsigned long long *max)
{
	for (size_t i = 0; i < HIST_BUCKETS; i++)
		count[i] = atomic_load(&h->count[i]);
	*min = atomic_load(&h->min);
	*max = atomic_load(&h->max);
}
