/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The runs of a noisy cell that stand out from its median, with the
 * telemetry that differed in them, and the median run of a cell's
 * per-second samples.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rset_impl.h"
#include "util.h"

/* The median of sorted s[0..n) with one x among them left out. */
static double
median_without(const double *s, size_t n, double x)
{
	size_t lo = 0, hi = n;	/* the first element not below x */

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return stats_median_without(s, n, lo);
}

/* Whether a cell may have runs that stand out: rset_outliers' test. */
static int
outlier_cell(const struct rset *rs, const struct cell_acc *a)
{
	const struct rcell *c = rset_cell(rs, a->row, a->blk);

	return c->ok >= RSET_MIN_RUNS && rcell_fig(c, FIG_WALL)->cv > RSET_NOISY_CV;
}

/*
 * The telemetry of every such cell's ok runs, read again from their
 * files in one pass over each, then put in file order.
 */
static void
read_telemetry(const struct rset *rs)
{
	struct want *w = NULL;
	size_t nw = 0, capw = 0;

	for (size_t i = 0; i < rs->nacc; i++)
		rs->acc[i].tel_read = 1;
	for (size_t i = 0; i < rs->ntimed; i++) {
		const struct timed_run *t = &rs->timed[i];
		if (t->acc == UINT32_MAX || t->out || t->failed ||
		    !outlier_cell(rs, &rs->acc[t->acc]))
			continue;
		xgrow(&w, &capw, nw + 1, sizeof *w, 8);
		w[nw++] = (struct want){ { t->file, t->line }, t->acc };
	}
	for (size_t i = 0; i < rs->nacc; i++)
		for (size_t k = 0; k < rs->acc[i].nloc && outlier_cell(rs, &rs->acc[i]); k++) {
			xgrow(&w, &capw, nw + 1, sizeof *w, 8);
			w[nw++] = (struct want){ rs->acc[i].loc[k], (uint32_t)i };
		}
	rs_read_again(rs, w, nw, rs_tel_keys(), rs_reread_line,
	    "the notes on its runs that stand out are left out");
	free(w);
	for (size_t i = 0; i < rs->nacc; i++)
		if (rs->acc[i].ntel > 1)
			qsort(rs->acc[i].tel, rs->acc[i].ntel, sizeof *rs->acc[i].tel,
			    rs_place_order);
}

size_t
rset_outliers(const struct rset *rs, size_t row, size_t blk,
    struct routlier *out, size_t max)
{
	const struct rcell *c = rset_cell(rs, row, blk);
	struct cell_acc *a = NULL;
	size_t nout = 0;

	if (c->ok < RSET_MIN_RUNS || rcell_fig(c, FIG_WALL)->cv <= RSET_NOISY_CV)
		return 0;
	for (size_t i = 0; i < rs->nacc && a == NULL; i++)
		if (rs->acc[i].row == row && rs->acc[i].blk == blk)
			a = &rs->acc[i];
	if (a == NULL)
		return 0;
	if (!a->tel_read && rs->ix->spilled)
		read_telemetry(rs);
	const struct run_tel *runs = a->tel;
	size_t n = a->ntel;
	double med = rcell_fig(c, FIG_WALL)->median;
	/* each figure's values sorted once: the others' median of a run is
	 * read off them with its own value left out */
	double *sorted[RSET_NTEL];
	size_t m[RSET_NTEL];
	for (int t = 0; t < RSET_NTEL; t++) {
		sorted[t] = xcalloc(n + 1, sizeof *sorted[t]);
		m[t] = 0;
		for (size_t k = 0; k < n; k++)
			if (!isnan(runs[k].tel[t]))
				sorted[t][m[t]++] = runs[k].tel[t];
		stats_sort(sorted[t], m[t]);
	}
	for (size_t i = 0; i < n && nout < max; i++) {
		if (fabs(runs[i].wall - med) <= RSET_NOISY_CV * med)
			continue;
		struct routlier *o = &out[nout++];
		memset(o, 0, sizeof *o);
		o->runno = runs[i].runno;
		o->wall = runs[i].wall;
		memcpy(o->value, runs[i].tel, sizeof o->value);
		o->median = med;
		double best[2] = { 0, 0 };
		for (int t = 0; t < RSET_NTEL; t++) {
			if (isnan(runs[i].tel[t]) || m[t] < 2)
				continue;
			double mine = runs[i].tel[t];
			double others = median_without(sorted[t], m[t], mine);
			/* a factor of 2 either way, and more than noise in counts */
			double lo = others < mine ? others : mine, hi = others < mine ? mine : others;
			if (hi - lo < 100 || hi < 2 * lo)
				continue;
			double score = (hi + 1) / (lo + 1);
			for (int s = 0; s < 2; s++)
				if (score > best[s]) {
					if (s == 0) {
						best[1] = best[0];
						o->tel[1] = o->tel[0];
						o->others[1] = o->others[0];
					}
					best[s] = score;
					o->tel[s] = t;
					o->others[s] = others;
					break;
				}
		}
		o->ntel = best[1] > 0 ? 2 : best[0] > 0 ? 1 : 0;
	}
	for (int t = 0; t < RSET_NTEL; t++)
		free(sorted[t]);
	return nout;
}

const struct rrun *
rset_median_series(const struct rset *rs, size_t row, size_t blk)
{
	const struct rrun **v = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < rs->nsrun; i++) {
		const struct rrun *r = &rs->srun[i];
		if (r->row != row || r->blk != blk || !r->ok || r->series == NULL)
			continue;
		xgrow(&v, &cap, n + 1, sizeof *v, 8);
		v[n++] = r;
	}
	/* insertion sort by Time: a cell holds few runs */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && rrun_fig(v[j], FIG_WALL) <
		    rrun_fig(v[j - 1], FIG_WALL); j--) {
			const struct rrun *x = v[j];
			v[j] = v[j - 1];
			v[j - 1] = x;
		}
	const struct rrun *m = n ? v[(n - 1) / 2] : NULL;
	free(v);
	return m;
}
