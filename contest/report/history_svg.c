/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * contest history --svg: a panel per series, each label's mean with its
 * CI95 as a bar, in time order, and a dashed line where the series
 * changed, red for a regression; every point and line has a <title> a
 * browser shows on hover.  Plain SVG 1.1.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "report.h"

#define LEFT	72
#define PANEL	160	/* plot height */
#define STEP	18	/* px per label */
#define PAD	70	/* title above, labels below */

/* The series' value range, its CI95 bars included, a little wider. */
static void
range(const struct hseries *s, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t p = 0; p < s->npt; p++) {
		double e = isnan(s->pt[p].ci95) ? 0 : s->pt[p].ci95;
		if (s->pt[p].mean - e < *lo)
			*lo = s->pt[p].mean - e;
		if (s->pt[p].mean + e > *hi)
			*hi = s->pt[p].mean + e;
	}
	double pad = (*hi - *lo) * 0.1 + fabs(*hi) * 1e-3 + 1e-9;
	*lo -= pad;
	*hi += pad;
}

/* Series s's panel at y0; href: where each change point links, as
 * HREF#cp-SERIES-K (NULL: no links). */
static void
panel(FILE *f, const struct history *h, const struct hseries *s, double y0,
    const char *href)
{
	const struct rset *rs = h->rs;
	const struct column *k = cmp_fig(h->rs, s->fig);
	double lo, hi;

	range(s, &lo, &hi);
#define Y(v)	(y0 + PANEL - ((v) - lo) / (hi - lo) * PANEL)
#define X(i)	(LEFT + STEP / 2 + (double)(i) * STEP)
	fprintf(f, "<text x=\"%d\" y=\"%.0f\" class=\"title\">", LEFT, y0 - 12);
	xml_text(f, rs->blk[s->blk].name);
	fprintf(f, ", %s on ", k->head);
	xml_text(f, s->first->host ? s->first->host : "?");
	fputs("</text>\n", f);
	for (int t = 0; t <= 4; t++) {
		double v = lo + (hi - lo) * t / 4;
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" class=\"grid\"/>"
		    "<text x=\"%d\" y=\"%.1f\" class=\"tick\">%.*f</text>\n", LEFT, Y(v),
		    X(s->npt), Y(v), LEFT - 6, Y(v) + 4, k->dec + 1, col_scaled(k, v));
	}
	for (size_t c = 0; c < s->ncp; c++) {
		double pct, clo, chi;
		enum cmp_verdict v = history_verdict(h, s, c, &pct, &clo, &chi);
		double x = X(s->cp[c].at) - STEP / 2.0;
		if (href)	/* a wide clear line to click, the thin one to see */
			fprintf(f, "<a xlink:href=\"%s#cp-%zu-%zu\"><line x1=\"%.1f\" y1=\"%.0f\" "
			    "x2=\"%.1f\" y2=\"%.0f\" class=\"hit\"/>", href,
			    (size_t)(s - h->s), c, x, y0, x, y0 + PANEL);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" class=\"%s\">"
		    "<title>%s: ", x, y0, x, y0 + PANEL, v == CV_REGRESSION ? "cp bad" : "cp",
		    cmp_verdict_names[v]);
		xml_text(f, rs->row[s->pt[s->cp[c].at - 1].row].name);
		fputs(" -&gt; ", f);
		xml_text(f, rs->row[s->pt[s->cp[c].at].row].name);
		fprintf(f, " %+.2f%% (CI95 %+.2f..%+.2f%%), p=%.2g</title></line>%s\n", pct,
		    clo, chi, s->cp[c].p, href ? "</a>" : "");
	}
	for (size_t p = 0; p < s->npt; p++) {
		const struct hpoint *pt = &s->pt[p];
		if (!isnan(pt->ci95))
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			    "class=\"err\"/>", X(p), Y(pt->mean - pt->ci95), X(p),
			    Y(pt->mean + pt->ci95));
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" class=\"pt\"><title>",
		    X(p), Y(pt->mean));
		xml_text(f, rs->row[pt->row].name);
		fprintf(f, ": %.*f, %zu runs</title></circle>\n", k->dec + 1,
		    col_scaled(k, pt->mean), pt->n);
		fprintf(f, "<text transform=\"translate(%.1f,%.0f) rotate(60)\" "
		    "class=\"label\">", X(p) - 3, y0 + PANEL + 10);
		xml_text(f, rs->row[pt->row].name);
		fputs("</text>\n", f);
	}
#undef X
#undef Y
}

const char history_svg_css[] = "text{font-family:sans-serif;font-size:11px;"
    "fill:#222}.title{font-size:13px;font-weight:bold}.tick{text-anchor:end}"
    ".grid{stroke:#ddd}.err{stroke:#4e79a7;stroke-width:1.5}"
    ".pt{fill:#4e79a7}.cp{stroke:#555;stroke-dasharray:5 3;stroke-width:1.5}"
    ".bad{stroke:#c00}";

/* doc: a file of its own, with its style; else inline in a page, whose
 * style has history_svg_css and whose links are SVG 1.1's xlink:href */
static void
svg_open(FILE *f, double width, double height, int doc)
{
	fprintf(f, "%s<svg xmlns=\"http://www.w3.org/2000/svg\"%s version=\"1.1\" "
	    "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n%s%s%s"
	    "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
	    doc ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" : "",
	    doc ? "" : " xmlns:xlink=\"http://www.w3.org/1999/xlink\"",
	    width, height, width, height, doc ? "<style>" : "", doc ? history_svg_css : "",
	    doc ? "</style>\n" : "");
}

static double
svg_width(size_t npt)
{
	double w = LEFT + (double)npt * STEP + 40;

	return w < 480 ? 480 : w;
}

void
history_svg_panel(FILE *f, const struct history *h, size_t i, const char *href)
{
	svg_open(f, svg_width(h->s[i].npt), PANEL + PAD + 40, 0);
	panel(f, h, &h->s[i], 30, href);
	fputs("</svg>\n", f);
}

static void
draw(FILE *f, const void *arg)
{
	const struct history *h = arg;
	size_t most = 1;

	for (size_t i = 0; i < h->n; i++)
		if (h->s[i].npt > most)
			most = h->s[i].npt;
	double width = svg_width(most);
	double height = 40 + (double)h->n * (PANEL + PAD + 40);
	svg_open(f, width, height, 1);
	for (size_t i = 0; i < h->n; i++)
		panel(f, h, &h->s[i], 40 + (double)i * (PANEL + PAD + 40) + 20, NULL);
	fputs("</svg>\n", f);
}

int
history_svg(const char *path, const struct history *h)
{
	return file_replace(path, draw, h);
}
