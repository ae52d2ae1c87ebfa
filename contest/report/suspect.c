#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "suspect.h"

/* Median of the walls of runs[i] for which take() holds, i != skip. */
static double
median_where(const struct srun *r, size_t n, size_t skip, double *buf,
    size_t group, int by_group)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (i == skip || (by_group && (!r[i].measured || r[i].group != group)))
			continue;
		buf[k++] = r[i].wall;
	}
	if (k == 0)
		return NAN;
	stats_sort(buf, k);
	return k % 2 ? buf[k / 2] : (buf[k / 2 - 1] + buf[k / 2]) / 2;
}

size_t
suspect_mark(const struct srun *r, size_t n, struct sflag *out)
{
	double *buf = calloc(n + 1, sizeof *buf);
	size_t marked = 0;

	memset(out, 0, n * sizeof *out);
	if (buf == NULL || n < 2) {
		free(buf);
		return 0;
	}
	double rest = median_where(r, n, 0, buf, 0, 0);
	if (rest >= 0 && r[0].wall > SUSPECT_FACTOR * rest)
		for (size_t i = 1; i < n; i++) {
			out[i].why |= SUSPECT_AFTER;
			out[i].ref = r[0].wall;
		}
	for (size_t i = 0; i < n; i++) {
		if (!r[i].measured)
			continue;
		double others = median_where(r, n, i, buf, r[i].group, 1);
		if (!isnan(others) && r[i].wall * SUSPECT_FACTOR < others) {
			out[i].why |= SUSPECT_SHORT;
			if (!(out[i].why & SUSPECT_AFTER))
				out[i].ref = others;
		}
		if (out[i].why)
			marked++;
	}
	free(buf);
	return marked;
}

void
suspect_note(FILE *f, const char *block, const char *row,
    const struct suspect *s, size_t n)
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
	fprintf(f, " may have done no work: does the job need a --prepare step "
	    "that undoes it?\n");
}
