/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The per-run figures' descriptions, made from FIGURES(). */
#include "config.h"

#include <stddef.h>

#include "figures.h"

#define FIG_KEY_DEF(id, key, ...) const char fig_key_##id[] = key;
FIGURES(FIG_KEY_DEF)
#undef FIG_KEY_DEF

const struct figure figures[FIG_N] = {
#define FIG_DESC(id, key, jt, how, dec, unit, take, agg, why) \
	[FIG_##id] = { fig_key_##id, jt, how, dec, unit, take, agg, why },
	FIGURES(FIG_DESC)
#undef FIG_DESC
};

const signed char fig_slot[FIG_N] = {
#define FIG_SLOT(id, key, jt, how, dec, unit, take, agg, ...) \
	[FIG_##id] = FIG_POOLED(agg) ? FIG_BEFORE_##id : -1,
	FIGURES(FIG_SLOT)
#undef FIG_SLOT
};
