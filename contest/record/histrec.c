/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A latency histogram as results store it (histrec.h). */
#include "config.h"

#include <math.h>

#include "histrec.h"
#include "json.h"

const char *const hist_keys[HK_N] = {
#define HK_NAME_OF(id, key) [HK_##id] = key,
	HIST_KEYS(HK_NAME_OF)
#undef HK_NAME_OF
};

void
hist_json(struct json *j, const struct hist *h)
{
	static const struct { int key; double q; } pct[] = {
		{ HK_P50, 0.50 }, { HK_P90, 0.90 }, { HK_P99, 0.99 },
		{ HK_P999, 0.999 },
	};

	json_kuint(j, HK_NAME(SAMPLES), hist_total(h));
	for (size_t i = 0; i < sizeof pct / sizeof pct[0]; i++)
		json_knum(j, hist_keys[pct[i].key], hist_quantile(h, pct[i].q) / 1e3, 3);
	json_knum(j, HK_NAME(MIN_US), h->max ? (double)h->min / 1e3 : NAN, 3);
	json_knum(j, HK_NAME(MAX_US), h->max ? (double)h->max / 1e3 : NAN, 3);
	json_knum(j, HK_NAME(PRECISION_PCT), hist_precision(h->sub) * 100, 2);
}

void
hist_json_raw(struct json *j, const struct hist *h)
{
	size_t lo, hi = hist_span(h, &lo);

	json_kuint(j, HK_NAME(SUB), h->sub);
	json_key(j, HK_NAME(NS));
	json_arr_begin(j);
	for (size_t b = lo; b < hi; b++) {
		if (h->count[b - lo] == 0)
			continue;
		json_arr_begin(j);
		json_uint(j, hist_floor(b, h->sub));
		json_uint(j, h->count[b - lo]);
		json_arr_end(j);
	}
	json_arr_end(j);
}
