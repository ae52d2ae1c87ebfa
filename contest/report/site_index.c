/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * contest report --html DIR: the stored nights as a static site.
 * index.html lists each host's nights, a link each to its page, and
 * draws each figure's history with its change points, each a link into
 * changes.html, which says what every change point is and gives each
 * regression the block a kernel test robot mails.  HTML that is also
 * well-formed XML, with no script and nothing fetched: a file:// URL or
 * any static web server shows it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "site.h"
#include "util.h"

/* "regression of fork_load Time (s) at night-16 (from night-15), +8.1%" */
static void
change_text(FILE *f, const struct history *h, size_t i, size_t c, const char *arrow)
{
	const struct hseries *s = &h->s[i];
	const struct rset *rs = h->rs;
	double pct, lo, hi;
	enum cmp_verdict v = history_verdict(h, s, c, &pct, &lo, &hi);

	/* a class of one word: "no-change", "cant-tell" */
	fputs("<span class=\"", f);
	for (const char *w = cmp_verdict_names[v]; *w; w++)
		if (*w != '\'')
			fputc(*w == ' ' ? '-' : *w, f);
	fprintf(f, "\">%s</span> of ", cmp_verdict_names[v]);
	xml_text(f, rs->blk[s->blk].name);
	if (s->first->sweep) {
		fputc(' ', f);
		xml_text(f, s->first->sweep);
	}
	fprintf(f, " %s %s ", cmp_fig(h->rs, s->fig)->head, arrow);
	xml_text(f, rs->row[s->pt[s->cp[c].at].row].name);
	fputs(" (from ", f);
	xml_text(f, rs->row[s->pt[s->cp[c].at - 1].row].name);
	fprintf(f, "), %+.1f%% (CI95 %+.1f..%+.1f%%, p=%.2g)", pct, lo, hi, s->cp[c].p);
}

static void
nights_table(FILE *f, const struct site *s, const char *host)
{
	fputs("<table>\n<thead><tr><th>Night</th><th>First run</th><th>Kernel</th>"
	    "<th>Lines</th></tr></thead>\n<tbody>\n", f);
	for (size_t k = 0; k < s->nn; k++) {
		const struct night *n = &s->n[k];
		const struct rrun *env = s->rs->row[n->row[0]].env;
		if (strcmp(n->host, host) != 0)
			continue;
		fprintf(f, "<tr><td><a href=\"%s\">", n->file);
		xml_text(f, n->label);
		fputs("</a></td><td>", f);
		xml_text(f, n->when);
		fputs("</td><td>", f);
		xml_text(f, env && env->kernel ? env->kernel : "?");
		fprintf(f, "</td><td>%zu</td></tr>\n", n->nln);
	}
	fputs("</tbody>\n</table>\n", f);
}

static void
histories(FILE *f, const struct site *s, const char *host)
{
	const struct history *h = s->h;

	for (size_t i = 0; i < h->n; i++) {
		const struct hseries *hs = &h->s[i];
		if (strcmp(hs->first->host ? hs->first->host : "?", host) != 0)
			continue;
		fprintf(f, "<figure id=\"s-%zu\">\n", i);
		history_svg_panel(f, h, i, "changes.html");
		fputs("<figcaption>", f);
		xml_text(f, h->rs->blk[hs->blk].name);
		fprintf(f, ", %s, ", cmp_fig(h->rs, hs->fig)->head);
		xml_text(f, hs->first->command ? hs->first->command : "?");
		fprintf(f, ": %zu night%s, ", hs->npt, hs->npt == 1 ? "" : "s");
		if (hs->ncp == 0)
			fputs("no change point.", f);
		else
			fprintf(f, "%zu change point%s:", hs->ncp, hs->ncp == 1 ? "" : "s");
		fputs("</figcaption>\n", f);
		for (size_t c = 0; c < hs->ncp; c++) {
			fprintf(f, "%s<li><a href=\"changes.html#cp-%zu-%zu\">", c ? "" :
			    "<ul>\n", i, c);
			change_text(f, h, i, c, "at");
			fputs("</a></li>\n", f);
		}
		fputs(hs->ncp ? "</ul>\n</figure>\n" : "</figure>\n", f);
	}
}

static void
index_page(FILE *f, const void *arg)
{
	const struct site *s = arg;
	const struct history *h = s->h;

	site_head(f, "contest: the nights");
	fprintf(f, "<h1>contest: the nights</h1>\n<p>%zu night%s; %zu series, "
	    "%zu change point%s, <a href=\"changes.html\">%zu regression%s</a> "
	    "beyond %g%%. A change point: E-divisive means over a series' "
	    "nights, kept where a t-test between the sides gives p &lt; %g, "
	    "%d nights or more a side. A point: the night's mean with its "
	    "CI95.</p>\n", s->nn, s->nn == 1 ? "" : "s", h->n, h->changes,
	    h->changes == 1 ? "" : "s", h->regressions, h->regressions == 1 ? "" : "s",
	    h->threshold, CPOINT_P, CPOINT_MIN);
	for (size_t k = 0; k < s->nn; k++) {
		if (k && strcmp(s->n[k].host, s->n[k - 1].host) == 0)
			continue;
		fputs("<section>\n<h2>", f);
		xml_text(f, s->n[k].host);
		fputs("</h2>\n<h3>Histories</h3>\n", f);
		histories(f, s, s->n[k].host);
		fputs("<h3>Nights</h3>\n", f);
		nights_table(f, s, s->n[k].host);
		fputs("</section>\n", f);
	}
	site_foot(f);
}

/* One change point: what it is, its nights, and for a regression the
 * robot's block (or a link to the same night's block above). */
static void
change_section(FILE *f, const struct site *s, size_t i, size_t c)
{
	const struct history *h = s->h;
	const struct hseries *hs = &h->s[i];
	size_t after = s->night_of[hs->pt[hs->cp[c].at].row];
	size_t before = s->night_of[hs->pt[hs->cp[c].at - 1].row];
	double pct, lo, hi;
	size_t j, d;

	fprintf(f, "<section id=\"cp-%zu-%zu\">\n<h2>", i, c);
	change_text(f, h, i, c, "at");
	fputs("</h2>\n<p>On ", f);
	xml_text(f, hs->first->host ? hs->first->host : "?");
	fputs(", ", f);
	xml_text(f, hs->first->command ? hs->first->command : "?");
	fprintf(f, ". The nights: <a href=\"%s\">", s->n[before].file);
	xml_text(f, s->n[before].label);
	fprintf(f, "</a> and <a href=\"%s#compare\">", s->n[after].file);
	xml_text(f, s->n[after].label);
	fprintf(f, "</a>; <a href=\"index.html#s-%zu\">the series</a>.</p>\n", i);
	int bad = history_verdict(h, hs, c, &pct, &lo, &hi) == CV_REGRESSION;
	if (bad && history_robot_shown(h, i, c, &j, &d))
		fprintf(f, "<p>The same regression of this load at this night: "
		    "<a href=\"#cp-%zu-%zu\">its report above</a>.</p>\n", j, d);
	else if (bad) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		if (m == NULL)
			fatal(1, "out of memory");
		history_robot_block(m, h, i, c, 0);
		if (fclose(m) != 0)
			fatal(1, "out of memory");
		site_pre(f, buf, len);
		free(buf);
	}
	fputs("</section>\n", f);
}

static void
changes_page(FILE *f, const void *arg)
{
	const struct site *s = arg;
	const struct history *h = s->h;

	site_head(f, "contest: change points");
	fprintf(f, "<nav><a href=\"index.html\">every night</a></nav>\n"
	    "<h1>Change points</h1>\n<p>%zu in %zu series; a regression or an "
	    "improvement is a change beyond %g%% whose CI95 lies beyond it too "
	    "(doc/reports.md). Each regression has the block a kernel test "
	    "robot mails: both sides' mean and %%stddev of every figure of the "
	    "load, and what differed between the two nights.</p>\n", h->changes,
	    h->n, h->threshold);
	for (size_t i = 0; i < h->n; i++)
		for (size_t c = 0; c < h->s[i].ncp; c++)
			change_section(f, s, i, c);
	site_foot(f);
}

static int
page(const struct site *s, const char *name, void (*fn)(FILE *, const void *))
{
	char *path = xcalloc(strlen(s->dir) + strlen(name) + 2, 1);

	sprintf(path, "%s/%s", s->dir, name);
	int rc = file_replace(path, fn, s);
	free(path);
	return rc;
}

int
report_site(const char *dir, const struct rset *rs, const struct history *h,
    const struct rfilter *f, const struct cmpopt *o, enum rsort sort)
{
	struct site s = { dir, rs, h, f, o, sort, NULL, 0, NULL, NULL };
	int rc = 0;

	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		warnmsg("%s: %s", dir, strerror(errno));
		return -1;
	}
	if (site_nights(&s) != 0) {
		site_nights_free(&s);
		return -1;
	}
	/* the pages first, the index that links them last */
	for (size_t k = 0; k < s.nn && rc == 0; k++)
		rc = site_night_page(&s, k);
	if (rc == 0)
		rc = page(&s, "changes.html", changes_page);
	if (rc == 0)
		rc = page(&s, "index.html", index_page);
	site_nights_free(&s);
	return rc;
}
