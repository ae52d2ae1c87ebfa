/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The latency histogram: its layout, and percentiles within 3% of the
 * exact ones on known samples, min and max exact. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "histrec.h"
#include "quantile.h"
#include "tap.h"

#define NS 200000

static unsigned long long count[HIST_BUCKETS];
static double sample[NS];

/* A fixed generator: the same samples on every machine. */
static unsigned long long rng = 88172645463325252ULL;
static double
uniform01(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}

/* Fill the histogram with n samples; check p1..p99.9, min and max. */
static void
check(const char *what, size_t n)
{
	static const double q[] = { 0.01, 0.10, 0.25, 0.50, 0.75, 0.90, 0.99, 0.999 };
	struct hist h = { HIST_SUB, count, ~0ULL, 0, 0, 0 };
	double worst = 0;

	memset(count, 0, sizeof count);
	for (size_t i = 0; i < n; i++) {
		unsigned long long v = (unsigned long long)sample[i];
		sample[i] = (double)v;		/* the integer ns a load records */
		count[hist_index(v, HIST_SUB)]++;
		if (v < h.min)
			h.min = v;
		if (v > h.max)
			h.max = v;
	}
	stats_sort(sample, n);
	for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
		double exact = stats_percentile(sample, n, q[i]);
		double err = fabs(hist_quantile(&h, q[i]) - exact) / exact;
		if (err > worst)
			worst = err;
	}
	ok(worst <= 0.03, "%s: every percentile within 3%% (worst %.3f%%)", what,
	    worst * 100);
	ok(hist_quantile(&h, 0) == sample[0] && hist_quantile(&h, 1) == sample[n - 1],
	    "%s: min and max exact", what);
	ok(hist_total(&h) == n, "%s: every sample counted", what);

	/* the same histogram as the [floor, count] pairs results store */
	static unsigned long long pair[2 * HIST_BUCKETS];
	size_t np = 0;
	for (size_t i = 0; i < HIST_BUCKETS; i++)
		if (count[i]) {
			pair[2 * np] = hist_floor(i, HIST_SUB);
			pair[2 * np++ + 1] = count[i];
		}
	int same = 1;
	for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
		if (hist_quantile_pairs(pair, np, HIST_SUB, h.min, h.max, q[i]) !=
		    hist_quantile(&h, q[i]))
			same = 0;
	ok(same, "%s: the pairs give every percentile the buckets give", what);

	/* and as the window of buckets a report keeps: lo .. hi-1 */
	size_t lo = 0, hi = HIST_BUCKETS;
	while (lo < hi && count[lo] == 0)
		lo++;
	while (hi > lo && count[hi - 1] == 0)
		hi--;
	struct hist w = { HIST_SUB, count + lo, h.min, h.max, lo, hi - lo };
	same = hist_total(&w) == hist_total(&h);
	for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
		if (hist_quantile(&w, q[i]) != hist_quantile(&h, q[i]))
			same = 0;
	ok(same && lo > 0, "%s: a window of buckets %zu..%zu gives every percentile", what,
	    lo, hi - 1);
}

int
main(void)
{
	int layout = 1;

	/* every value in its own bucket, no bucket wider than 1/32 of its floor */
	for (unsigned long long v = 0; v < (1ULL << 41); v = v * 17 / 16 + 1) {
		size_t i = hist_index(v, HIST_SUB);
		unsigned long long lo = hist_floor(i, HIST_SUB), w = hist_width(i, HIST_SUB);
		if (v < (1ULL << HIST_TOP_LOG2) && (lo > v || v >= lo + w))
			layout = 0;
		if (lo >= 2 * HIST_SUB && w * HIST_SUB > lo)
			layout = 0;
		if (i >= HIST_BUCKETS)
			layout = 0;
	}
	ok(layout, "each value lies in its bucket; widths at most 1/32 of the floor");
	for (size_t i = 0; i + 1 < HIST_BUCKETS; i++)
		if (hist_floor(i, HIST_SUB) + hist_width(i, HIST_SUB) != hist_floor(i + 1, HIST_SUB))
			layout = 0;
	ok(layout, "buckets tile the line without gaps");
	ok(hist_nbuckets(HIST_SUB) == HIST_BUCKETS, "%zu buckets", hist_nbuckets(HIST_SUB));
	ok(hist_index(~0ULL, HIST_SUB) == HIST_BUCKETS - 1, "huge values share the last bucket");
	is_num(hist_precision(HIST_SUB) * 100, 1.5625, 1e-9, "stated precision 1.5625%%");

	/* schema 1's layout, four per power of two: the floors it wrote */
	static const unsigned long long v1[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20 };
	int same = 1;
	for (size_t i = 0; i < sizeof v1 / sizeof v1[0]; i++)
		if (hist_floor(i, HIST_SUB_V1) != v1[i] || hist_index(v1[i], HIST_SUB_V1) != i)
			same = 0;
	ok(same, "schema 1's layout: floors 0..7, 8, 10, 12, 14, 16, 20");
	is_num(hist_precision(HIST_SUB_V1) * 100, 12.5, 1e-9, "schema 1 precision 12.5%%");

	for (size_t i = 0; i < NS; i++)
		sample[i] = 1000 + uniform01() * 999000;	/* 1 us .. 1 ms */
	check("uniform 1 us..1 ms", NS);
	for (size_t i = 0; i < NS; i++) {	/* Box-Muller; median 80 us */
		double z = sqrt(-2 * log(uniform01())) * cos(2 * M_PI * uniform01());
		sample[i] = exp(log(80000.0) + 1.2 * z);
	}
	check("log-normal, median 80 us", NS);
	for (size_t i = 0; i < NS; i++)
		sample[i] = 123457;	/* one value, odd within its bucket */
	check("a spike at 123457 ns", NS);
	for (size_t i = 0; i < NS; i++)
		sample[i] = i < NS - 10 ? 70000 : 4e9;	/* a few huge ones */
	check("a spike and a far tail", NS);

	unsigned long long none[HIST_BUCKETS] = { 0 };
	struct hist empty = { HIST_SUB, none, 0, 0, 0, 0 };
	is_num(hist_quantile(&empty, 0.5), 0, 0, "an empty histogram: 0");
	static const unsigned long long unordered[] = { 5000, 3, 100, 4 };
	ok(isnan(hist_quantile_pairs(unordered, 2, HIST_SUB, 0, 0, 0.5)),
	    "pairs out of bucket order: NaN, for the caller to spread them");
	return tap_done();
}
