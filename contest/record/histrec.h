/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A latency histogram as a results line and a report store it: its
 * percentiles and extremes in microseconds, and the raw buckets to
 * recompute any other from (hist_sub, hist_ns).  Results of schema 1
 * say nothing of their layout: HIST_SUB_V1 buckets per power of two,
 * no exact extremes.
 */
#ifndef CONTEST_HISTREC_H
#define CONTEST_HISTREC_H

#include "hist.h"

#define HIST_SUB_V1	4	/* schema 1's layout (12.5%) */

#define HIST_KEYS(X) \
X(SAMPLES, "samples") \
X(P50, "p50_us") \
X(P90, "p90_us") \
X(P99, "p99_us") \
X(P999, "p999_us") \
X(MIN_US, "min_us") \
X(MAX_US, "max_us") \
X(PRECISION_PCT, "precision_pct") \
X(SUB, "hist_sub") \
X(NS, "hist_ns") \
X(WHAT, "what")
enum hkey {
#define HK_ENUM(id, key) HK_##id,
	HIST_KEYS(HK_ENUM)
#undef HK_ENUM
	HK_N
};
extern const char *const hist_keys[HK_N];
#define HK_NAME(id)	(hist_keys[HK_##id])

struct json;
/* Members of a JSON object: samples, p50_us, p90_us, p99_us, p999_us,
 * min_us and max_us (null when not known), precision_pct. */
void	hist_json(struct json *, const struct hist *);
/* The raw histogram: hist_sub, and hist_ns as [bucket floor, count]
 * pairs of the buckets that counted anything. */
void	hist_json_raw(struct json *, const struct hist *);

#endif
