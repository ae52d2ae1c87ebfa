/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The per-run figures' descriptions, made from FIGURES(). */
#include "config.h"

#include <stddef.h>

#include "figures.h"

const struct figure figures[FIG_N] = {
#define FIG_DESC(id, key, jt, how, dec, unit, take, agg, why) \
	[FIG_##id] = { key, jt, how, dec, unit, take, agg, why },
	FIGURES(FIG_DESC)
#undef FIG_DESC
};

int
fig_pool(enum fig_id id)
{
	static int slot[FIG_N];
	static int made;

	if (!made) {
		int n = 0;
		for (int i = 0; i < FIG_N; i++)
			slot[i] = FIG_POOLED(figures[i].agg) ? n++ : -1;
		made = 1;
	}
	return slot[id];
}
