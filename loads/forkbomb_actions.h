/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * forkbomb's actions (Radim Kolar's forkbomb 1.4, 2004), shared by the
 * forkbomb program and the forkbomb load.  They count into a load_shm;
 * scratch[FB_POP] is the population the cap is checked against, and
 * scratch[FB_LIVE] the processes that really exist (zombies included),
 * whose peak is reported.  Callers set both to their starting population.
 */
#ifndef CONTEST_FORKBOMB_ACTIONS_H
#define CONTEST_FORKBOMB_ACTIONS_H

#include <stddef.h>

#include "load.h"

enum fb_counter {
	FB_REALLOCS, FB_MB_GROWN, FB_MB_TOUCHED, FB_FORKED, FB_PEAK,
	FB_FAILURES, FB_LOOPS,
};
/* scratch slots: places taken under the cap (a fork in flight holds one),
 * processes that exist, exact byte totals, reallocs refused. */
enum { FB_POP, FB_LIVE, FB_BYTES_GROWN, FB_BYTES_TOUCHED, FB_REFUSED };

extern const struct load_counter fb_counters[];

/*
 * Grow one block with realloc by inc bytes per step up to limit bytes
 * (forkbomb -m); with touch, write one byte to each page of every newly
 * added piece (-M).  *blk and *len are the block so far (NULL, 0 to
 * start).  Returns 0 at the limit, 1 if realloc refused first.
 */
int	fb_grow(struct load_ctx *, size_t limit, size_t inc, int touch,
	    unsigned char **blk, size_t *len);

/*
 * forkbomb -f: this process and every child it makes fork until fork
 * fails or the population reaches max; all of them return, each to go on
 * with the other actions.  Returns how many children this process made.
 */
unsigned fb_bomb(struct load_ctx *, long long max);

/*
 * forkbomb -z: make children that _exit at once, left unreaped, until
 * fork fails or the population reaches max.  Returns how many.
 */
unsigned fb_zombies(struct load_ctx *, long long max);

/* Reap every child of this process, lowering the population. */
void	fb_reap(struct load_ctx *);

/* forkbomb -c: burn CPU for ever; with a block, keep writing one byte per
 * page of it (-c with -M). */
void	fb_cpuhang(struct load_ctx *, unsigned char *blk, size_t len)
	    __attribute__((noreturn));

#endif
