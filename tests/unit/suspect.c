/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdlib.h>

#include "stats.h"
#include "suspect.h"
#include "tap.h"

/* The flags as a string: '.' clean, 's' short, 'a' after, 'b' both. */
static const char *
marks(const struct srun *r, size_t n, size_t *count)
{
	static char buf[64];
	struct sflag f[32];

	*count = suspect_mark(r, n, f);
	for (size_t i = 0; i < n; i++)
		buf[i] = ".sab"[f[i].why & 3];
	buf[n] = '\0';
	return buf;
}

/* no_load, load in rounds; a steady job */
static const struct srun steady[] = {
	{ 0, 0, 2.0, 1 }, { 1, 0, 2.1, 1 }, { 0, 0, 1.9, 1 }, { 1, 0, 2.2, 1 },
};

static void
check_first_run(void)
{
	size_t n;

	is_str(marks(steady, 4, &n), "....", "a steady job: nothing");
	ok(n == 0, "and none counted");

	/* the stand-in tree without a clean step: only the first run builds */
	static const struct srun once[] = {
		{ 0, 0, 2.0, 1 }, { 1, 0, 0.03, 1 }, { 0, 0, 0.02, 1 }, { 1, 0, 0.03, 1 },
	};
	is_str(marks(once, 4, &n), ".aba", "a first run 5x the rest marks all after it");
	ok(n == 3, "three measured runs marked");
	struct sflag f[8];
	suspect_mark(once, 4, f);
	is_num(f[1].ref, 2.0, 0, "the reference is the first run's time");

	/* a warmup did the work: every measured run did nothing */
	static const struct srun warm[] = {
		{ 0, 0, 2.0, 0 }, { 1, 0, 2.0, 0 }, { 0, 0, 0.02, 1 }, { 1, 0, 0.03, 1 },
		{ 0, 0, 0.02, 1 }, { 1, 0, 0.03, 1 },
	};
	/* a warmup is never evidence against the measured runs: said only */
	is_str(marks(warm, 6, &n), "......", "a warmup five times the rest marks nothing");
	double med;
	is_num(suspect_warmup(warm, 6, &med), 2.0, 0, "the warmup that dwarfs the measured runs is named");
	is_num(med, 0.025, 1e-12, "against their median");
	/* a cold warmup, then a first measured run that did the work */
	static const struct srun cold[] = {
		{ 0, 0, 9.0, 0 }, { 1, 0, 9.5, 0 }, { 0, 0, 2.0, 1 }, { 1, 0, 0.03, 1 },
		{ 0, 0, 0.02, 1 }, { 1, 0, 0.03, 1 },
	};
	is_str(marks(cold, 6, &n), "...aba", "the first measured run 5x the measured rest marks all after it");
	ok(n == 3, "three measured runs marked");
	ok(isnan(suspect_warmup(steady, 4, &med)), "no warmup: nothing to say");
	static const struct srun warm_ok[] = {
		{ 0, 0, 2.4, 0 }, { 1, 0, 2.0, 0 }, { 0, 0, 2.0, 1 }, { 1, 0, 2.1, 1 },
	};
	ok(isnan(suspect_warmup(warm_ok, 4, &med)), "a warmup a little slower: nothing to say");
}

static void
check_within_cells(void)
{
	size_t n;
	struct sflag f[8];
	/* a load that makes the job six times slower is a result, not a doubt */
	static const struct srun slow[] = {
		{ 0, 0, 1.0, 1 }, { 1, 0, 6.0, 1 }, { 0, 0, 1.0, 1 }, { 1, 0, 6.5, 1 },
		{ 0, 0, 1.1, 1 }, { 1, 0, 6.2, 1 },
	};
	is_str(marks(slow, 6, &n), "......", "a real ratio of 6 between loads");
	/* rounds rotate: a session may begin with io_load at 7x no_load */
	static const struct srun heavy_first[] = {
		{ 1, 0, 7.0, 1 }, { 0, 0, 1.0, 1 }, { 0, 0, 1.0, 1 }, { 1, 0, 7.2, 1 },
		{ 1, 0, 6.9, 1 }, { 0, 0, 1.1, 1 }, { 0, 0, 0.9, 1 }, { 1, 0, 7.1, 1 },
	};
	is_str(marks(heavy_first, 8, &n), "........",
	    "a first run of a load 7x no_load is held against its own load only");
	/* -n 1: its cell ran once, so the first run is held against every load's */
	static const struct srun once_each[] = {
		{ 0, 0, 2.0, 1 }, { 1, 0, 0.03, 1 }, { 2, 0, 0.03, 1 },
	};
	is_str(marks(once_each, 3, &n), ".aa", "a cell that ran once: its first run against every load's");

	/* one run of a load that did nothing, within its own load */
	static const struct srun one[] = {
		{ 0, 0, 1.0, 1 }, { 1, 0, 1.2, 1 }, { 0, 0, 1.0, 1 }, { 1, 0, 0.1, 1 },
		{ 0, 0, 1.1, 1 }, { 1, 0, 1.3, 1 },
	};
	is_str(marks(one, 6, &n), "...s..", "a run under 1/5 of its load's others");
	suspect_mark(one, 6, f);
	is_num(f[3].ref, 1.25, 1e-12, "the reference is the others' median");

	/* exactly 5x is not over 5x */
	static const struct srun edge[] = { { 0, 0, 5.0, 1 }, { 0, 0, 1.0, 1 } };
	is_str(marks(edge, 2, &n), "..", "5x exactly is not suspect");

	is_str(marks(steady, 1, &n), ".", "one run alone: nothing to compare");

	/* `true`: 20 ms cold, 1 ms warm; no job that short did no work */
	static const struct srun tiny[] = {
		{ 0, 0, 0.02, 0 }, { 1, 0, 0.001, 0 }, { 0, 0, 0.001, 1 }, { 1, 0, 0.0009, 1 },
		{ 0, 0, 0.0002, 1 }, { 1, 0, 0.001, 1 },
	};
	is_str(marks(tiny, 6, &n), "......", "a job of milliseconds: nothing");

	/* a sweep's cells (make -j1 and -j8) differ eightfold: neither the
	 * first run nor a fast cell is held against the other cell */
	static const struct srun sweep[] = {
		{ 0, 0, 1.6, 0 }, { 1, 0, 1.7, 0 }, { 2, 1, 0.2, 0 }, { 3, 1, 0.21, 0 },
		{ 0, 0, 1.6, 1 }, { 1, 0, 1.65, 1 }, { 2, 1, 0.2, 1 }, { 3, 1, 0.22, 1 },
		{ 0, 0, 1.61, 1 }, { 1, 0, 1.7, 1 }, { 2, 1, 0.19, 1 }, { 3, 1, 0.2, 1 },
	};
	is_str(marks(sweep, 12, &n), "............", "two sweep cells 8x apart: nothing");
	/* the first cell's first run built, the rest did nothing, in both cells */
	static const struct srun sweep_once[] = {
		{ 0, 0, 1.6, 1 }, { 1, 0, 0.02, 1 }, { 2, 1, 0.02, 1 }, { 3, 1, 0.02, 1 },
		{ 0, 0, 0.02, 1 }, { 1, 0, 0.02, 1 }, { 2, 1, 0.02, 1 }, { 3, 1, 0.02, 1 },
	};
	is_str(marks(sweep_once, 8, &n), ".aaabaaa", "a first run 5x its own cell's others: all after it");
}

static void
check_random(void)
{
	/* The sorted, leave-one-out medians against the definition itself
	 * (each run's others gathered and sorted), on sessions of random
	 * times over 4 cells in 2 sweep cells with warmups, a slow first run and ties. */
	int same = 1;
	srand(7);
	for (int trial = 0; trial < 40 && same; trial++) {
		size_t m = 2 + (size_t)(rand() % 120);
		static struct srun rr[200];
		static struct sflag got[200];
		for (size_t i = 0; i < m; i++) {
			rr[i].cell = (size_t)(rand() % 4);
			rr[i].sweep = rr[i].cell / 2;	/* two loads in each of two sweep cells */
			rr[i].measured = i >= 4 || rand() % 2;
			/* ties, runs that did nothing, and now and then a slow first */
			rr[i].wall = rand() % 5 == 0 ? 0.01 * (rand() % 3 + 1) :
			    1.0 + (rand() % 10) / 10.0;
			if (trial % 4 == 1)	/* a job of milliseconds */
				rr[i].wall /= 10;
		}
		if (trial % 3 == 0)
			rr[0].wall = 40;
		if (trial % 3 == 1)	/* a slow first measured run */
			rr[4].wall = 40;
		size_t k = suspect_mark(rr, m, got), want = 0;
		for (size_t i = 0; i < m; i++) {
			double buf[200], rest;
			size_t nb = 0;
			size_t f0 = 0;
			while (f0 < m && !rr[f0].measured)
				f0++;
			/* its own cell's, or its sweep cell's where it ran once */
			for (size_t j = f0 + 1; j < m; j++)
				if (rr[j].measured && rr[j].cell == rr[f0].cell)
					buf[nb++] = rr[j].wall;
			int own = nb > 0;
			for (size_t j = f0 + 1; !own && j < m; j++)
				if (rr[j].measured && rr[j].sweep == rr[f0].sweep)
					buf[nb++] = rr[j].wall;
			stats_sort(buf, nb);
			rest = nb == 0 ? -1 : nb % 2 ? buf[nb / 2] :
			    (buf[nb / 2 - 1] + buf[nb / 2]) / 2;
			unsigned char why = i > f0 && rr[i].measured && rest >= 0 &&
			    rr[f0].wall > SUSPECT_FACTOR * rest &&
			    rr[f0].wall >= SUSPECT_MIN_S ? SUSPECT_AFTER : 0;
			nb = 0;
			for (size_t j = 0; j < m; j++)
				if (j != i && rr[j].measured && rr[j].cell == rr[i].cell)
					buf[nb++] = rr[j].wall;
			stats_sort(buf, nb);
			if (rr[i].measured && nb) {
				double o = nb % 2 ? buf[nb / 2] : (buf[nb / 2 - 1] + buf[nb / 2]) / 2;
				if (rr[i].wall * SUSPECT_FACTOR < o && o >= SUSPECT_MIN_S)
					why |= SUSPECT_SHORT;
			}
			if (got[i].why != why)
				same = 0;
			want += rr[i].measured && why;
		}
		if (k != want)
			same = 0;
	}
	ok(same, "40 random sessions: every flag as the definition gives it");
}

int
main(void)
{
	check_first_run();
	check_within_cells();
	check_random();
	return tap_done();
}
