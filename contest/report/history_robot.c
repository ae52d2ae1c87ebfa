/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * contest history --report: each regression as the kernel test robot
 * mails one, "-12.3% regression of X on commit Y" over a table of base
 * and new with %stddev and %change, so that it can be pasted into a mail.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report.h"
#include "util.h"

/* A figure over rows[0..n), split at a: the two sides' means and
 * %stddev, the change and its test; 0 where a side has no point. */
struct side_fig {
	double	 mean[2], cv[2], pct;
	struct cpoint t;
};

static int
side_fig(const struct rset *rs, const size_t *rows, size_t a, size_t n, size_t blk,
    int fig, struct side_fig *sf)
{
	double *x = xcalloc(n + 1, sizeof *x);
	size_t m = 0, split = 0;

	for (size_t i = 0; i < n; i++) {
		struct hpoint p;
		if (i == a)
			split = m;
		if (history_point(rs, rows[i], blk, fig, &p))
			x[m++] = p.mean;
	}
	if (a == n)
		split = m;
	int ok = split > 0 && split < m;
	for (int s = 0; ok && s < 2; s++) {
		size_t lo = s ? split : 0, hi = s ? m : split;
		struct stats st;
		stats_compute(x + lo, hi - lo, &st);
		sf->mean[s] = st.mean;
		sf->cv[s] = st.mean != 0 && hi - lo > 1 ? 100 * st.sd / fabs(st.mean) : NAN;
	}
	if (ok) {
		sf->pct = sf->mean[0] != 0 ? 100 * (sf->mean[1] - sf->mean[0]) /
		    fabs(sf->mean[0]) : NAN;
		cpoint_test(x, split, m, &sf->t);
	}
	free(x);
	return ok;
}

static void
cell(FILE *f, const struct column *k, double v, double cv, int md)
{
	char b[32];

	snprintf(b, sizeof b, "%.*f", col_mean_dec(k), col_scaled(k, v));
	if (isnan(cv))
		fprintf(f, md ? " %s | |" : " %10s        ", b);
	else
		fprintf(f, md ? " %s | ± %.1f%% |" : " %10s ± %4.1f%%", b, cv);
}

void
history_robot_block(FILE *f, const struct history *h, size_t i, size_t c, int md)
{
	const struct rset *rs = h->rs;
	const struct hseries *s = &h->s[i];
	size_t from = c ? s->cp[c - 1].at : 0, to = c + 1 < s->ncp ? s->cp[c + 1].at : s->npt;
	size_t at = s->cp[c].at, n = to - from;
	size_t *rows = xcalloc(n + 1, sizeof *rows);
	double pct, lo, hi;

	for (size_t p = 0; p < n; p++)
		rows[p] = s->pt[from + p].row;
	history_verdict(h, s, c, &pct, &lo, &hi);
	const char *before = rs->row[rows[at - from - 1]].name, *after = rs->row[rows[at - from]].name;
	fprintf(f, "%s%+.1f%% regression of %s %s at %s (from %s), %s, %s\n\n",
	    md ? "### " : "", pct, rs->blk[s->blk].name, cmp_fig(h->rs, s->fig)->head, after,
	    before, s->first->host ? s->first->host : "?",
	    s->first->command ? s->first->command : "?");
	fprintf(f, md ? "base: %s..%s (%zu), new: %s..%s (%zu); change CI95 %+.2f..%+.2f%%, "
	    "p=%.2g\n\n| base | %%stddev | %%change | new | %%stddev | |\n"
	    "|--:|--:|--:|--:|--:|---|\n" :
	    "  base: %s..%s (%zu labels), new: %s..%s (%zu); change CI95 %+.2f..%+.2f%%, "
	    "p=%.2g\n\n              base                       new\n"
	    "  ------------------          ------------------\n"
	    "        mean   %%stddev   %%change       mean   %%stddev\n",
	    rs->row[rows[0]].name, before, at - from, after, rs->row[rows[n - 1]].name,
	    to - at, lo, hi, s->cp[c].p);
	for (int fig = 0; fig < cmp_nfig(h->rs); fig++) {
		const struct column *k = cmp_fig(h->rs, fig);
		struct side_fig sf;
		if (k->worse == 0 || !side_fig(rs, rows, at - from, n, s->blk, fig, &sf))
			continue;
		int moved = sf.t.p < CPOINT_P;
		if (fabs(sf.pct) < 0.05)
			sf.pct = 0;	/* no "-0.0%" */
		fputs(md ? "|" : "", f);
		cell(f, k, sf.mean[0], sf.cv[0], md);
		fprintf(f, md ? " %+.1f%% |" : " %+8.1f%%", sf.pct);
		cell(f, k, sf.mean[1], sf.cv[1], md);
		fprintf(f, md ? " %s %s |\n" : "  %s %s\n", moved ? "*" : md ? "" : " ",
		    k->head);
	}
	fprintf(f, "%s%s* its own change across the same nights passes the t-test "
	    "(p < %g)\n\n", md ? "\n" : "", md ? "" : "  ", CPOINT_P);
	size_t pair[2] = { rows[at - from - 1], rows[at - from] };
	env_lines(f, rs, pair, 2, md);
	differ_lines(f, rs, pair, 2, md);
	free(rows);
}

int
history_robot_shown(const struct history *h, size_t i, size_t c, size_t *j, size_t *d)
{
	const struct hseries *s = &h->s[i];
	size_t row = s->pt[s->cp[c].at].row;

	for (*j = 0; *j <= i; ++*j) {
		const struct hseries *o = &h->s[*j];
		if (o->first != s->first || o->blk != s->blk)
			continue;
		for (*d = 0; *d < o->ncp && (*j < i || *d < c); ++*d) {
			double pct, lo, hi;
			if (o->pt[o->cp[*d].at].row == row &&
			    history_verdict(h, o, *d, &pct, &lo, &hi) == CV_REGRESSION)
				return 1;
		}
	}
	return 0;
}

void
history_robot(FILE *f, const struct history *h, int md)
{
	size_t shown = 0;

	for (size_t i = 0; i < h->n; i++)
		for (size_t c = 0; c < h->s[i].ncp; c++) {
			double pct, lo, hi;
			size_t j, d;
			if (history_verdict(h, &h->s[i], c, &pct, &lo, &hi) != CV_REGRESSION ||
			    history_robot_shown(h, i, c, &j, &d))
				continue;
			if (shown++)
				fputs("\n", f);
			history_robot_block(f, h, i, c, md);
		}
	if (shown == 0)
		fprintf(f, "no regression beyond %g%% in %zu series (%zu change points)\n",
		    h->threshold, h->n, h->changes);
}
