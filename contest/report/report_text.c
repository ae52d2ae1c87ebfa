/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text and Markdown: the classic block per load for report, the side by
 * side table for compare, and what differed between the compared runs.
 * Markdown is the same content as a pipe table, to paste in a mail or PR.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "keys.h"
#include "report.h"
#include "util.h"

/* "74.2 us", "3.93 ms": sig significant digits in a fitting unit. */
const char *
lat_text(char *buf, size_t len, double ns, int sig)
{
	static const struct { double div; const char *unit; } u[] = {
		{ 1, "ns" }, { 1e3, "us" }, { 1e6, "ms" }, { 1e9, "s" },
	};
	size_t k = 0;

	while (k + 1 < sizeof u / sizeof u[0] && ns >= u[k + 1].div)
		k++;
	double v = ns / u[k].div;
	int mag = v > 0 ? (int)floor(log10(v)) : 0;	/* 0 for 1..9.99 */
	int dec = sig - 1 - mag;
	if (dec < 0) {		/* 126 at two digits is 130 */
		double p = pow(10, -dec);
		v = round(v / p) * p;
		dec = 0;
	}
	snprintf(buf, len, "%.*f %s", dec, v, u[k].unit);
	return buf;
}

/* The digits a latency's buckets back: three within 1.6%, two for
 * schema 1's 12.5%. */
int
lat_sig(const struct cell_lat *l)
{
	return hist_precision(l->h.sub) <= 0.02 ? 3 : 2;
}

/* "12.34 ± 0.56" (text: "12.34±0.56"), or "12.34" where sd is NaN. */
static void
pmtext(char *buf, size_t len, double mean, double sd, int dec, int md)
{
	if (isnan(sd))
		snprintf(buf, len, "%.*f", dec, mean);
	else
		snprintf(buf, len, "%.*f%s\xc2\xb1%s%.*f", dec, mean, md ? " " : "",
		    md ? " " : "", dec, sd);
}

/* Column k of cell c (base: the no_load block) as the table prints it:
 * "-" where it has none. */
static const char *
col_text(char *buf, size_t len, const struct column *k, const struct rcell *c,
    int base, int md)
{
	double v = col_value(k, c, base);
	const struct stats *st;

	if (isnan(v))
		return snprintf(buf, len, "-"), buf;
	switch (k->form) {
	case VF_MEANSD:		/* the mark of a noisy or thin cell after it */
		st = col_runs(k, c);
		pmtext(buf, len, v, st->n > 1 ? st->sd : NAN, k->dec, md);
		if (c->noisy || !md)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s",
			    c->noisy ? md ? " ?" : "?" : " ");
		break;
	case VF_RATIO:		/* too few runs for an interval: '?' */
		if (k->base_one && base)
			pmtext(buf, len, v, NAN, k->dec, md);
		else if (!isnan(c->ratio_ci95))
			pmtext(buf, len, v, c->ratio_ci95, k->dec, md);
		else
			snprintf(buf, len, "%.*f%s?", k->dec, v, md ? " " : "");
		break;
	case VF_PCT:
		snprintf(buf, len, "%.0f%%", v);
		break;
	case VF_LAT:
		lat_text(buf, len, v, lat_sig(&c->probe));
		break;
	default:
		snprintf(buf, len, "%.*f%s", k->dec, v, md && k->form == VF_NUMPCT ?
		    "%" : "");
	}
	return buf;
}

/* Columns beyond the classic ones: --stats's, and the probe's when any
 * run of the report had one. */
static int
col_shown(const struct column *k, unsigned cols)
{
	return (k->shown & (COL_TABLE | cols)) != 0;
}

/* The Kernel column: 20, or the longest row name ("6.18 j=2" and such). */
static int name_w = 20;

static void
table_head(FILE *f, const char *name, unsigned cols, int md)
{
	if (md)
		fprintf(f, "### %s\n\n| Kernel | Runs |", name);
	else
		fprintf(f, "%s:\n%-*s %6s", name, name_w, "Kernel", "[runs]");
	for (int i = 0; i < RC_N; i++) {
		const struct column *k = &report_cols[i];
		if (!col_shown(k, cols))
			continue;
		if (md)
			fprintf(f, " %s |", k->md_head ? k->md_head : k->head);
		else
			fprintf(f, " %*s", k->width, k->head);
	}
	if (md) {
		fputs("\n|---|--:|", f);
		for (int i = 0; i < RC_N; i++)
			if (col_shown(&report_cols[i], cols))
				fputs("--:|", f);
	}
	fputc('\n', f);
}

/* One row of the block: "Kernel [runs]" and its columns; "±" is two
 * bytes and one column wide. */
static void
table_line(FILE *f, const struct rset *rs, size_t row, size_t blk,
    unsigned cols, int md)
{
	const struct rcell *c = rset_cell(rs, row, blk);
	/* after [runs]: '!' some failed, '~' some left out as doing no work */
	char mark = c->failed ? '!' : c->nsuspect && !rs->keep_suspect ? '~' : ' ';
	char b[96];

	if (md)
		fprintf(f, "| %s | %zu%.*s |", rs->row[row].name, c->ok, mark != ' ',
		    &mark);
	else
		fprintf(f, "%-*s %5zu%c", name_w, rs->row[row].name, c->ok, mark);
	for (int i = 0; i < RC_N; i++) {
		const struct column *k = &report_cols[i];
		if (!col_shown(k, cols))
			continue;
		col_text(b, sizeof b, k, c, blk == rs->base, md);
		int w = k->width;
		for (const char *p = b; *p; p++)
			w += ((unsigned char)*p & 0xc0) == 0x80;
		if (md)
			fprintf(f, " %s |", b);
		else
			fprintf(f, " %*s", w, b);
	}
	fputc('\n', f);
}

/* The count or level in a fitting precision: "107468", "3.25". */
static void
count_text(FILE *f, double v)
{
	fprintf(f, "%.*f", v >= 100 || v == floor(v) ? 0 : v >= 1 ? 2 : 4, v);
}

/* A latency's percentiles, at the precision its buckets have: three
 * digits within 1.6%, two for schema 1's 12.5%; for the probe, the
 * deadlines it skipped (skipped NaN: not the probe, or not recorded). */
static int
latency_line(FILE *f, const char *bn, const char *who, const struct cell_lat *l,
    double skipped)
{
	char b[3][32];
	int sig = lat_sig(l);

	if (l->what == NULL || hist_total(&l->h) == 0)
		return 0;
	fprintf(f, "%s: %s%s: p50 %s, p99 %s, max %s%s (%llu samples; "
	    "percentiles within %.1f%%%s)", bn, who, l->what,
	    lat_text(b[0], 32, hist_quantile(&l->h, 0.50), sig),
	    lat_text(b[1], 32, hist_quantile(&l->h, 0.99), sig),
	    lat_text(b[2], 32, hist_quantile(&l->h, 1.0), l->h.max ? 3 : sig),
	    l->h.max ? "" : "?", hist_total(&l->h), hist_precision(l->h.sub) * 100,
	    l->h.max ? "" : "; max a bucket's midpoint");
	if (!isnan(skipped)) {
		fputs(", deadlines skipped with no wake-up: ", f);
		count_text(f, skipped);
		fputs(" a run", f);
	}
	fputc('\n', f);
	return 1;
}

/* --stats, with a probe a CPU: each CPU's p99 (the runs' mean) and max
 * (the worst run's). */
static int
pcpu_line(FILE *f, const char *bn, const char *who, const struct rcell *c)
{
	char p[32], m[32];
	int any = 0;

	for (size_t k = 0; k < c->npcpu; k++) {
		const struct cell_pcpu *x = &c->pcpu[k];
		if (x->p99.n == 0)
			continue;
		if (any)
			fputs(", ", f);
		else
			fprintf(f, "%s: %sProbe per CPU (p99 the runs' mean, max the "
			    "worst run's): ", bn, who);
		fprintf(f, "cpu%d %s / %s", x->cpu, lat_text(p, sizeof p,
		    x->p99.mean * 1e3, 3), x->max.n ? lat_text(m, sizeof m,
		    x->max.max * 1e3, 3) : "-");
		any = 1;
	}
	if (any)
		fputc('\n', f);
	return any;
}

/* A row's job metrics (--job-metric): each one's mean ± sd over the runs,
 * to three digits, its unit, and which way is better. */
static int
metric_line(FILE *f, const struct rset *rs, const char *bn, const char *who,
    const struct rcell *c, const struct rcell *base)
{
	int any = 0;

	for (size_t k = 0; c->jm && k < rs->njm; k++) {
		const struct stats *st = &c->jm[k];
		const struct rmetric *m = &rs->jm[k];
		char b[64];
		if (st->n == 0)
			continue;
		pmtext(b, sizeof b, st->mean, st->n > 1 ? st->sd : NAN,
		    col_sig_dec(st->mean), 0);
		if (any)
			fputs(", ", f);
		else
			fprintf(f, "%s: %sJob metrics: ", bn, who);
		fprintf(f, "%s %s%s%s", m->name, b, m->unit ? " " : "",
		    m->unit ? m->unit : "");
		/* against the same row's no_load, as Ratio is */
		double ratio = rcell_jm_ratio(c, base, k);
		if (!isnan(ratio))
			fprintf(f, ", %.2fx no_load", ratio);
		fprintf(f, " (%s is better)", jm_better_names[!!m->higher]);
		any = 1;
	}
	if (any)
		fputc('\n', f);
	return any;
}

/*
 * Under a block, each row's counters that mean something for the load,
 * the headline first as "Loads =": the mean per run and the mean rate
 * per second of job time; then its latency percentiles, at the
 * precision the histogram has.  Rows are named when there are several.
 */
static int
block_notes(FILE *f, const struct rset *rs, size_t blk, const size_t *order,
    size_t shown_rows, int stats)
{
	const char *bn = rs->blk[blk].name;
	int any = 0;

	for (size_t i = 0; i < rs->nrow; i++) {
		const struct rcell *c = rset_cell(rs, order[i], blk);
		char who[300] = "";

		if (c->ok == 0)
			continue;
		if (shown_rows > 1)
			snprintf(who, sizeof who, "%s: ", rs->row[order[i]].name);
		for (int head = 1; head >= 0; head--)
			for (size_t k = 0; k < c->nc; k++) {
				const struct cell_counter *s = &c->c[k];
				if ((s->name == c->headline) != head || !(s->shown || head))
					continue;
				fprintf(f, "%s: %s%s%s: ", bn, who, head ? "Loads = " : "",
				    s->label);
				count_text(f, s->mean);
				if (!isnan(s->rate)) {
					fputs(" (", f);
					count_text(f, s->rate);
					fputs("/s)", f);
				}
				fputc('\n', f);
				any = 1;
			}
		any |= metric_line(f, rs, bn, who, c, blk != rs->base ?
		    rset_cell(rs, order[i], rs->base) : NULL);
		any |= latency_line(f, bn, who, &c->lat, NAN);
		any |= latency_line(f, bn, who, &c->probe, c->skipped);
		if (stats)
			any |= pcpu_line(f, bn, who, c);
	}
	return any;
}

/*
 * A noisy cell's runs that stand out, with the telemetry that differed:
 * a cache the host evicted shows as refaults and major faults.
 */
static int
outlier_notes(FILE *f, const struct rset *rs, size_t row, size_t blk)
{
	struct routlier out[4];
	size_t n = rset_outliers(rs, row, blk, out, 4);

	for (size_t i = 0; i < n; i++) {
		const struct routlier *o = &out[i];
		fprintf(f, "%s: %s: run %ld (%.2f s, median %.2f s) stands out", rs->blk[blk].name,
		    rs->row[row].name, o->runno, o->wall, o->median);
		for (int t = 0; t < o->ntel; t++)
			fprintf(f, "%s %s %.0f against %.0f", t ? "," : ":",
			    rset_telemetry[o->tel[t]], o->value[o->tel[t]], o->others[t]);
		fprintf(f, "%s; more runs or --warmup would tell\n", o->ntel ?
		    "" : ", with no telemetry to explain it");
	}
	return n > 0;
}

static void
footnotes(FILE *f, const struct rset *rs, const size_t *rows, size_t nrows,
    int noisy, unsigned cols, int md)
{
	const char *li = md ? "- " : "";	/* one Markdown list item per note */
	int left_out = 0;

	for (size_t k = 0; k < rs->nrow * rs->nblk && !rs->keep_suspect; k++)
		left_out |= rs->cell[k].nsuspect > 0;
	fprintf(f, "%sTime in seconds, mean \xc2\xb1 sample sd; Ratio: Time over the "
	    "same kernel's no_load mean \xc2\xb1 the half-width of its CI95 (delta "
	    "method, Welch df), ? where a side has fewer than 2 runs.\n", li);
	int per_cpu = 0;
	for (size_t k = 0; k < rs->nrow * rs->nblk; k++)
		per_cpu |= rs->cell[k].npcpu > 0;
	if (cols & COL_PROBE)
		fprintf(f, "%sLat p99: the probe's wake-up lateness, pooled over the "
		    "wake-ups it had%s (a starved probe skips deadlines: how many is "
		    "under the block); Met%%: deadlines met over every deadline that "
		    "passed while the job ran, a skipped one missed.\n", li, per_cpu ?
		    ", its worst CPU's in each run with a probe a CPU (--stats: each "
		    "CPU's)" : "");
	if (noisy)
		noisy_legend(f, rs, li, " (more runs, --warmup, or --prepare)");
	if (left_out)
		fprintf(f, "%s~ after [runs]: runs that may have done no work, named "
		    "under the block and left out of every figure (--keep-suspect "
		    "keeps them).\n", li);
	if (rs->warmups)
		fprintf(f, "%s%lu warmup run%s not counted.\n", li, rs->warmups,
		    rs->warmups == 1 ? "" : "s");
	for (size_t i = 0; i < rs->nwarm; i++)
		fprintf(f, "%ssession %s: its warmup took %.2f s, over %d times its "
		    "measured runs' median %.2f s: a cold start, or the job's work "
		    "done once before them (a --prepare step undoes it); the runs "
		    "are kept.\n", li, rs->warm[i].session, rs->warm[i].wall,
		    SUSPECT_FACTOR, rs->warm[i].median);
	env_lines(f, rs, rows, nrows, md);
	differ_lines(f, rs, rows, nrows, md);
}

void
report_text(FILE *f, const struct rset *rs, int stats, int md)
{
	unsigned cols = stats ? COL_STATS : 0;

	for (size_t k = 0; k < rs->nrow * rs->nblk; k++)
		if (rs->cell[k].probe.what)
			cols |= COL_PROBE;
	name_w = 20;
	for (size_t r = 0; r < rs->nrow; r++)
		if ((int)strlen(rs->row[r].name) > name_w && strlen(rs->row[r].name) < 80)
			name_w = (int)strlen(rs->row[r].name);
	int noisy = 0;
	size_t *rows = rs->order;	/* block 0's order names every row */

	for (size_t b = 0; b < rs->nblk; b++) {
		const size_t *o = rs->order + b * rs->nrow;
		table_head(f, rs->blk[b].name, cols, md);
		size_t nshown = 0;
		for (size_t i = 0; i < rs->nrow; i++) {
			const struct rcell *c = rset_cell(rs, o[i], b);
			if (!rcell_ran(c))
				continue;	/* this kernel never ran this load */
			nshown++;
			table_line(f, rs, o[i], b, cols, md);
			noisy |= c->noisy;
		}
		if (md)
			fputc('\n', f);
		int notes = block_notes(f, rs, b, o, nshown, stats);
		for (size_t i = 0; i < rs->nrow; i++) {
			const struct rcell *c = rset_cell(rs, o[i], b);
			notes |= outlier_notes(f, rs, o[i], b);
			suspect_note(f, rs->blk[b].name, rs->row[o[i]].name, c->suspect,
			    c->nsuspect, rs->keep_suspect);
			notes |= c->nsuspect > 0;
			if (c->scx_changed)
				fprintf(f, "%s: %s: sched_ext changed during %zu run%s "
				    "(sched_ext_after in the results): they measured "
				    "more than one scheduler\n", rs->blk[b].name,
				    rs->row[o[i]].name, c->scx_changed,
				    c->scx_changed == 1 ? "" : "s");
			notes |= c->scx_changed > 0;
		}
		for (size_t i = 0; i < rs->nrow; i++) {
			const struct rcell *c = rset_cell(rs, o[i], b);
			if (c->failed == 0)
				continue;
			fprintf(f, "%s: %s%s! %zu run%s failed (last exit status %d%s%s), "
			    "left out of the means\n", rs->blk[b].name,
			    nshown > 1 ? rs->row[o[i]].name : "", nshown > 1 ? ": " : "",
			    c->failed, c->failed == 1 ? "" : "s", c->last_exit,
			    c->last_signal ? ", " : "", c->last_signal ? c->last_signal : "");
			notes = 1;
		}
		if (md && notes)
			fputc('\n', f);
	}
	footnotes(f, rs, rows, rs->nrow, noisy, cols, md);
}

int
report_warn_suspects(const struct rset *rs)
{
	char named[400] = "";
	size_t used = 0;
	int n = 0;

	for (size_t b = 0; b < rs->nblk; b++)
		for (size_t r = 0; r < rs->nrow; r++) {
			const struct rcell *c = rset_cell(rs, r, b);
			if (c->nsuspect == 0)
				continue;
			n += (int)c->nsuspect;
			if (used < sizeof named)
				used += (size_t)snprintf(named + used, sizeof named - used,
				    "%s%s run%s", used ? ", " : "", rs->blk[b].name,
				    c->nsuspect > 1 ? "s" : "");
			for (size_t i = 0; i < c->nsuspect && used < sizeof named; i++)
				used += (size_t)snprintf(named + used, sizeof named - used,
				    " %ld", c->suspect[i].runno);
		}
	if (n)
		warnmsg("%s may have done no work%s (the notes under the table say "
		    "why): give the job a --prepare step that undoes its work", named,
		    rs->keep_suspect ? "" : ", left out of the means");
	for (size_t i = 0; i < rs->nwarm; i++)
		warnmsg("the warmup took %.2f s, over %d times the measured runs' "
		    "median %.2f s: if it did the job's work, they did none; give "
		    "the job a --prepare step that undoes its work", rs->warm[i].wall,
		    SUSPECT_FACTOR, rs->warm[i].median);
	return n;
}
