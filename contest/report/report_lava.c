/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * LAVA's result lines, "TEST_CASE_ID RESULT [MEASUREMENT UNITS]", one
 * per figure of each row and load (and compare's: one per candidate,
 * load and gated figure with its verdict), for a lab's test definition
 * (scripts/lava) to hand to lava-test-case.  A figure of a cell with
 * failed runs is "fail"; a cell with no successful run has no figures to
 * measure and says "fail" alone.  The figures are the table's.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

/* LAVA's test case ids: letters, digits, '.', '_' and '-'. */
static void
put_id(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		fputc((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '.' || c == '-' ? c : '_', f);
	}
}

static void
line(FILE *f, const struct rset *rs, size_t row, size_t blk, const char *fig,
    const char *result, double v, const struct column *k)
{
	if (isnan(v) && strcmp(result, "pass") == 0)
		return;		/* a figure the cell does not have */
	if (rs->nrow > 1) {
		put_id(f, rs->row[row].name);
		fputc('-', f);
	}
	put_id(f, rs->blk[blk].name);
	fprintf(f, "-%s %s", fig, result);
	if (!isnan(v))
		fprintf(f, " %.*f %s", k->lava_dec, v, k->lava_unit);
	fputc('\n', f);
}

void
report_lava(FILE *f, const struct rset *rs)
{
	for (size_t b = 0; b < rs->nblk; b++)
		for (size_t i = 0; i < rs->nrow; i++) {
			size_t r = rs->order[b * rs->nrow + i];
			const struct rcell *c = rset_cell(rs, r, b);
			const char *res = c->failed ? "fail" : "pass";
			int base = b == rs->base;
			if (!rcell_ran(c))
				continue;
			if (c->ok == 0) {
				line(f, rs, r, b, "time", "fail", NAN, NULL);
				continue;
			}
			for (int n = 0; n < RC_N; n++) {
				const struct column *k = &report_cols[n];
				if (k->lava == NULL || (base && k->base_one))
					continue;
				line(f, rs, r, b, k->lava, res,
				    col_scaled(k, col_value(k, c, base)), k);
			}
		}
}

/* LAVA's result for a verdict: can't tell is neither pass nor fail. */
static const char *
lava_result(enum cmp_verdict v)
{
	return v == CV_REGRESSION || v == CV_FAILED ? "fail" :
	    v == CV_CANTTELL ? "unknown" : "pass";
}

void
compare_lava(FILE *f, const struct cmp *m)
{
	char name[512];

	for (size_t k = 1; k < m->ncol; k++) {
		for (size_t g = 0; g < m->ng; g++) {
			const struct cmpgroup *gr = &m->g[g];
			if (cmp_load_failed(gr, k)) {	/* its runs: a failed one fails */
				put_id(f, m->col[k].label);
				fputc('-', f);
				put_id(f, cmp_group_name(name, sizeof name, m, gr));
				fprintf(f, "-runs fail %zu failed\n", gr->cell[k]->failed);
			}
			if (cmp_not_run(gr, k)) {	/* and none at all, as a panic leaves */
				put_id(f, m->col[k].label);
				fputc('-', f);
				put_id(f, cmp_group_name(name, sizeof name, m, gr));
				fputs("-runs fail 0 runs\n", f);
			}
			for (int fig = 0; fig < cmp_nfig(m->rs); fig++) {
				const struct cmpval *v = &gr->val[fig * m->ncol + k];
				if (!v->gated || v->verdict == CV_NONE)
					continue;
				put_id(f, m->col[k].label);
				fputc('-', f);
				put_id(f, cmp_group_name(name, sizeof name, m, gr));
				fputc('-', f);
				put_id(f, cmp_fig(m->rs, fig)->key);
				fprintf(f, "-change %s", lava_result(v->verdict));
				if (!isnan(v->est_pct))
					fprintf(f, " %.2f percent", v->est_pct);
				fputc('\n', f);
			}
		}
		put_id(f, m->col[k].label);
		fprintf(f, "-verdict %s\n", lava_result(m->col[k].verdict));
	}
}

void
history_lava(FILE *f, const struct history *h)
{
	for (size_t i = 0; i < h->n; i++) {
		const struct hseries *s = &h->s[i];
		fputs("history-", f);
		put_id(f, s->first->host ? s->first->host : "");
		fputc('-', f);
		put_id(f, h->rs->blk[s->blk].name);
		fputc('-', f);
		put_id(f, cmp_fig(h->rs, s->fig)->key);
		if (history_ends_worse(h, s)) {
			double pct, lo, hi;
			history_verdict(h, s, s->ncp - 1, &pct, &lo, &hi);
			fprintf(f, " fail %.2f percent\n", pct);
		} else
			fputs(" pass\n", f);
	}
}
