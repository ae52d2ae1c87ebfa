/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "quantile.h"
#include "stats.h"
#include "suspect.h"

/* Measured runs by cell, then by time. */
struct gw {
	size_t	 group, i;
	double	 wall;
};

static int
by_group_wall(const void *pa, const void *pb)
{
	const struct gw *a = pa, *b = pb;

	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	return a->wall < b->wall ? -1 : a->wall > b->wall;
}

/* The median of the measured runs after r[first] of its own cell (its
 * load, sweep values, variant and build), or with same 0 of its sweep
 * values, every load's; in buf (n + 1 room); *k: how many; NaN for none. */
static double
rest_median(const struct srun *r, size_t n, size_t first, int same, double *buf,
    size_t *k)
{
	*k = 0;
	for (size_t i = first + 1; i < n; i++)
		if (r[i].measured && (same ? r[i].cell == r[first].cell :
		    r[i].sweep == r[first].sweep))
			buf[(*k)++] = r[i].wall;
	if (*k == 0)
		return NAN;
	stats_sort(buf, *k);
	return *k % 2 ? buf[*k / 2] : (buf[*k / 2 - 1] + buf[*k / 2]) / 2;
}

/*
 * Each run against the median of the others of its group: one sort of
 * the session's runs, then each median with one run left out read off
 * the sorted group (a session of 50,000 runs is as cheap as one of 50).
 */
size_t
suspect_mark(const struct srun *r, size_t n, struct sflag *out)
{
	size_t marked = 0, m = 0;

	memset(out, 0, n * sizeof *out);
	if (n < 2)
		return 0;
	double *buf = calloc(n + 1, sizeof *buf);
	struct gw *g = calloc(n + 1, sizeof *g);
	if (buf == NULL || g == NULL) {
		free(buf);
		free(g);
		return 0;
	}
	/* the first measured run against the session's other measured runs
	 * of its own cell: a heavy load is five times no_load and more, and
	 * a session that began with it did nothing wrong.  Only where its
	 * cell ran once (-n 1: the first is no_load, which no load speeds up)
	 * against every load's of its sweep values.  A warmup is there to take
	 * the cold start, and is never evidence against the runs after it */
	size_t first = 0, k = 0;
	while (first < n && !r[first].measured)
		first++;
	double rest = first < n ? rest_median(r, n, first, 1, buf, &k) : NAN;
	if (first < n && k == 0)
		rest = rest_median(r, n, first, 0, buf, &k);
	if (k && r[first].wall > SUSPECT_FACTOR * rest && r[first].wall >= SUSPECT_MIN_S)
		for (size_t i = first + 1; i < n; i++)
			if (r[i].measured) {
				out[i].why |= SUSPECT_AFTER;
				out[i].ref = r[first].wall;
			}
	for (size_t i = 0; i < n; i++)
		if (r[i].measured)
			g[m++] = (struct gw){ r[i].cell, i, r[i].wall };
	qsort(g, m, sizeof *g, by_group_wall);
	for (size_t a = 0, b; a < m; a = b) {
		for (b = a; b < m && g[b].group == g[a].group; b++)
			buf[b - a] = g[b].wall;
		for (size_t p = a; p < b; p++) {
			size_t i = g[p].i;
			double others = stats_median_without(buf, b - a, p - a);
			if (!isnan(others) && r[i].wall * SUSPECT_FACTOR < others &&
			    others >= SUSPECT_MIN_S) {
				out[i].why |= SUSPECT_SHORT;
				if (!(out[i].why & SUSPECT_AFTER))
					out[i].ref = others;
			}
		}
	}
	for (size_t i = 0; i < n; i++)
		if (r[i].measured && out[i].why)
			marked++;
	free(buf);
	free(g);
	return marked;
}

void
suspect_note(FILE *f, const char *block, const char *row,
    const struct suspect *s, size_t n, int kept)
{
	if (n == 0)
		return;
	fprintf(f, "%s: %s: ", block, row);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%srun %ld (%.2f s, ", i ? ", " : "", s[i].runno, s[i].wall);
		if (s[i].flag.why & SUSPECT_AFTER)
			fprintf(f, "after a first run of %.2f s", s[i].flag.ref);
		else
			fprintf(f, "under 1/%d of the others' %.2f s", SUSPECT_FACTOR,
			    s[i].flag.ref);
		fputc(')', f);
	}
	fprintf(f, " may have done no work, %s: does the job need a --prepare "
	    "step that undoes it?\n", kept ? "kept in the means (--keep-suspect)" :
	    "left out of the means");
}

double
suspect_warmup(const struct srun *r, size_t n, double *median)
{
	size_t k;

	*median = NAN;
	if (n < 2 || r[0].measured)
		return NAN;
	double *buf = calloc(n + 1, sizeof *buf);
	if (buf == NULL)
		return NAN;
	/* the warmup against the measured runs of its own sweep values */
	*median = rest_median(r, n, 0, 0, buf, &k);
	free(buf);
	return k && r[0].wall > SUSPECT_FACTOR * *median &&
	    r[0].wall >= SUSPECT_MIN_S ? r[0].wall : NAN;
}
