/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Change points: steps found where they are, none in noise alone. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "cpoint.h"
#include "tap.h"

/* A reproducible standard normal: an LCG through Box-Muller. */
static uint64_t seed = 42;
static double
unif(void)
{
	seed = seed * 6364136223846793005ull + 1442695040888963407ull;
	return ((double)(seed >> 11) + 0.5) / 9007199254740992.0;
}
static double
gauss(void)
{
	return sqrt(-2 * log(unif())) * cos(6.283185307179586 * unif());
}

/* n points of mean 100, sd 2 (2% noise), plus step from each at[i] on. */
static void
series(double *x, size_t n, const size_t *at, const double *step, size_t k)
{
	for (size_t i = 0; i < n; i++) {
		x[i] = 100 + 2 * gauss();
		for (size_t j = 0; j < k; j++)
			if (i >= at[j])
				x[i] += step[j];
	}
}

static double x[400];
static struct cpoint cp[32];

static void
check_steps(void)
{
	long k;

	/* noise alone, 200 series: a false change point in at most 5% */
	size_t falsely = 0;
	for (int r = 0; r < 200; r++) {
		series(x, 60, NULL, NULL, 0);
		falsely += cpoint_find(x, 60, CPOINT_MIN, CPOINT_P, cp, 32) > 0;
	}
	ok(falsely <= 10, "noise alone: a change point in %zu of 200 series", falsely);

	/* one 3-sigma step (6%) at 30 of 60 */
	size_t at1[] = { 30 };
	double up[] = { 6 };
	series(x, 60, at1, up, 1);
	k = cpoint_find(x, 60, CPOINT_MIN, CPOINT_P, cp, 32);
	ok(k == 1 && cp[0].at == 30, "a step at 30: found at %zu (%ld found)",
	    k > 0 ? cp[0].at : 0, k);
	ok(k == 1 && cp[0].after - cp[0].before > 4 && cp[0].lo > 0 &&
	    cp[0].hi > cp[0].lo && cp[0].p < CPOINT_P && cp[0].nbefore == 30 &&
	    cp[0].nafter == 30, "its means, CI95 and p (%.2f -> %.2f, %.3g)",
	    cp[0].before, cp[0].after, cp[0].p);

	/* two steps, up then down, 20 points apart */
	size_t at2[] = { 20, 40 };
	double ud[] = { 8, -8 };
	series(x, 60, at2, ud, 2);
	k = cpoint_find(x, 60, CPOINT_MIN, CPOINT_P, cp, 32);
	ok(k == 2 && cp[0].at == 20 && cp[1].at == 40,
	    "a step up at 20 and down at 40: %ld found, at %zu and %zu", k,
	    k > 0 ? cp[0].at : 0, k > 1 ? cp[1].at : 0);

	/* a bump in 30 nights: no one split of the whole passes, inside
	 * against outside does */
	size_t atb[] = { 10, 21 };
	double bump[] = { 8, -8 };
	series(x, 30, atb, bump, 2);
	k = cpoint_find(x, 30, CPOINT_MIN, CPOINT_P, cp, 32);
	ok(k == 2 && cp[0].at + 1 >= 10 && cp[0].at <= 11 && cp[1].at + 1 >= 21 &&
	    cp[1].at <= 22, "a 4-sigma bump from 10 to 21 of 30: %ld found, at %zu "
	    "and %zu", k, k > 0 ? cp[0].at : 0, k > 1 ? cp[1].at : 0);

	/* a step 5 points before the end, within a point */
	size_t at3[] = { 55 };
	double big[] = { 10 };
	series(x, 60, at3, big, 1);
	k = cpoint_find(x, 60, CPOINT_MIN, CPOINT_P, cp, 32);
	ok(k == 1 && cp[0].at >= 54 && cp[0].at <= 56,
	    "a 5-sigma step with 5 points after it: at %zu", k > 0 ? cp[0].at : 0);

}

static void
check_edges(void)
{
	long k;

	/* no noise: a step anywhere is the change, exactly */
	for (size_t i = 0; i < 20; i++)
		x[i] = i < 7 ? 10 : 12;
	k = cpoint_find(x, 20, CPOINT_MIN, CPOINT_P, cp, 32);
	ok(k == 1 && cp[0].at == 7 && cp[0].p == 0 && cp[0].lo == 2,
	    "a noiseless step: at 7, p 0, the change exactly 2");
	for (size_t i = 0; i < 20; i++)
		x[i] = 10;
	ok(cpoint_find(x, 20, CPOINT_MIN, CPOINT_P, cp, 32) == 0,
	    "a constant series: none");

	/* fewer points a side than asked: the nearest split allowed, or
	 * none where the side it makes does not pass */
	for (size_t i = 0; i < 20; i++)
		x[i] = i < 2 ? 10 : 12;
	k = cpoint_find(x, 20, CPOINT_MIN, CPOINT_P, cp, 32);
	ok(k == 1 && cp[0].at == 3, "a step 2 points from the start, at least 3 "
	    "a side: at 3 (%ld found)", k);
	x[1] = 12;
	ok(cpoint_find(x, 20, CPOINT_MIN, CPOINT_P, cp, 32) == 0,
	    "one point off at the start, at least 3 a side: none");
	ok(cpoint_find(x, 5, CPOINT_MIN, CPOINT_P, cp, 32) == 0 &&
	    cpoint_find(x, 0, CPOINT_MIN, CPOINT_P, cp, 32) == 0,
	    "a series too short for two sides: none");

}

static void
check_year(void)
{
	long k;

	/* a year of nights with a drift of 0.1% a night and a step: the
	 * step is found, and the drift is not one change but some */
	size_t at4[] = { 200 };
	double s4[] = { 6 };
	series(x, 365, at4, s4, 1);
	k = cpoint_find(x, 365, CPOINT_MIN, CPOINT_P, cp, 32);
	int found = 0;
	for (long i = 0; i < k; i++)
		found |= cp[i].at >= 199 && cp[i].at <= 201;
	ok(found, "a step at 200 of 365: found (%ld change points)", k);
}

int
main(void)
{
	check_steps();
	check_edges();
	check_year();
	return tap_done();
}
