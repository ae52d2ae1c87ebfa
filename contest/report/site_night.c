/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A night's page: the report of its lines alone, its comparison with the
 * host's night before, the change points it began, and links to the
 * nights either side.  The report and comparison are report's and
 * compare's own text, read from the night's lines in memory.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "site.h"
#include "util.h"

/* The lines of nights k[0..nk) as one results text; NULL after a
 * message.  Freed by the caller after the rset made of it. */
static char *
night_text(const struct site *s, const size_t *k, size_t nk, size_t *len)
{
	size_t total = 0;

	for (size_t i = 0; i < nk; i++)
		for (size_t l = 0; l < s->n[k[i]].nln; l++)
			total += s->n[k[i]].ln[l].len;
	char *buf = xcalloc(total + 1, 1), *p = buf;
	for (size_t i = 0; i < nk; i++)
		for (size_t l = 0; l < s->n[k[i]].nln; l++) {
			const struct sline *ln = &s->n[k[i]].ln[l];
			const char *mem = s->rs->fmem[ln->file];
			if (mem)
				memcpy(p, mem + ln->off, ln->len);
			else if (pread(s->fd[ln->file], p, ln->len, ln->off) != (ssize_t)ln->len) {
				warnmsg("%s: changed while read: %s", s->rs->fname[ln->file],
				    strerror(errno ? errno : EIO));
				free(buf);
				return NULL;
			}
			p += ln->len;
		}
	*len = total;
	return buf;
}

/* The rset of nights k[0..nk), as the report's filters but labels and
 * host (the lines are the nights' already). */
static char *
night_rset(const struct site *s, const size_t *k, size_t nk, struct rset *sub,
    int pairs)
{
	struct rfilter f = *s->f;
	size_t len;
	char *text = night_text(s, k, nk, &len);

	if (text == NULL)
		return NULL;
	if (len == 0) {	/* gone from the files since the report read them */
		free(text);
		return NULL;
	}
	f.labels = NULL, f.nlabels = 0, f.host = NULL;
	f.pairs = pairs, f.per_host = 1, f.series = 0;
	memset(sub, 0, sizeof *sub);
	const struct night *first = s->n[k[0]].nln ? &s->n[k[0]] : &s->n[k[nk - 1]];
	if (rset_add_mem(sub, s->rs->fname[first->ln[0].file], text, len, &f) != 0) {
		rset_free(sub);
		free(text);
		return NULL;
	}
	rset_summarise(sub, s->sort);
	return text;
}

/* What f printed to a memory stream, into a <pre>. */
static void
pre_of(FILE *f, void (*fn)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (m == NULL)
		fatal(1, "out of memory");
	fn(m, arg);
	if (fclose(m) != 0)
		fatal(1, "out of memory");
	site_pre(f, buf, len);
	free(buf);
}

static void
report_of(FILE *f, const void *arg)
{
	report_text(f, arg, 0, 0);
}

static void
compare_of(FILE *f, const void *arg)
{
	compare_text(f, arg, 0, 0);
}

static void
comparison(FILE *f, const struct site *s, size_t k)
{
	const struct night *n = &s->n[k];
	size_t both[2] = { n->prev, k };
	struct rset sub;
	struct cmp m;

	fputs("<h2 id=\"compare\">Against ", f);
	xml_text(f, s->n[n->prev].label);
	fputs(", the night before</h2>\n", f);
	char *text = night_rset(s, both, 2, &sub, 1);
	if (text == NULL) {
		fputs("<p>Its lines could not be read again.</p>\n", f);
		return;
	}
	char *labels[2] = { (char *)s->n[n->prev].label, (char *)n->label };
	int built = cmp_build(&m, &sub, labels, 2, s->o) == 0;
	if (built && m.ng > 0)
		pre_of(f, compare_of, &m);
	else
		fputs("<p>No load of this night compares with one of the night before "
		    "(see the report's own messages).</p>\n", f);
	if (built)
		cmp_free(&m);
	rset_free(&sub);
	free(text);
}

/* The change points this night began, each a link to the site's list. */
static void
changes_here(FILE *f, const struct site *s, size_t k)
{
	const struct history *h = s->h;
	int any = 0;

	for (size_t i = 0; i < h->n; i++)
		for (size_t c = 0; c < h->s[i].ncp; c++) {
			const struct hseries *hs = &h->s[i];
			double pct, lo, hi;
			if (s->night_of[hs->pt[hs->cp[c].at].row] != k)
				continue;
			enum cmp_verdict v = history_verdict(h, hs, c, &pct, &lo, &hi);
			fprintf(f, "%s<li><a href=\"changes.html#cp-%zu-%zu\">%s of ",
			    any++ ? "" : "<h2>Change points at this night</h2>\n<ul>\n",
			    i, c, cmp_verdict_names[v]);
			xml_text(f, h->rs->blk[hs->blk].name);
			fprintf(f, " %s, %+.1f%%</a></li>\n", cmp_fig(h->rs, hs->fig)->head, pct);
		}
	if (any)
		fputs("</ul>\n", f);
}

struct page {
	const struct site *s;
	size_t		 k;
};

static void
night_page(FILE *f, const void *arg)
{
	const struct page *pg = arg;
	const struct site *s = pg->s;
	const struct night *n = &s->n[pg->k];
	struct rset sub;
	size_t next = SIZE_MAX;
	char title[512];

	for (size_t j = 0; j < s->nn && next == SIZE_MAX; j++)
		if (s->n[j].prev == pg->k)
			next = j;
	snprintf(title, sizeof title, "%s on %s", n->label, n->host);
	site_head(f, title);
	fputs("<nav><a href=\"index.html\">every night</a>", f);
	for (int side = 0; side < 2; side++) {
		size_t j = side ? next : n->prev;
		if (j == SIZE_MAX)
			continue;
		fprintf(f, " · %s <a href=\"%s\">", side ? "next" : "before", s->n[j].file);
		xml_text(f, s->n[j].label);
		fputs("</a>", f);
	}
	fputs("</nav>\n<h1>", f);
	xml_text(f, title);
	fputs("</h1>\n<p>First run ", f);
	xml_text(f, n->when);
	fprintf(f, "; %zu results line%s.</p>\n", n->nln, n->nln == 1 ? "" : "s");
	changes_here(f, s, pg->k);
	fputs("<h2 id=\"report\">Report</h2>\n", f);
	char *text = night_rset(s, &pg->k, 1, &sub, 0);
	if (text) {
		pre_of(f, report_of, &sub);
		rset_free(&sub);
		free(text);
	} else
		fputs("<p>Its lines could not be read again.</p>\n", f);
	if (n->prev != SIZE_MAX)
		comparison(f, s, pg->k);
	site_foot(f);
}

int
site_night_page(const struct site *s, size_t k)
{
	struct page pg = { s, k };
	char *path = xcalloc(strlen(s->dir) + strlen(s->n[k].file) + 2, 1);

	sprintf(path, "%s/%s", s->dir, s->n[k].file);
	int rc = file_replace(path, night_page, &pg);
	free(path);
	return rc;
}
