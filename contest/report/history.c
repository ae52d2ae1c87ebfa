/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * contest history: the labels of one host and command as a series of
 * nights, a figure at a time, and where the series changed.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "keys.h"
#include "report.h"
#include "util.h"

/* Rows of one series: the same host, command and sweep values. */
static int
same_series(const struct rrow *a, const struct rrow *b)
{
	return a->host == b->host && a->command == b->command && a->sweep == b->sweep;
}

static const struct rset *sort_rs;

/* By the first run's timestamp (ISO 8601 sorts as text), then file order. */
static int
by_time(const void *a, const void *b)
{
	const struct rrow *x = &sort_rs->row[*(const size_t *)a];
	const struct rrow *y = &sort_rs->row[*(const size_t *)b];
	int c = strcmp(x->env->timestamp ? x->env->timestamp : "",
	    y->env->timestamp ? y->env->timestamp : "");

	return c ? c : (*(const size_t *)a > *(const size_t *)b) -
	    (*(const size_t *)a < *(const size_t *)b);
}

int
history_point(const struct rset *rs, size_t row, size_t blk, int fig, struct hpoint *p)
{
	const struct column *k = cmp_fig(rs, fig);
	const struct rcell *c = rset_cell(rs, row, blk);
	int base = blk == rs->base;

	if (base && (k->base_one || k->not_base))
		return 0;
	double v = col_value(k, c, base);
	if (!isfinite(v))
		return 0;
	const struct stats *st = col_runs(k, c);
	p->row = row;
	p->mean = v;
	p->n = c->ok;
	p->ci95 = k->src == S_RATIO ? c->ratio_ci95 : st && st->n > 1 ? st->ci95 : NAN;
	/* a night over two or more boots: over its boot means */
	cmp_boot_point(k, c, rs->base < rs->nblk ? rset_cell(rs, row, rs->base) : NULL,
	    &p->mean, &p->ci95);
	return 1;
}

/* One figure of one load over the time-ordered rows[0..n): its points
 * and change points, kept when it has a point. */
static void
add_series(struct history *h, const size_t *rows, size_t n, size_t blk, int fig,
    size_t *cap)
{
	struct hseries s = { .first = &h->rs->row[rows[0]], .blk = blk, .fig = fig };
	double *x = xcalloc(n + 1, sizeof *x);

	s.pt = xcalloc(n + 1, sizeof *s.pt);
	for (size_t i = 0; i < n; i++)
		if (history_point(h->rs, rows[i], blk, fig, &s.pt[s.npt]))
			x[s.npt] = s.pt[s.npt].mean, s.npt++;
	if (h->last && s.npt > h->last) {	/* the newest nights alone */
		size_t drop = s.npt - h->last;
		memmove(s.pt, s.pt + drop, h->last * sizeof *s.pt);
		memmove(x, x + drop, h->last * sizeof *x);
		s.npt = h->last;
	}
	if (s.npt == 0) {
		free(s.pt);
		free(x);
		return;
	}
	s.cp = xcalloc(s.npt / CPOINT_MIN + 1, sizeof *s.cp);
	long k = cpoint_find(x, s.npt, CPOINT_MIN, CPOINT_P, s.cp, s.npt / CPOINT_MIN + 1);
	if (k < 0)
		fatal(1, "out of memory");
	s.ncp = (size_t)k;
	history_newest_nights(&s, x);
	free(x);
	for (size_t i = 0; i < s.ncp; i++) {
		double pct, lo, hi;
		h->changes++;
		h->regressions += history_verdict(h, &s, i, &pct, &lo, &hi) == CV_REGRESSION;
	}
	if (s.newest) {
		double pct, lo, hi;
		h->newest++;
		h->newest_worse += history_newest_verdict(h, &s, &pct, &lo, &hi) ==
		    CV_REGRESSION;
	}
	xgrow(&h->s, cap, h->n + 1, sizeof *h->s, 16);
	h->s[h->n++] = s;
	h->worse += history_ends_worse(h, &h->s[h->n - 1]);
}

int
history_ends_worse(const struct history *h, const struct hseries *s)
{
	double pct, lo, hi;

	return s->ncp > 0 && history_verdict(h, s, s->ncp - 1, &pct, &lo, &hi) ==
	    CV_REGRESSION;
}

void
history_build(struct history *h, const struct rset *rs, unsigned figs,
    double threshold, size_t last)
{
	size_t cap = 0, *rows = xcalloc(rs->nrow + 1, sizeof *rows);
	unsigned char *done = xcalloc(rs->nrow + 1, 1);

	memset(h, 0, sizeof *h);
	h->rs = rs;
	h->threshold = threshold;
	h->last = last;
	for (size_t r = 0; r < rs->nrow; r++) {
		if (done[r])
			continue;
		size_t n = 0;
		for (size_t q = r; q < rs->nrow; q++)
			if (!done[q] && same_series(&rs->row[r], &rs->row[q])) {
				done[q] = 1;
				rows[n++] = q;
			}
		sort_rs = rs;
		qsort(rows, n, sizeof *rows, by_time);
		for (size_t b = 0; b < rs->nblk; b++)
			for (int f = 0; f < cmp_nfig(h->rs); f++)
				if (cmp_fig(h->rs, f)->gate && (figs & CMP_GATE(f)))
					add_series(h, rows, n, b, f, &cap);
	}
	free(rows);
	free(done);
}

void
history_free(struct history *h)
{
	for (size_t i = 0; i < h->n; i++) {
		free(h->s[i].pt);
		free(h->s[i].cp);
	}
	free(h->s);
	memset(h, 0, sizeof *h);
}

/* A change's size in % of the mean before it (that mean's own error left
 * out), its CI95, and the verdict cmp_rule gives it. */
static enum cmp_verdict
change_verdict(const struct history *h, const struct hseries *s,
    const struct cpoint *c, double *pct, double *lo, double *hi)
{
	double b = fabs(c->before);

	*pct = b > 0 ? 100 * (c->after - c->before) / b : NAN;
	*lo = b > 0 ? 100 * c->lo / b : NAN;
	*hi = b > 0 ? 100 * c->hi / b : NAN;
	return cmp_rule(1, *pct, *lo, *hi, cmp_fig(h->rs, s->fig)->worse, h->threshold);
}

enum cmp_verdict
history_verdict(const struct history *h, const struct hseries *s, size_t k,
    double *pct, double *lo, double *hi)
{
	return change_verdict(h, s, &s->cp[k], pct, lo, hi);
}

/* "; n08 left out of its test (over 5 robust SDs off its side)" */
static void
outliers(FILE *f, const struct history *h, const struct hseries *s,
    const struct cpoint *c)
{
	if (c->nout == 0)
		return;
	fprintf(f, "; %s", h->rs->row[s->pt[c->out].row].name);
	if (c->nout > 1)
		fprintf(f, " and %zu more", c->nout - 1);
	fprintf(f, " left out of its test (over %d robust SDs off %s side's median)",
	    CPOINT_OUT, c->nout > 1 ? "their" : "its");
}

enum cmp_verdict
history_newest_verdict(const struct history *h, const struct hseries *s,
    double *pct, double *lo, double *hi)
{
	return change_verdict(h, s, &s->nc, pct, lo, hi);
}

void
history_newest_text(FILE *f, const struct history *h, const struct hseries *s,
    int md)
{
	double pct, lo, hi;
	size_t from = s->nc.at - s->nc.nbefore;
	enum cmp_verdict v = history_newest_verdict(h, s, &pct, &lo, &hi);

	if (!s->newest)
		return;
	fprintf(f, "%sthe newest night%s differ%s: %s%s%s %+.2f%% (CI95 %+.2f..%+.2f%%) "
	    "against %s..%s, p=%.2g, %s beyond %g%%: can't place it yet (a change "
	    "needs %d nights after it)\n", md ? "- " : "  ", s->newest > 1 ? "s" : "",
	    s->newest > 1 ? "" : "s", s->newest > 1 ? h->rs->row[s->pt[s->nc.at].row].name :
	    "", s->newest > 1 ? ".." : "", h->rs->row[s->pt[s->npt - 1].row].name, pct,
	    lo, hi, h->rs->row[s->pt[from].row].name, h->rs->row[s->pt[s->nc.at - 1].row].name,
	    s->nc.p, v == CV_REGRESSION ? "worse" : v == CV_IMPROVEMENT ? "better" :
	    "not", h->threshold, CPOINT_MIN);
}

/* "fork_load, Time (s)" */
static void
series_name(FILE *f, const struct history *h, const struct hseries *s)
{
	const struct column *k = cmp_fig(h->rs, s->fig);

	fprintf(f, "%s%s%s, %s", h->rs->blk[s->blk].name, s->first->sweep ? " " : "",
	    s->first->sweep ? s->first->sweep : "", k->head);
}

/* A value in the figure's unit and digits; "±" before it when ci. */
static const char *
value_text(char *buf, size_t len, const struct column *k, double v, int ci)
{
	if (isnan(v))
		return "-";
	snprintf(buf, len, "%s%.*f", ci ? "±" : "", col_mean_dec(k), col_scaled(k, v));
	return buf;
}

void
history_text(FILE *f, const struct history *h, int md)
{
	for (size_t i = 0; i < h->n; i++) {
		const struct hseries *s = &h->s[i];
		const struct column *k = cmp_fig(h->rs, s->fig);
		if (i)
			fputc('\n', f);
		fputs(md ? "### " : "", f);
		series_name(f, h, s);
		fprintf(f, " on %s, %s:\n", s->first->host ? s->first->host : "?",
		    s->first->command ? s->first->command : "?");
		fputs(md ? "\n| Label | First run | Runs | Mean | CI95 |\n|---|---|--:|--:|--:|\n" :
		    "  Label                First run                 Runs        Mean        CI95\n", f);
		for (size_t p = 0; p < s->npt; p++) {
			const struct hpoint *pt = &s->pt[p];
			const struct rrow *r = &h->rs->row[pt->row];
			const char *ts = r->env->timestamp ? r->env->timestamp : "-";
			char mb[32], cb[32];
			const char *m = value_text(mb, sizeof mb, k, pt->mean, 0);
			const char *c = value_text(cb, sizeof cb, k, pt->ci95, 1);
			if (md)
				fprintf(f, "| %s | %s | %zu | %s | %s |\n", r->name, ts,
				    pt->n, m, c);
			else	/* "±" is two bytes wide */
				fprintf(f, "  %-20s %-24s %5zu %11s %*s\n", r->name, ts,
				    pt->n, m, isnan(pt->ci95) ? 11 : 12, c);
		}
		if (md && s->ncp)
			fputc('\n', f);
		for (size_t c = 0; c < s->ncp; c++) {
			double pct, lo, hi;
			enum cmp_verdict v = history_verdict(h, s, c, &pct, &lo, &hi);
			const struct cpoint *cp = &s->cp[c];
			fprintf(f, "%s%s: %s -> %s: %+.2f%% (CI95 %+.2f..%+.2f%%), p=%.2g",
			    md ? "- " : "  ", cmp_verdict_names[v],
			    h->rs->row[s->pt[cp->at - 1].row].name,
			    h->rs->row[s->pt[cp->at].row].name, pct, lo, hi, cp->p);
			outliers(f, h, s, cp);
			fputc('\n', f);
		}
		if (md && s->newest && !s->ncp)
			fputc('\n', f);
		history_newest_text(f, h, s, md);
	}
	fprintf(f, "%s%zu series, %zu change point%s, %zu regression%s, %zu ending worse "
	    "than before (E-divisive means, Welch's t p < %g, at least %d points "
	    "a side; regression: worse by more than %g%%)\n", h->n ? "\n" : "", h->n,
	    h->changes, h->changes == 1 ? "" : "s", h->regressions,
	    h->regressions == 1 ? "" : "s", h->worse, CPOINT_P, CPOINT_MIN, h->threshold);
	if (h->newest)
		fprintf(f, "%zu series whose newest nights differ, not yet placed, "
		    "%zu of them worse beyond %g%% (exit 3 where none ends worse)\n",
		    h->newest, h->newest_worse, h->threshold);
}

void
history_csv(FILE *f, const struct history *h)
{
	fputs("host,command,load,figure,index,label,timestamp,runs,mean,ci95,"
	    "change_pct,change_lo_pct,change_hi_pct,p,verdict\n", f);
	for (size_t i = 0; i < h->n; i++) {
		const struct hseries *s = &h->s[i];
		const struct column *k = cmp_fig(h->rs, s->fig);
		size_t c = 0;
		for (size_t p = 0; p < s->npt; p++) {
			const struct rrow *r = &h->rs->row[s->pt[p].row];
			csv_field(f, s->first->host ? s->first->host : "", 0);
			csv_field(f, s->first->command ? s->first->command : "", 0);
			csv_field(f, h->rs->blk[s->blk].name, 0);
			fprintf(f, "%s,%zu,", k->key, p);
			csv_field(f, r->label, 0);
			csv_field(f, r->env->timestamp ? r->env->timestamp : "", 0);
			fprintf(f, "%zu,%.6g,", s->pt[p].n, col_scaled(k, s->pt[p].mean));
			if (!isnan(s->pt[p].ci95))
				fprintf(f, "%.6g", col_scaled(k, s->pt[p].ci95));
			if (c < s->ncp && s->cp[c].at == p) {
				double pct, lo, hi;
				enum cmp_verdict v = history_verdict(h, s, c, &pct, &lo, &hi);
				fprintf(f, ",%.3f,%.3f,%.3f,%.3g,%s\n", pct, lo, hi, s->cp[c].p,
				    cmp_verdict_names[v]);
				c++;
			} else
				fputs(",,,,,\n", f);
		}
	}
}

static void
json_points(struct json *j, const struct history *h, const struct hseries *s)
{
	const struct column *k = cmp_fig(h->rs, s->fig);

	json_key(j, "points");
	json_arr_begin(j);
	for (size_t p = 0; p < s->npt; p++) {
		const struct rrow *r = &h->rs->row[s->pt[p].row];
		json_obj_begin(j);
		json_kstr(j, RK_NAME(LABEL), r->label);
		json_kstr_or_null(j, RK_NAME(TIMESTAMP), r->env->timestamp);
		json_kuint(j, "runs", s->pt[p].n);
		json_knum(j, "mean", col_scaled(k, s->pt[p].mean), 6);
		json_knum(j, "ci95", col_scaled(k, s->pt[p].ci95), 6);
		json_obj_end(j);
	}
	json_arr_end(j);
}

void
history_json(FILE *f, const struct history *h)
{
	struct json j;

	json_init(&j);
	json_obj_begin(&j);
	json_kstr(&j, "history", "contest");
	json_kint(&j, "schema", 1);
	json_knum(&j, "threshold_pct", h->threshold, 3);
	json_knum(&j, "p_max", CPOINT_P, 6);
	json_kint(&j, "min_points", CPOINT_MIN);
	json_key(&j, "series");
	json_arr_begin(&j);
	for (size_t i = 0; i < h->n; i++) {
		const struct hseries *s = &h->s[i];
		json_obj_begin(&j);
		json_kstr_or_null(&j, RK_NAME(HOST), s->first->host);
		json_kstr_or_null(&j, RK_NAME(COMMAND), s->first->command);
		json_kstr(&j, RK_NAME(LOAD), h->rs->blk[s->blk].name);
		json_kstr_or_null(&j, RK_NAME(SWEEP), s->first->sweep);
		json_kstr(&j, "figure", cmp_fig(h->rs, s->fig)->key);
		json_points(&j, h, s);
		json_key(&j, "change_points");
		json_arr_begin(&j);
		for (size_t c = 0; c < s->ncp; c++) {
			double pct, lo, hi;
			enum cmp_verdict v = history_verdict(h, s, c, &pct, &lo, &hi);
			json_obj_begin(&j);
			json_kuint(&j, "index", s->cp[c].at);
			json_kstr(&j, "before", h->rs->row[s->pt[s->cp[c].at - 1].row].label);
			json_kstr(&j, "after", h->rs->row[s->pt[s->cp[c].at].row].label);
			json_knum(&j, "change_pct", pct, 3);
			json_knum(&j, "ci95_lo_pct", lo, 3);
			json_knum(&j, "ci95_hi_pct", hi, 3);
			json_kgnum(&j, "p", s->cp[c].p, 6);
			json_kstr(&j, "verdict", cmp_verdict_names[v]);
			json_kuint(&j, "outliers", s->cp[c].nout);
			json_kstr_or_null(&j, "first_outlier", s->cp[c].nout ?
			    h->rs->row[s->pt[s->cp[c].out].row].label : NULL);
			json_obj_end(&j);
		}
		json_arr_end(&j);
		json_key(&j, "newest");	/* nights not yet placed */
		if (s->newest) {
			double pct, lo, hi;
			enum cmp_verdict v = history_newest_verdict(h, s, &pct, &lo, &hi);
			json_obj_begin(&j);
			json_kuint(&j, "index", s->nc.at);
			json_kuint(&j, "nights", s->newest);
			json_knum(&j, "change_pct", pct, 3);
			json_knum(&j, "ci95_lo_pct", lo, 3);
			json_knum(&j, "ci95_hi_pct", hi, 3);
			json_kgnum(&j, "p", s->nc.p, 6);
			json_kstr(&j, "verdict", cmp_verdict_names[v]);
			json_obj_end(&j);
		} else
			json_null(&j);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_kuint(&j, "newest_differ", h->newest);
	json_kuint(&j, "newest_worse", h->newest_worse);
	json_kuint(&j, "change_points", h->changes);
	json_kuint(&j, "regressions", h->regressions);
	json_kuint(&j, "ending_worse", h->worse);
	json_obj_end(&j);
	report_json_emit(f, &j);
}

void
history_junit(FILE *f, const struct history *h)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
	    "  <testsuite name=\"contest history\" tests=\"%zu\" failures=\"%zu\" "
	    "errors=\"0\" skipped=\"0\">\n", h->n, h->worse);
	for (size_t i = 0; i < h->n; i++) {
		const struct hseries *s = &h->s[i];
		fputs("    <testcase classname=\"contest.history.", f);
		xml_text(f, s->first->host ? s->first->host : "");
		fputs("\" name=\"", f);
		xml_text(f, h->rs->blk[s->blk].name);
		fprintf(f, " %s\">\n", cmp_fig(h->rs, s->fig)->head);
		if (history_ends_worse(h, s)) {
			const struct cpoint *c = &s->cp[s->ncp - 1];
			double pct, lo, hi;
			history_verdict(h, s, s->ncp - 1, &pct, &lo, &hi);
			fputs("      <failure type=\"regression\" message=\"", f);
			xml_text(f, h->rs->row[s->pt[c->at].row].name);
			fprintf(f, ": %+.1f%% (CI %+.1f..%+.1f%%, p=%.2g) beyond %g%%, "
			    "since ", pct, lo, hi, c->p, h->threshold);
			xml_text(f, h->rs->row[s->pt[c->at - 1].row].name);
			fputs("\"/>\n", f);
		}
		fputs("    </testcase>\n", f);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
}
