/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare in text and Markdown: per load the labels side by side in
 * mmtests' rows, each candidate's change marked where significant, and
 * under each gated figure MinDetect; then the legend, and each
 * candidate's verdict, the gate's one line.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "util.h"

/* A row's value as the tables print it; "-" for none. */
static const char *
fig_text(char *buf, size_t len, const struct column *k, double v, const struct rcell *c)
{

	if (isnan(v))
		return snprintf(buf, len, "-"), buf;
	switch (k->form) {
	case VF_RATE: {		/* a level where the headline has no rate */
		int rate = 0;
		for (size_t i = 0; i < c->nc; i++)
			if (c->c[i].name == c->headline)
				rate = !isnan(c->c[i].rate);
		snprintf(buf, len, "%.*f%s", v >= 100 ? 0 : 2, v, rate ? "/s" : "");
		break;
	}
	case VF_LAT:
		lat_text(buf, len, v, lat_sig(&c->probe));
		break;
	default:
		snprintf(buf, len, "%.*f", k->dec, v);
	}
	return buf;
}

/* "(  +1.23%)", "*  +1.23%*" where significant, or nothing. */
static const char *
change_text(char *buf, size_t len, const struct cmpval *v, int base, int md)
{
	if (isnan(v->v) || isnan(v->pct))
		snprintf(buf, len, md ? "" : "%11s", isnan(v->v) ? "" : "-");
	else if (base)
		snprintf(buf, len, md ? "(0.00%%)" : "(    0.00%%)");
	else if (md)
		snprintf(buf, len, v->sig ? "\\*%+.2f%%\\*" : "(%+.2f%%)", v->pct);
	else
		snprintf(buf, len, "%c%+8.2f%%%c", v->sig ? '*' : '(', v->pct,
		    v->sig ? '*' : ')');
	return buf;
}

static const char *
pval(char *buf, size_t len, double p)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p < 0.0001)
		snprintf(buf, len, "<0.0001");
	else
		snprintf(buf, len, "%.4f", p);
	return buf;
}

/* "CI95", "CI99.9": the interval at the table's alpha. */
static const char *
ci_name(char *buf, size_t len, double alpha)
{
	snprintf(buf, len, "CI%.4g", (1 - alpha) * 100);
	return buf;
}

/* How a candidate was tested: "paired over 5 rounds", "unpaired". */
static const char *
tested_how(char *buf, size_t len, const struct cmpcol *c)
{
	if (c->npaired == 0)
		snprintf(buf, len, "unpaired");
	else if (c->pairs_min == c->pairs_max)
		snprintf(buf, len, "paired over %zu rounds", c->pairs_min);
	else
		snprintf(buf, len, "paired over %zu to %zu rounds", c->pairs_min,
		    c->pairs_max);
	if (c->npaired && c->nunpaired)
		snprintf(buf + strlen(buf), len - strlen(buf), ", %zu unpaired",
		    c->nunpaired);
	cmp_boots_how(buf + strlen(buf), len - strlen(buf), c);
	return buf;
}

/* What an unpaired test over boots was, for the legend's Test line. */
static const char *
boots_how(const struct cmpcol *c)
{
	if (c->nwelch == 0)
		return " (no rounds of one session in common: over boots, the "
		    "two-level model)";
	if (c->nwelch == c->nboots)
		return " (no rounds of one session in common: over boots at "
		    "unequal counts, Welch's t on the boot means, the more cautious)";
	return " (no rounds of one session in common: over boots, the two-level "
	    "model, or at unequal counts Welch's t on the boot means where the "
	    "more cautious)";
}

/* The gated figures of candidate k with verdict want: "LOAD FIG +x.x%
 * (CI95 a..b%[, p=P])", a comma between two. */
static void
name_figures(FILE *f, const struct cmp *m, size_t k, enum cmp_verdict want)
{
	char name[512], ci[16];
	int first = 1;

	for (size_t g = 0; g < m->ng; g++) {
		const struct cmpgroup *gr = &m->g[g];
		for (int fig = 0; fig < cmp_nfig(m->rs); fig++) {
			const struct cmpval *v = &gr->val[fig * m->ncol + k];
			if (!v->gated || v->verdict != want)
				continue;
			fprintf(f, "%s%s %s", first ? "" : ", ",
			    cmp_group_name(name, sizeof name, m, gr), cmp_fig(m->rs, fig)->head);
			first = 0;
			if (v->t.kind == CT_NONE) {
				fputs(" (not tested: fewer than 2 runs on a side)", f);
				continue;
			}
			fprintf(f, " %+.1f%% (%s %+.1f..%+.1f%%", v->est_pct,
			    ci_name(ci, sizeof ci, m->alpha), v->lo_pct, v->hi_pct);
			if (want == CV_REGRESSION || want == CV_IMPROVEMENT ||
			    v->runs_said == CV_REGRESSION || v->runs_said == CV_IMPROVEMENT)
				fprintf(f, ", p=%.2g", m->holm ? v->padj : v->p);
			if (v->runs_said == CV_REGRESSION || v->runs_said == CV_IMPROVEMENT)
				fputs(v->t.by_session ? ", possibly the session" :
				    ", possibly the boot", f);
			fputc(')', f);
		}
	}
}

/* The loads a run of which failed under candidate k: "fork_load 3 of 3". */
static void
name_failed(FILE *f, const struct cmp *m, size_t k)
{
	char name[512];
	const char *sep = "";

	for (size_t g = 0; g < m->ng; g++) {
		const struct rcell *c = m->g[g].cell[k];
		if (!cmp_load_failed(&m->g[g], k))
			continue;
		fprintf(f, "%s%s %zu of %zu", sep, cmp_group_name(name, sizeof name, m,
		    &m->g[g]), c->failed, c->ok + c->failed + c->nsuspect);
		sep = ", ";
	}
}

/* The loads candidate k ran where every run of the baseline failed, and
 * those the baseline ran that k has no measured run of. */
static void
name_not_compared(FILE *f, const struct cmp *m, size_t k, int after)
{
	char name[512];

	for (size_t g = 0; g < m->ng; g++) {
		const struct cmpgroup *gr = &m->g[g];
		if (cmp_base_failed(gr, k))
			fprintf(f, "%s%s (every run of %s failed: nothing to compare)",
			    after ? ", " : "", cmp_group_name(name, sizeof name, m, gr),
			    m->col[0].label);
		else if (cmp_not_run(gr, k))
			fprintf(f, "%s%s (no measured run under %s: not run, or only "
			    "its warmup)", after ? ", " : "", cmp_group_name(name,
			    sizeof name, m, gr), m->col[k].label);
		else
			continue;
		after = 1;
	}
}

void
compare_verdict(FILE *f, const struct cmp *m)
{
	char name[512], how[320], ci[16];

	for (size_t k = 1; k < m->ncol; k++) {
		const struct cmpcol *c = &m->col[k];
		size_t figs = 0;
		for (int v = CV_NONE + 1; v < CV_FIGS; v++)
			figs += c->nverdict[v];
		fprintf(f, "%s against %s: %s (%s)", c->label, m->col[0].label,
		    cmp_verdict_names[c->verdict], tested_how(how, sizeof how, c));
		const char *sep = ": ";
		if (c->failed) {
			fprintf(f, "%s%zu of %zu run%s failed under it: ", sep,
			    c->failed_runs, c->failed_of, c->failed_of == 1 ? "" : "s");
			name_failed(f, m, k);
			sep = "; ";
		}
		if (c->nverdict[CV_REGRESSION]) {
			fprintf(f, "%s%zu of %zu load%s regressed beyond %g%%: ", sep,
			    c->regressed, c->compared, c->compared == 1 ? "" : "s",
			    m->threshold);
			name_figures(f, m, k, CV_REGRESSION);
			sep = "; ";
		}
		if (c->nverdict[CV_CANTTELL]) {
			fprintf(f, "%sundecided: ", sep);
			name_figures(f, m, k, CV_CANTTELL);
			name_not_compared(f, m, k, c->nverdict[CV_CANTTELL] >
			    c->base_failed + c->not_run);
			sep = "; ";
		}
		if (c->nverdict[CV_IMPROVEMENT]) {
			fprintf(f, "%simproved beyond %g%%: ", sep, m->threshold);
			name_figures(f, m, k, CV_IMPROVEMENT);
			sep = "; ";
		}
		if (c->nverdict[CV_NOCHANGE])
			fprintf(f, "%s%zu of %zu gated figure%s within \xc2\xb1%g%% (%s)",
			    sep, c->nverdict[CV_NOCHANGE], figs, figs == 1 ? "" : "s",
			    m->threshold, ci_name(ci, sizeof ci, m->alpha));
		/* what the rule as a whole would have caught: not over one
		 * boot a side, whose runs cannot see a boot's share */
		if (c->nonesession && c->verdict != CV_FAILED)
			fputs("; to tell, run both in one session's rounds "
			    "(--variant), or one label over two sessions", f);
		else if (c->noneboot && c->verdict != CV_FAILED)
			fputs("; to tell, boot one kernel twice for this host's boot "
			    "spread (contest plan sizes the boots)", f);
		else if (!isnan(c->gate_pct) && c->verdict != CV_REGRESSION &&
		    c->verdict != CV_FAILED)
			fprintf(f, "; a regression of %.1f%%%s would be caught with %.0f%% "
			    "power (%s %s)", c->gate_pct, cmp_fig(m->rs, c->gate_fig)->worse <
			    0 ? " (a fall)" : "", CMP_POWER * 100,
			    cmp_group_name(name, sizeof name, m, &m->g[c->gate_g]),
			    cmp_fig(m->rs, c->gate_fig)->head);
		fputc('\n', f);
	}
}

/* The legend under every compare table. */
static void
compare_legend(FILE *f, const struct cmp *m, int noisy, int md)
{
	const char *li = md ? "- " : "";
	char ci[16], how[320];
	double astrict = m->holm && m->family ? m->alpha / (double)m->family : m->alpha;

	ci_name(ci, sizeof ci, m->alpha);
	fprintf(f, "%sChange: each label against %s; %s where significant at "
	    "alpha %g%s: paired where both labels ran in one session's rounds (a "
	    "t-test on each round's difference of log Time, of log Ratio, or of "
	    "the figure), else Welch's t-test on the runs' values (Ratio: a t-test "
	    "on the two ratios' delta-method standard errors, Welch-Satterthwaite "
	    "df); ", li, m->col[0].label, md ? "\\*+x.xx%\\*" : "*  +x.xx%*",
	    m->alpha, m->looks > 1 ? " (one of the loop's looks)" : "");
	if (m->holm)
		fprintf(f, "Holm-Bonferroni over the table's %zu gated test%s (its "
		    "other %zu uncorrected).\n", m->family, m->family == 1 ? "" : "s",
		    m->ntests - m->family);
	else
		fprintf(f, "no correction for the table's %zu gated test%s (of %zu; "
		    "--holm applies Holm-Bonferroni to them).\n", m->family,
		    m->family == 1 ? "" : "s", m->ntests);
	if (m->looks > 1)
		fprintf(f, "%sLooks: this is one of at most %u looks of a loop that "
		    "stops once decided: alpha %g over %u (Bonferroni), so the loop's "
		    "error holds.\n", li, m->looks, m->alpha * m->looks, m->looks);
	for (size_t k = 1; k < m->ncol; k++)
		fprintf(f, "%sTest: %s against %s: %s%s.\n", li, m->col[k].label,
		    m->col[0].label, tested_how(how, sizeof how, &m->col[k]),
		    m->col[k].npaired ? " of one session" : m->col[k].nboots == 0 ?
		    " (no rounds of one session in common: Welch)" :
		    m->col[k].nboots == m->col[k].nunpaired ? boots_how(&m->col[k]) :
		    " (no rounds of one session in common: over boots, the "
		    "two-level model, where the boots allow it, else Welch)");
	cmp_boots_legend(f, m, li);
	fprintf(f, "%sTime in seconds; Min to BAmean-50 as mmtests computes them "
	    "(Stddev over n-1; BAmean-50: the mean of the int(n/2) fastest runs, "
	    "at least one), but a change is + for a rise (mmtests' sign is + for "
	    "better), and a tested figure's is its test's own estimate, the one "
	    "its verdict judges (paired: over the rounds both ran only); Loads: the headline per second of "
	    "job time (a level where no /s); p99/run: the mean of the runs' own "
	    "p99s of the probe's wake-up lateness, and Met%%/run the mean of "
	    "their Met%%, as tested (the report's Lat p99 and Met%% pool every "
	    "run's wake-ups: --format json gives them as pooled).\n", li);
	for (size_t k = 0; k < m->rs->njm; k++) {
		const struct rmetric *jm = &m->rs->jm[k];
		fprintf(f, "%s%s%s%s%s%s", k ? "" : li, k ? ", " : "Job metrics "
		    "(--job-metric: the mean of each run's figure read from the job's "
		    "output; + for a rise): ", jm->name, jm->unit ? " in " : "",
		    jm->unit ? jm->unit : "", jm->higher ? " (higher is better)" :
		    " (lower is better)");
		if (k + 1 == m->rs->njm)
			fputs(".\n", f);
	}
	fprintf(f, "%sMinDetect: under each gated figure, the change its test "
	    "finds with %.0f%% power at alpha %g%s, from the runs' own spread (the "
	    "noncentral t, over both sides' estimated variances for an unpaired "
	    "test), in %% of %s's value; more runs narrow it.\n", li,
	    CMP_POWER * 100, astrict, m->holm ? " (Holm's strictest step)" : "",
	    m->col[0].label);
	fprintf(f, "%sVerdict per gated figure: regression: worse, significant "
	    "(two-sided at alpha %g: called at most %g of the time where it is no "
	    "worse) and its estimate beyond %g%% (so a true change d under %g%% "
	    "reads as one about Phi((d - %g%%) / SE) of the time: 16%% at one SE under); "
	    "improvement: better, the same; no change: its change's %s within "
	    "\xc2\xb1%g%% (two one-sided tests, each at alpha / 2 = %g); can't "
	    "tell: none of these.  A candidate's is failed where a run of any load "
	    "failed under it (exit 1, as a regression), else the first its figures "
	    "reach of those four; the power it states is the whole rule's, threshold "
	    "and test together (--strict exits 3 on can't tell).\n", li, m->alpha,
	    m->alpha / 2, m->threshold, m->threshold, m->threshold, ci, m->threshold,
	    m->alpha / 2);
	if (noisy)
		noisy_legend(f, m->rs, li, "");
}

/* Loads some labels never ran: named, not silently dropped. */
static void
compare_missing(FILE *f, const struct cmp *m, int md)
{
	char name[512];

	for (size_t g = 0; g < m->ng; g++) {
		const struct cmpgroup *gr = &m->g[g];
		if (gr->nran == m->ncol)
			continue;
		fprintf(f, "%s%s: ", md ? "- " : "", cmp_group_name(name, sizeof name, m, gr));
		if (gr->nran == 0)
			fputs("every run failed", f);
		else {
			fputs("successful runs only under", f);
			int first = 1;
			for (size_t k = 0; k < m->ncol; k++)
				if (gr->cell[k] && gr->cell[k]->ok) {
					fprintf(f, "%s %s", first ? "" : ",", m->col[k].label);
					first = 0;
				}
		}
		fputs(" (not compared where it is missing)\n", f);
	}
}

/* Under a gated figure: the smallest change each candidate's test could
 * have found, where one was tested. */
static void
mde_row(FILE *f, const struct cmp *m, const struct cmpgroup *gr, int fig, int w,
    int md)
{
	char v[64];
	int any = 0;

	for (size_t k = 1; k < m->ncol; k++) {
		const struct cmpval *x = &gr->val[fig * m->ncol + k];
		any |= x->gated && !isnan(x->mde_pct);
	}
	if (!any)
		return;
	if (md)
		fprintf(f, "| MinDetect %s |", cmp_fig(m->rs, fig)->head);
	else
		fprintf(f, "%-9s %-8s", "MinDetect", cmp_fig(m->rs, fig)->head);
	for (size_t k = 0; k < m->ncol; k++) {
		const struct cmpval *x = &gr->val[fig * m->ncol + k];
		if (k == 0 || isnan(x->mde_pct))
			snprintf(v, sizeof v, "%s", k ? "-" : "");
		else
			snprintf(v, sizeof v, "%.2f%%", x->mde_pct);
		if (md)
			fprintf(f, " %s |", v);
		else
			fprintf(f, " %*s", w, v);
	}
	fputc('\n', f);
}

/* A load's heading: its name, the labels, and (stats) each one's runs. */
static void
cmp_heading(FILE *f, const struct cmp *m, const struct cmpgroup *gr, int first,
    int w, int stats, int md)
{
	char name[512], v[64];

	cmp_group_name(name, sizeof name, m, gr);
	if (md) {
		fprintf(f, "%s**%s**\n\n|  |", first ? "" : "\n", name);
		for (size_t k = 0; k < m->ncol; k++)
			fprintf(f, " %s |", m->col[k].label);
		fputs("\n|---|", f);
		for (size_t k = 0; k < m->ncol; k++)
			fputs("--:|", f);
		fputc('\n', f);
	} else {
		fprintf(f, "%s%-18s", first ? "" : "\n", name);
		for (size_t k = 0; k < m->ncol; k++)
			fprintf(f, " %*s", w, m->col[k].label);
		fputc('\n', f);
	}
	if (!stats)
		return;
	fprintf(f, md ? "| Runs |" : "%-18s", md ? "" : "Runs");
	for (size_t k = 0; k < m->ncol; k++) {
		const struct rcell *cl = gr->cell[k];
		snprintf(v, sizeof v, "%zu", cl ? cl->ok : 0);
		if (cl && cl->failed)
			snprintf(v + strlen(v), sizeof v - strlen(v), "+%zu failed",
			    cl->failed);
		if (md)
			fprintf(f, " %s |", v);
		else
			fprintf(f, " %*s", w, v);
	}
	fputc('\n', f);
}

/* One figure's rows: each label's value and change, the smallest change
 * the test could see, and (stats) the p values; 1 if a cell is noisy. */
static int
cmp_figure_rows(FILE *f, const struct cmp *m, const struct cmpgroup *gr, int fig,
    int w, int stats, int md)
{
	char v[64], c[64];
	int noisy = 0;

	if (md)
		fprintf(f, "| %s %s |", cmp_fig(m->rs, fig)->stat, cmp_fig(m->rs, fig)->head);
	else
		fprintf(f, "%-9s %-8s", cmp_fig(m->rs, fig)->stat, cmp_fig(m->rs, fig)->head);
	for (size_t k = 0; k < m->ncol; k++) {
		const struct cmpval *x = &gr->val[fig * m->ncol + k];
		/* the ? of a noisy cell sits between value and change */
		int mark = fig == CF_AMEAN && gr->cell[k] && gr->cell[k]->ok &&
		    gr->cell[k]->noisy;
		fig_text(v, sizeof v, cmp_fig(m->rs, fig), x->v, gr->cell[k]);
		change_text(c, sizeof c, x, k == 0, md);
		if (md)
			fprintf(f, " %s%s%s%s |", v, mark ? "?" : "", *c ? " " : "", c);
		else
			fprintf(f, " %*s%c%s", w - 12, v, mark ? '?' : ' ', c);
		noisy |= mark;
	}
	fputc('\n', f);
	mde_row(f, m, gr, fig, w, md);
	if (!stats || !cmp_fig(m->rs, fig)->worse || m->ncol < 2)
		return noisy;
	/* Holm corrects the gated tests, the gate's family, alone */
	int holm = m->holm && (CMP_GATE(fig) & m->gate);
	if (md)
		fprintf(f, "| p%s %s |", holm ? "(Holm)" : "", cmp_fig(m->rs, fig)->head);
	else
		fprintf(f, "  p%-6s %-8s", holm ? "(Holm)" : "", cmp_fig(m->rs, fig)->head);
	for (size_t k = 0; k < m->ncol; k++) {
		const struct cmpval *x = &gr->val[fig * m->ncol + k];
		pval(v, sizeof v, holm ? x->padj : x->p);
		if (md)
			fprintf(f, " %s |", k ? v : "");
		else
			fprintf(f, " %*s", w, k ? v : "");
	}
	fputc('\n', f);
	return noisy;
}

void
compare_text(FILE *f, const struct cmp *m, int stats, int md)
{
	const struct rset *rs = m->rs;
	int noisy = 0, w = 20;

	for (size_t k = 0; k < m->ncol; k++)
		if ((int)strlen(m->col[k].label) > w)
			w = (int)strlen(m->col[k].label);
	for (size_t g = 0; g < m->ng; g++) {
		const struct cmpgroup *gr = &m->g[g];
		cmp_heading(f, m, gr, g == 0, w, stats, md);
		for (int fig = 0; fig < cmp_nfig(m->rs); fig++)
			if (gr->shown[fig])
				noisy |= cmp_figure_rows(f, m, gr, fig, w, stats, md);
	}
	fputc('\n', f);
	compare_legend(f, m, noisy, md);
	compare_missing(f, m, md);
	size_t *rows = xcalloc(m->ncol, sizeof *rows);
	for (size_t k = 0; k < m->ncol; k++)
		rows[k] = m->col[k].rows[0];
	env_lines(f, rs, rows, m->ncol, md);
	differ_lines(f, rs, rows, m->ncol, md);
	free(rows);
	if (md)
		fputc('\n', f);
	compare_verdict(f, m);
}

