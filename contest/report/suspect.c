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
	/* the first run against the others of its sweep values, warmups
	 * included */
	size_t k = 0;
	for (size_t i = 1; i < n; i++)
		if (r[i].sweep == r[0].sweep)
			buf[k++] = r[i].wall;
	stats_sort(buf, k);
	double rest = k == 0 ? NAN : k % 2 ? buf[k / 2] :
	    (buf[k / 2 - 1] + buf[k / 2]) / 2;
	if (rest >= 0 && r[0].wall > SUSPECT_FACTOR * rest && r[0].wall >= SUSPECT_MIN_S)
		for (size_t i = 1; i < n; i++) {
			out[i].why |= SUSPECT_AFTER;
			out[i].ref = r[0].wall;
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
