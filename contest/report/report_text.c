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

#include "report.h"
#include "util.h"

/*
 * One row of the classic block: "Kernel [runs] Time CPU% Wait% Loads Load% LCPU%
 * Ratio", Time with its sample sd and Ratio with its CI95; stats adds
 * Time's CoV, min, median, max and CI95.  NaN prints as "-".
 */
struct trow {
	const char	*name;
	size_t		 ok, failed;
	char		 runmark;	/* after [runs]: '!' some failed, '~' some
					 * left out as doing no work, or ' ' */
	const struct stats *time;
	double		 cpu_pct, wait_pct, loads, load_pct, lcpu_pct;
	double		 ratio, ratio_ci95;	/* ci95 NaN: too few runs */
	int		 base;		/* the no_load row: ratio 1, no interval */
	double		 probe_p99, met_pct;	/* the latency probe; NaN: none */
	int		 probe_sig;	/* digits its p99 can back */
	char		 mark;		/* after Time: ' ' or '?' */
};

/* "12.34 ± 0.56", "12.34" or "-" into buf. */
static const char *
pmtext(char *buf, size_t len, double mean, double sd, int decimals)
{
	if (isnan(mean))
		snprintf(buf, len, "-");
	else if (isnan(sd))
		snprintf(buf, len, "%.*f", decimals, mean);
	else
		snprintf(buf, len, "%.*f \xc2\xb1 %.*f", decimals, mean, decimals, sd);
	return buf;
}

static const char *
numtext(char *buf, size_t len, double v, int decimals, const char *suffix)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f%s", decimals, v, suffix);
	return buf;
}

/* "mean±sd" right-aligned in width columns ("±" is one column, two bytes). */
static void
pm(FILE *f, int width, double mean, double sd, int have_sd)
{
	char buf[64];
	int n;

	if (have_sd)
		n = snprintf(buf, sizeof buf, "%.2f\xc2\xb1%.2f", mean, sd) - 1;
	else
		n = snprintf(buf, sizeof buf, "%.2f", mean);
	fprintf(f, "%*s%s", width > n ? width - n : 0, "", buf);
}

/* v with decimals in width columns, or "-" for NaN. */
static void
num_or_dash(FILE *f, int width, int decimals, double v)
{
	if (isnan(v))
		fprintf(f, " %*s", width, "-");
	else
		fprintf(f, " %*.*f", width, decimals, v);
}

/* "  42%" in six columns, or "-". */
static void
pct_or_dash(FILE *f, double v)
{
	if (isnan(v))
		fprintf(f, " %6s", "-");
	else
		fprintf(f, " %5.0f%%", v);
}

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

/* Columns beyond the classic ones: --stats's, and the probe's when any
 * run of the report had one. */
#define COL_STATS	1
#define COL_PROBE	2

/* The Kernel column: 20, or the longest row name ("6.18 j=2" and such). */
static int name_w = 20;

static void
table_head(FILE *f, int cols)
{
	int stats = cols & COL_STATS;

	fprintf(f, "%-*s %6s %13s %6s %6s %8s %6s %6s %11s", name_w, "Kernel", "[runs]",
	    figures[FIG_WALL].head, figures[FIG_CPU].head, figures[FIG_WAIT].head,
	    "Loads", figures[FIG_LOADP].head, figures[FIG_LCPU].head, "Ratio");
	if (cols & COL_PROBE)
		fprintf(f, " %9s %5s", "Lat p99", "Met%");
	if (stats)
		fprintf(f, " %6s %8s %8s %8s %8s", "CoV%", "Min", "Median",
		    "Max", "CI95");
	fputc('\n', f);
}

static void
table_line(FILE *f, const struct trow *r, int cols)
{
	int stats = cols & COL_STATS;
	char b[32];

	fprintf(f, "%-*s %5zu%c", name_w, r->name, r->ok, r->runmark);
	if (r->ok == 0) {
		fprintf(f, " %13s %6s %6s %8s %6s %6s %11s", "-", "-", "-", "-", "-",
		    "-", "-");
		if (cols & COL_PROBE)
			fprintf(f, " %9s %5s", "-", "-");
		if (stats)
			fprintf(f, " %6s %8s %8s %8s %8s", "-", "-", "-", "-", "-");
		fputc('\n', f);
		return;
	}
	fputc(' ', f);
	/* the mark rides after Time: '?' for a noisy or thin cell */
	pm(f, 12, r->time->mean, r->time->sd, r->time->n > 1);
	fputc(r->mark, f);
	fprintf(f, " %5.0f%%", r->cpu_pct);
	pct_or_dash(f, r->wait_pct);
	num_or_dash(f, 8, 0, r->loads);
	pct_or_dash(f, r->load_pct);
	pct_or_dash(f, r->lcpu_pct);
	fputc(' ', f);
	if (isnan(r->ratio))
		fprintf(f, "%11s", "-");
	else if (r->base || !isnan(r->ratio_ci95))
		pm(f, 11, r->ratio, r->ratio_ci95, !r->base);
	else
		fprintf(f, "%10.2f?", r->ratio);	/* too few runs for an interval */
	if (cols & COL_PROBE) {
		fprintf(f, " %9s", isnan(r->probe_p99) ? "-" :
		    lat_text(b, sizeof b, r->probe_p99, r->probe_sig));
		if (isnan(r->met_pct))
			fprintf(f, " %5s", "-");
		else
			fprintf(f, " %4.0f%%", r->met_pct);
	}
	if (stats) {
		num_or_dash(f, 6, 1, r->time->cv * 100);
		num_or_dash(f, 8, 2, r->time->min);
		num_or_dash(f, 8, 2, r->time->median);
		num_or_dash(f, 8, 2, r->time->max);
		num_or_dash(f, 8, 2, r->time->n > 1 ? r->time->ci95 : NAN);
	}
	fputc('\n', f);
}

static void
trow_of(struct trow *t, const struct rset *rs, size_t row, size_t blk)
{
	const struct rcell *c = rset_cell(rs, row, blk);

	*t = (struct trow){
		.name = rs->row[row].name, .ok = c->ok, .failed = c->failed,
		.runmark = c->failed ? '!' : c->nsuspect && !rs->keep_suspect ? '~' : ' ',
		.time = rcell_fig(c, FIG_WALL), .cpu_pct = rcell_fig(c, FIG_CPU)->mean,
		.wait_pct = rcell_fig(c, FIG_WAIT)->n ? rcell_fig(c, FIG_WAIT)->mean : NAN,
		.load_pct = blk != rs->base && rcell_fig(c, FIG_LOADP)->n ? rcell_fig(c, FIG_LOADP)->mean : NAN,
		.loads = c->loads.n ? c->loads.mean : NAN,
		.lcpu_pct = blk != rs->base && rcell_fig(c, FIG_LCPU)->n ? rcell_fig(c, FIG_LCPU)->mean : NAN,
		.ratio = c->ratio, .ratio_ci95 = c->ratio_ci95, .base = blk == rs->base,
		.mark = c->noisy ? '?' : ' ',
		.probe_p99 = c->probe.what && hist_total(&c->probe.h) ?
		    hist_quantile(&c->probe.h, 0.99) : NAN,
		.probe_sig = c->probe.what && hist_precision(c->probe.h.sub) > 0.02 ? 2 : 3,
		.met_pct = c->met_pct,
	};
}

static void
md_line(FILE *f, const struct trow *t, int cols)
{
	int stats = cols & COL_STATS;
	char b[7][64];

	fprintf(f, "| %s | %zu%.*s |", t->name, t->ok, t->runmark != ' ', &t->runmark);
	if (t->ok == 0) {
		fputs(" - | - | - | - | - | - | - |", f);
		if (cols & COL_PROBE)
			fputs(" - | - |", f);
		if (stats)
			fputs(" - | - | - | - | - |", f);
		fputc('\n', f);
		return;
	}
	fprintf(f, " %s%s | %s | %s | %s | %s | %s | %s |",
	    pmtext(b[0], 64, t->time->mean, t->time->n > 1 ? t->time->sd : NAN, 2),
	    t->mark == '?' ? " ?" : "", numtext(b[1], 64, t->cpu_pct, 0, "%"),
	    numtext(b[5], 64, t->wait_pct, 0, "%"),
	    numtext(b[2], 64, t->loads, 0, ""), numtext(b[6], 64, t->load_pct, 0, "%"),
	    numtext(b[3], 64, t->lcpu_pct, 0, "%"),
	    t->base || !isnan(t->ratio_ci95) || isnan(t->ratio) ?
	    pmtext(b[4], 64, t->ratio, t->base ? NAN : t->ratio_ci95, 2) :
	    numtext(b[4], 64, t->ratio, 2, " ?"));
	if (cols & COL_PROBE)
		fprintf(f, " %s | %s |", isnan(t->probe_p99) ? "-" :
		    lat_text(b[5], 64, t->probe_p99, t->probe_sig),
		    numtext(b[6], 64, t->met_pct, 0, "%"));
	if (stats)
		fprintf(f, " %s | %s | %s | %s | %s |",
		    numtext(b[0], 64, t->time->cv * 100, 1, "%"),
		    numtext(b[1], 64, t->time->min, 2, ""),
		    numtext(b[2], 64, t->time->median, 2, ""),
		    numtext(b[3], 64, t->time->max, 2, ""),
		    numtext(b[4], 64, t->time->n > 1 ? t->time->ci95 : NAN, 2, ""));
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
	int sig = hist_precision(l->h.sub) <= 0.02 ? 3 : 2;

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

/*
 * Under a block, each row's counters that mean something for the load,
 * the headline first as "Loads =": the mean per run and the mean rate
 * per second of job time; then its latency percentiles, at the
 * precision the histogram has.  Rows are named when there are several.
 */
static int
block_notes(FILE *f, const struct rset *rs, size_t blk, const size_t *order,
    size_t shown_rows)
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
		any |= latency_line(f, bn, who, &c->lat, NAN);
		any |= latency_line(f, bn, who, &c->probe, c->skipped);
	}
	return any;
}

#define ENV_FIELDS 12

/* Field w of a row's environment, as the report prints it. */
static const char *
env_value(char *buf, size_t len, const struct rrun *e, int w)
{
	switch (w) {
	case 0: snprintf(buf, len, "%s", e->host); break;
	case 1: snprintf(buf, len, "%s", e->kernel ? e->kernel : "?"); break;
	case 2: snprintf(buf, len, "%s", e->cpu_model ? e->cpu_model : "?"); break;
	case 3: snprintf(buf, len, "%ld CPUs", e->nproc); break;
	case 4: snprintf(buf, len, "%.1f GiB", (double)e->mem_kb / 1048576); break;
	case 5: snprintf(buf, len, "contest %s", e->version ? e->version : "?"); break;
	case 6: snprintf(buf, len, "%s", e->sched && *e->sched ? e->sched :
	    "default scheduling"); break;
	case 7: snprintf(buf, len, "%s", e->command); break;
	case 8:
		if (e->governor && e->freq_max_khz > 0)
			snprintf(buf, len, "cpufreq %s, max %lld MHz", e->governor,
			    e->freq_max_khz / 1000);
		else if (e->governor)
			snprintf(buf, len, "cpufreq %s", e->governor);
		else
			snprintf(buf, len, "no cpufreq");
		break;
	case 9: snprintf(buf, len, "SMT %s", e->smt < 0 ? "unknown" : e->smt ? "on" : "off"); break;
	case 11:
		snprintf(buf, len, "%s%s", e->prepare ? e->prepare : "none",
		    e->prepare_inferred > 0 ? " (inferred: a make job)" : "");
		break;
	default: snprintf(buf, len, "clocksource %s", e->clocksource ? e->clocksource : "unknown"); break;
	}
	return buf;
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

/* "HZ 250 vs 1000" into the list when a and b differ (NULL and -1: not
 * recorded, so nothing to tell). */
static void
differ_str(char *buf, size_t len, const char *name, const char *a,
    const char *b, int show)
{
	size_t used = strlen(buf);

	if (a == NULL || b == NULL || a == b || used >= len)
		return;		/* interned: the same text is the same pointer */
	if (show)
		snprintf(buf + used, len - used, "%s%s %s vs %s", used ? ", " : "",
		    name, a, b);
	else
		snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name);
}

static void
differ_num(char *buf, size_t len, const char *name, long a, long b)
{
	char x[32], y[32];

	if (a < 0 || b < 0 || a == b)
		return;
	snprintf(x, sizeof x, "%ld", a);
	snprintf(y, sizeof y, "%ld", b);
	size_t used = strlen(buf);
	if (used < len)
		snprintf(buf + used, len - used, "%s%s %s vs %s", used ? ", " : "",
		    name, x, y);
}

/*
 * Per pair of rows, what differed besides the label, so that a table
 * never silently compares two things at once: "6.1 vs 6.18: kernel, HZ
 * 250 vs 1000, sched_ext none vs enabled scx_lavd".
 */
void
differ_lines(FILE *f, const struct rset *rs, const size_t *rows, size_t nrows,
    int md)
{
	for (size_t i = 1; i < nrows; i++) {
		const struct rrun *a = rs->row[rows[i - 1]].env, *b = rs->row[rows[i]].env;
		char what[1024] = "";
		differ_str(what, sizeof what, "kernel", a->kernel, b->kernel, 0);
		size_t kernel_only = strlen(what);	/* the environment lines say it */
		differ_str(what, sizeof what, "build", rs->row[rows[i - 1]].build_id,
		    rs->row[rows[i]].build_id, 1);
		differ_num(what, sizeof what, "HZ", a->hz, b->hz);
		differ_str(what, sizeof what, "sched_ext", a->sched_ext, b->sched_ext, 1);
		differ_str(what, sizeof what, "preempt", a->preempt, b->preempt, 1);
		differ_num(what, sizeof what, "autogroup", a->autogroup, b->autogroup);
		differ_str(what, sizeof what, "config", a->config_sha256,
		    b->config_sha256, 0);
		differ_str(what, sizeof what, "cmdline", a->cmdline, b->cmdline, 0);
		differ_str(what, sizeof what, "mitigations", a->mitigations,
		    b->mitigations, 1);
		differ_str(what, sizeof what, "THP", a->thp, b->thp, 1);
		differ_str(what, sizeof what, "git HEAD", a->git_head, b->git_head, 0);
		differ_num(what, sizeof what, "tree dirty", a->git_dirty, b->git_dirty);
		differ_str(what, sizeof what, "cc", a->cc, b->cc, 0);
		differ_str(what, sizeof what, "ld", a->ld, b->ld, 0);
		if (strlen(what) > kernel_only)
			fprintf(f, "%s%s vs %s: %s\n", md ? "- " : "",
			    rs->row[rows[i - 1]].name, rs->row[rows[i]].name, what);
	}
}

/*
 * What differed between the rows shown: host, kernel, CPU, nproc,
 * memory, contest version; or, when nothing did, the one environment.
 */
void
env_lines(FILE *f, const struct rset *rs, const size_t *rows, size_t nrows, int md)
{
	static const char *const what[ENV_FIELDS] = {
		"host", "kernel", "cpu", "nproc", "memory", "contest", "sched",
		"command", "cpufreq", "smt", "clock", "prepare",
	};
	char first[ENV_FIELDS][128], v[128];
	int varies[ENV_FIELDS] = { 0 }, any = 0;

	if (nrows == 0)
		return;
	for (int w = 0; w < ENV_FIELDS; w++) {
		env_value(first[w], sizeof first[w], rs->row[rows[0]].env, w);
		for (size_t i = 1; i < nrows; i++)
			if (strcmp(env_value(v, sizeof v, rs->row[rows[i]].env, w),
			    first[w]) != 0)
				varies[w] = any = 1;
	}
	if (!any) {
		fprintf(f, "%senvironment: %s, %s, %s, %s, %s, %s, %s, %s, %s, %s\n"
		    "%scommand: %s\n%sprepare: %s\n", md ? "- " : "", first[0],
		    first[1], first[2], first[3], first[4], first[8], first[9],
		    first[10], first[5], first[6], md ? "- " : "", first[7],
		    md ? "- " : "", first[11]);
		return;
	}
	fprintf(f, "%senvironment differs between the rows compared:\n", md ? "- " : "");
	for (int w = 0; w < ENV_FIELDS; w++) {
		if (!varies[w])
			continue;
		fprintf(f, "%s%-8s", md ? "  - " : "  ", what[w]);
		for (size_t i = 0; i < nrows; i++)
			fprintf(f, "%s %s: %s", i ? "," : "", rs->row[rows[i]].name,
			    env_value(v, sizeof v, rs->row[rows[i]].env, w));
		fputc('\n', f);
	}
}

/* What a ? after Time means, naming only the reasons this table can have. */
void
noisy_legend(FILE *f, const struct rset *rs, const char *li, const char *advice)
{
	const char *why[4];
	char cv[64], thin[64];
	int n = 0, scx = 0;

	for (size_t k = 0; k < rs->nrow * rs->nblk; k++)
		scx |= rs->cell[k].scx_changed > 0;
	snprintf(cv, sizeof cv, "CoV of Time above %.0f%%", RSET_NOISY_CV * 100);
	snprintf(thin, sizeof thin, "fewer than %d runs", RSET_MIN_RUNS);
	why[n++] = cv;
	why[n++] = thin;
	if (rs->keep_suspect)
		why[n++] = "runs that may have done no work kept in";
	if (scx)
		why[n++] = "sched_ext changed during a run";
	fprintf(f, "%s?", li);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%s", i == 0 ? " " : i == n - 1 ? n > 2 ? ", or " : " or " :
		    ", ", why[i]);
	fprintf(f, ": read with care%s.\n", advice);
}

static void
footnotes(FILE *f, const struct rset *rs, const size_t *rows, size_t nrows,
    int noisy, int cols, int md)
{
	const char *li = md ? "- " : "";	/* one Markdown list item per note */
	int left_out = 0;

	for (size_t k = 0; k < rs->nrow * rs->nblk && !rs->keep_suspect; k++)
		left_out |= rs->cell[k].nsuspect > 0;
	fprintf(f, "%sTime in seconds, mean \xc2\xb1 sample sd; Ratio: Time over the "
	    "same kernel's no_load mean \xc2\xb1 the half-width of its CI95 (delta "
	    "method, Welch df), ? where a side has fewer than 2 runs.\n", li);
	if (cols & COL_PROBE)
		fprintf(f, "%sLat p99: the probe's wake-up lateness, pooled over the "
		    "wake-ups it had (a starved probe skips deadlines: how many is "
		    "under the block); Met%%: deadlines met over every deadline that "
		    "passed while the job ran, a skipped one missed.\n", li);
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
	int cols = stats ? COL_STATS : 0;

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
		struct trow t;

		if (md) {
			fprintf(f, "### %s\n\n| Kernel | Runs | %s | %s | %s | "
			    "Loads | %s | %s | Ratio |%s%s\n"
			    "|---|--:|--:|--:|--:|--:|--:|--:|--:|%s%s\n",
			    rs->blk[b].name, figures[FIG_WALL].head, figures[FIG_CPU].head,
			    figures[FIG_WAIT].head, figures[FIG_LOADP].head,
			    figures[FIG_LCPU].head, cols & COL_PROBE ? " Lat p99 | Met% |" : "",
			    stats ? " CoV | Min | Median | Max | CI95 |" : "",
			    cols & COL_PROBE ? "--:|--:|" : "",
			    stats ? "--:|--:|--:|--:|--:|" : "");
		} else {
			fprintf(f, "%s:\n", rs->blk[b].name);
			table_head(f, cols);
		}
		size_t nshown = 0;
		for (size_t i = 0; i < rs->nrow; i++) {
			const struct rcell *c = rset_cell(rs, o[i], b);
			if (!rcell_ran(c))
				continue;	/* this kernel never ran this load */
			nshown++;
			trow_of(&t, rs, o[i], b);
			if (md)
				md_line(f, &t, cols);
			else
				table_line(f, &t, cols);
			noisy |= c->noisy;
		}
		if (md)
			fputc('\n', f);
		int notes = block_notes(f, rs, b, o, nshown);
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
