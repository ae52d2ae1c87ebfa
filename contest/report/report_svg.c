/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The SVG chart, drawn by contest itself: grouped bars of Ratio per load
 * for each kernel with CI95 error bars, then a strip of every run's Time
 * per load and kernel so an outlier shows.  Plain SVG 1.1; every bar
 * and dot carries a <title> a browser shows on hover.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "util.h"

#define SLOT	24	/* px per kernel within a load's group */
#define GAP	28	/* px between groups */
#define LEFT	64
#define PANEL	240	/* plot height of each panel */

static const char *const colour[] = {
	"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
	"#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
};
#define NCOLOUR (sizeof colour / sizeof colour[0])

/* A tick step of 1, 2 or 5 times a power of ten giving at most 6 ticks. */
static double
tick_step(double max)
{
	double p = pow(10, floor(log10(max / 5)));

	for (int i = 0; i < 3; i++) {
		double s = p * (i == 0 ? 1 : i == 1 ? 2 : 5);
		if (max / s <= 6)
			return s;
	}
	return p * 10;
}

/* Axis, grid and tick labels of a panel whose plot spans y0..y0+h. */
static void
axis(FILE *f, double y0, double width, double max, const char *title, double h)
{
	double step = tick_step(max);

	fprintf(f, "<text x=\"%d\" y=\"%.0f\" class=\"title\">", LEFT, y0 - 14);
	xml_text(f, title);
	fputs("</text>\n", f);
	for (double v = 0; v <= max + step / 1e6; v += step) {
		double y = y0 + h - v / max * h;
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" "
		    "class=\"grid\"/>\n<text x=\"%d\" y=\"%.1f\" class=\"tick\">%g</text>\n",
		    LEFT, y, width - 10, y, LEFT - 6, y + 4, v);
	}
	fprintf(f, "<line x1=\"%d\" y1=\"%.0f\" x2=\"%d\" y2=\"%.0f\" class=\"axis\"/>\n"
	    "<line x1=\"%d\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" class=\"axis\"/>\n",
	    LEFT, y0, LEFT, y0 + h, LEFT, y0 + h, width - 10, y0 + h);
}

static void
group_label(FILE *f, double x, double y, const char *name)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" class=\"group\">", x, y);
	xml_text(f, name);
	fputs("</text>\n", f);
}

/* A group's width: its bars, and room for the load's name under them. */
static double
group_width(size_t nrow)
{
	double w = (double)(nrow * SLOT);

	return w < 96 ? 96 : w;
}

/* One bar of the Ratio panel at x: its cell's Ratio, and its CI95 as an
 * error bar. */
static void
ratio_bar(FILE *f, const struct rset *rs, size_t b, size_t r, double x,
    double y0, double rmax)
{
	const struct rcell *c = rset_cell(rs, r, b);
	double h = c->ratio / rmax * PANEL;

	fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%d\" "
	    "height=\"%.1f\" fill=\"%s\"><title>", x, y0 + PANEL - h,
	    SLOT - 4, h, colour[r % NCOLOUR]);
	xml_text(f, rs->blk[b].name);
	fputs(", ", f);
	xml_text(f, rs->row[r].name);
	fprintf(f, ": ratio %.3f", c->ratio);
	if (!isnan(c->ratio_ci95))
		fprintf(f, " \xc2\xb1 %.3f (CI95)", c->ratio_ci95);
	fprintf(f, ", %zu runs</title></rect>\n", c->ok);
	if (!isnan(c->ratio_ci95)) {
		double cx = x + (SLOT - 4) / 2.0;
		double lo = y0 + PANEL - (c->ratio - c->ratio_ci95) / rmax * PANEL;
		double hi = y0 + PANEL - (c->ratio + c->ratio_ci95) / rmax * PANEL;
		if (lo > y0 + PANEL)
			lo = y0 + PANEL;
		fprintf(f, "<path class=\"err\" d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1f"
		    "M%.1f %.1fH%.1f\"/>\n", cx, lo, hi, cx - 4, hi, cx + 4,
		    cx - 4, lo, cx + 4);
	}
}

/* Panel 1: Ratio bars, no_load (always 1) as the dashed line. */
static void
ratio_panel(FILE *f, const struct rset *rs, double y0, double width, double rmax,
    double gw)
{
	size_t nrow = rs->nrow;
	int have_ratio = rs->base < rs->nblk;

	axis(f, y0, width, rmax, have_ratio ? "Ratio to no_load per load "
	    "(mean, error bar: 95% CI)" : "Ratio: no no_load runs, nothing to "
	    "divide by", PANEL);
	if (have_ratio) {
		double y1 = y0 + PANEL - 1 / rmax * PANEL;
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" "
		    "class=\"one\"/>\n", LEFT, y1, width - 10, y1);
	}
	size_t g = 0;
	for (size_t b = 0; have_ratio && b < rs->nblk; b++) {
		if (b == rs->base)
			continue;
		double gx = LEFT + GAP / 2.0 + (double)g++ * (gw + GAP);
		for (size_t i = 0; i < nrow; i++) {
			size_t r = rs->order[i];	/* one legend order for every group */
			const struct rcell *c = rset_cell(rs, r, b);
			if (isnan(c->ratio))
				continue;
			ratio_bar(f, rs, b, r, gx + (gw - (double)(nrow * SLOT)) / 2 +
			    (double)i * SLOT + 2, y0, rmax);
		}
		group_label(f, gx + gw / 2, y0 + PANEL + 16,
		    rs->blk[b].name);
	}
}

/* Panel 2: every successful run's Time, and each cell's mean. */
static void
time_panel(FILE *f, const struct rset *rs, double y0, double width, double tmax,
    double gw)
{
	size_t nrow = rs->nrow;

	axis(f, y0, width, tmax, "Time of every run in seconds (dots; bar: mean)",
	    PANEL);
	for (size_t b = 0; b < rs->nblk; b++) {
		double gx = LEFT + GAP / 2.0 + (double)b * (gw + GAP);
		for (size_t i = 0; i < nrow; i++) {
			size_t r = rs->order[i];
			const struct rcell *c = rset_cell(rs, r, b);
			double cx = gx + (gw - (double)(nrow * SLOT)) / 2 + (double)i * SLOT +
			    SLOT / 2.0;
			for (size_t k = 0; k < c->ok; k++) {
				/* a small spread sideways so equal times stay visible */
				double dx = c->ok > 1 ? ((double)k / (double)(c->ok - 1) - 0.5) * 10 : 0;
				fprintf(f, "<circle class=\"run\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
				    "fill=\"%s\" fill-opacity=\"0.7\"><title>", cx + dx,
				    y0 + PANEL - c->wall[k] / tmax * PANEL, colour[r % NCOLOUR]);
				xml_text(f, rs->blk[b].name);
				fputs(", ", f);
				xml_text(f, rs->row[r].name);
				fprintf(f, ": run %zu, %.3f s</title></circle>\n", k + 1, c->wall[k]);
			}
			if (c->ok)
				fprintf(f, "<line class=\"mean\" x1=\"%.1f\" y1=\"%.1f\" "
				    "x2=\"%.1f\" y2=\"%.1f\"/>\n", cx - 8,
				    y0 + PANEL - rcell_fig(c, FIG_WALL)->mean / tmax * PANEL, cx + 8,
				    y0 + PANEL - rcell_fig(c, FIG_WALL)->mean / tmax * PANEL);
		}
		group_label(f, gx + gw / 2, y0 + PANEL + 16,
		    rs->blk[b].name);
	}
}

/* The legend: one swatch per kernel. */
static void
legend(FILE *f, const struct rset *rs, double legend_y)
{
	size_t nrow = rs->nrow;

	for (size_t i = 0; i < nrow; i++) {
		size_t r = rs->order[i];
		double y = legend_y + 22 * (double)i;
		fprintf(f, "<rect x=\"%d\" y=\"%.0f\" width=\"14\" height=\"14\" "
		    "fill=\"%s\"/>\n<text x=\"%d\" y=\"%.0f\">", LEFT, y,
		    colour[r % NCOLOUR], LEFT + 20, y + 12);
		xml_text(f, rs->row[r].name);
		fputs("</text>\n", f);
	}
}

static void
draw(FILE *f, const void *arg)
{
	const struct rset *rs = arg;
	size_t groups = 0, nrow = rs->nrow;
	double rmax = 0, tmax = 0;

	for (size_t b = 0; b < rs->nblk; b++) {
		if (b != rs->base)
			groups++;
		for (size_t r = 0; r < nrow; r++) {
			const struct rcell *c = rset_cell(rs, r, b);
			double top = c->ratio + (isnan(c->ratio_ci95) ? 0 : c->ratio_ci95);
			if (b != rs->base && !isnan(c->ratio) && top > rmax)
				rmax = top;
			for (size_t i = 0; i < c->ok; i++)
				if (c->wall[i] > tmax)
					tmax = c->wall[i];
		}
	}
	size_t widest = groups > rs->nblk ? groups : rs->nblk;
	double gw = group_width(nrow);
	double width = LEFT + (double)widest * (gw + GAP) + 20;
	if (width < 520)
		width = 520;
	double legend_y = 2 * PANEL + 190;
	double height = legend_y + 22 * (double)nrow + 10;
	rmax = rmax > 0 ? rmax * 1.1 : 1.5;
	if (rmax < 1.1)
		rmax = 1.1;
	tmax = tmax > 0 ? tmax * 1.1 : 1;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
	    "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n"
	    "<style>text{font-family:sans-serif;font-size:12px;fill:#222}"
	    ".title{font-size:14px;font-weight:bold}.tick{text-anchor:end}"
	    ".group{text-anchor:middle}.grid{stroke:#ddd}.axis{stroke:#222}"
	    ".err{stroke:#222;stroke-width:1.5}.one{stroke:#c00;stroke-dasharray:4 3}"
	    ".mean{stroke:#222;stroke-width:2}</style>\n"
	    "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
	    width, height, width, height);

	ratio_panel(f, rs, 40, width, rmax, gw);
	time_panel(f, rs, 40 + PANEL + 80, width, tmax, gw);
	legend(f, rs, legend_y);
	fputs("</svg>\n", f);
}

/* x of time t on a plot from LEFT to right over tmax seconds. */
#define SX(t)	(LEFT + (t) / tmax * (right - LEFT))

/* One label's polyline of v over the series' times; nothing if none. */
static void
polyline(FILE *f, const struct rseries *sr, const double *v, double tmax,
    double right, double y0, double h, double vmax, const char *colour_,
    const char *dash, const char *title)
{
	int open = 0;

	for (size_t i = 0; i < sr->n; i++) {
		if (isnan(v[i]) || isnan(sr->t[i]))
			continue;
		double y = y0 + h - (v[i] > vmax ? vmax : v[i]) / vmax * h;
		if (!open)
			fprintf(f, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" "
			    "stroke-width=\"2\"%s%s%s points=\"", colour_, dash ? " stroke-dasharray=\"" : "",
			    dash ? dash : "", dash ? "\"" : "");
		fprintf(f, "%s%.1f,%.1f", open ? " " : "", SX(sr->t[i]), y);
		open = 1;
	}
	if (open) {
		fputs("\"><title>", f);
		xml_text(f, title);
		fputs("</title></polyline>\n", f);
	}
}

/* The time axis under a plot: ticks in seconds. */
static void
time_axis(FILE *f, double y, double tmax, double right)
{
	double step = tick_step(tmax);

	for (double t = 0; t <= tmax + step / 1e6; t += step)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" "
		    "class=\"axis\"/>\n<text x=\"%.1f\" y=\"%.0f\" class=\"group\">%g</text>\n",
		    SX(t), y, SX(t), y + 4, SX(t), y + 16, t);
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" class=\"tick\">s</text>\n", right, y + 16);
}

/* One load's panels at y (the job's CPU% and Wait%, and the load's
 * headline where it has one), each label's median run; the y below them. */
static double
series_block(FILE *f, const struct rset *rs, size_t b, double y, double width,
    double h)
{
	const double right = width - 20;
	size_t nrow = rs->nrow;
	const struct rrun *med[256];
	double tmax = 0, cmax = 100, rmax = 0;
	int rate = 0, wait = 0, any = 0, gauge = 0;

	for (size_t i = 0; i < nrow && i < 256; i++) {
		const struct rrun *m = med[i] = rset_median_series(rs, rs->order[i], b);
		for (size_t k = 0; m && k < m->series->n; k++) {
			any = 1;
			tmax = m->series->t[k] > tmax ? m->series->t[k] : tmax;
			cmax = m->series->cpu[k] > cmax ? m->series->cpu[k] : cmax;
			rmax = m->series->rate[k] > rmax ? m->series->rate[k] : rmax;
		}
		rate |= m && m->series->have_rate;
		wait |= m && m->series->have_wait;
		gauge |= m && m->series->gauge;
	}
	if (!any)
		return y;
	tmax = tmax > 0 ? tmax : 1;
	char title[512];
	snprintf(title, sizeof title, "%s: the job's CPU%%%s per second, the "
	    "median run of each label", rs->blk[b].name, wait ?
	    " (dashed: Wait%)" : "");
	axis(f, y, width, cmax * 1.05, title, h);
	for (size_t i = 0; i < nrow && i < 256; i++) {
		if (med[i] == NULL)
			continue;
		const char *c = colour[rs->order[i] % NCOLOUR];
		snprintf(title, sizeof title, "%s, %s: run %ld, %.3f s: CPU%%",
		    rs->blk[b].name, rs->row[rs->order[i]].name, med[i]->runno,
		    rrun_fig(med[i], FIG_WALL));
		polyline(f, med[i]->series, med[i]->series->cpu, tmax, right, y, h,
		    cmax * 1.05, c, NULL, title);
		snprintf(title, sizeof title, "%s, %s: Wait%%", rs->blk[b].name,
		    rs->row[rs->order[i]].name);
		polyline(f, med[i]->series, med[i]->series->wait, tmax, right, y, h,
		    cmax * 1.05, c, "5 4", title);
	}
	time_axis(f, y + h, tmax, right);
	y += h + 70;
	if (!rate)
		return y;
	snprintf(title, sizeof title, "%s: the load's %s", rs->blk[b].name,
	    gauge ? "headline level" : "headline per second");
	axis(f, y, width, rmax > 0 ? rmax * 1.1 : 1, title, h);
	for (size_t i = 0; i < nrow && i < 256; i++) {
		if (med[i] == NULL)
			continue;
		snprintf(title, sizeof title, "%s, %s: run %ld: %s", rs->blk[b].name,
		    rs->row[rs->order[i]].name, med[i]->runno, gauge ? "level" :
		    "per second");
		polyline(f, med[i]->series, med[i]->series->rate, tmax, right, y, h,
		    rmax > 0 ? rmax * 1.1 : 1, colour[rs->order[i] % NCOLOUR], NULL,
		    title);
	}
	time_axis(f, y + h, tmax, right);
	y += h + 70;
	return y;
}

/*
 * --series: per load, the median run of each label, second by second on
 * one time axis: the job's CPU% (Wait% dashed) above, the load's
 * headline rate below.
 */
static void
draw_series(FILE *f, const void *arg)
{
	const struct rset *rs = arg;
	const double width = 760, h = PANEL * 0.6;
	size_t nrow = rs->nrow;
	double y = 40, height = 60 + 22 * (double)nrow;

	for (size_t b = 0; b < rs->nblk; b++) {
		int rate = 0;
		for (size_t r = 0; r < nrow; r++) {
			const struct rrun *m = rset_median_series(rs, r, b);
			rate |= m && m->series->have_rate;
		}
		height += (h + 70) * (rate ? 2 : 1) + 20;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
	    "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n"
	    "<style>text{font-family:sans-serif;font-size:12px;fill:#222}"
	    ".title{font-size:14px;font-weight:bold}.tick{text-anchor:end}"
	    ".group{text-anchor:middle}.grid{stroke:#ddd}.axis{stroke:#222}</style>\n"
	    "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
	    width, height, width, height);
	for (size_t b = 0; b < rs->nblk; b++)
		y = series_block(f, rs, b, y, width, h);
	legend(f, rs, y);
	fputs("</svg>\n", f);
}

int
report_svg(const char *path, const struct rset *rs, int series)
{
	return file_replace(path, series ? draw_series : draw, rs);
}
