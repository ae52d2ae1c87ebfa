/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JUnit XML for CI servers: one testcase per candidate, load and gated
 * figure, failed on a regression, skipped where it can't tell.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "report.h"

void
xml_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '&')
			fputs("&amp;", f);
		else if (c == '"')
			fputs("&quot;", f);
		else if (c < 0x20 && c != '\t' && c != '\n')
			fputc('?', f);	/* not allowed in XML 1.0 */
		else
			fputc(c, f);
	}
}

/* The failing case of candidate k's runs of load g: failed, or not run. */
static void
runs_case(FILE *f, const struct cmp *m, const struct cmpgroup *g, size_t k)
{
	const struct rcell *c = g->cell[k];
	char name[512];

	fputs("    <testcase classname=\"contest.", f);
	xml_text(f, m->col[k].label);
	fputs("\" name=\"", f);
	xml_text(f, cmp_group_name(name, sizeof name, m, g));
	if (cmp_not_run(g, k))
		fputs(" runs\">\n      <failure type=\"not run\" message=\"no measured "
		    "run: not run, or only its warmup\"/>\n    </testcase>\n", f);
	else
		fprintf(f, " runs\">\n      <failure type=\"failed\" message=\"%zu of "
		    "%zu runs failed\"/>\n    </testcase>\n", c->failed, c->ok +
		    c->failed + c->nsuspect);
}

/* One test case per candidate, load and gated figure: a regression
 * fails, can't tell is skipped with its reason, the rest pass; and one
 * per candidate and load a run of which failed, or that the baseline
 * ran and it did not, failing. */
void
compare_junit(FILE *f, const struct cmp *m)
{
	size_t tests = 0, failures = 0, skipped = 0;
	char name[512];

	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
			    "  <testsuite name=\"contest compare", f);
			for (size_t k = 0; k < m->ncol; k++) {
				fputc(' ', f);
				xml_text(f, m->col[k].label);
			}
			fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
			    "skipped=\"%zu\">\n", tests, failures, skipped);
		}
		for (size_t k = 1; k < m->ncol; k++)
			for (size_t g = 0; g < m->ng; g++) {
				const struct cmpgroup *gr = &m->g[g];
				if (cmp_load_failed(gr, k) || cmp_not_run(gr, k)) {
					tests += pass == 0;
					failures += pass == 0;
					if (pass == 1)
						runs_case(f, m, gr, k);
				}
				for (int fig = 0; fig < cmp_nfig(m->rs); fig++) {
					const struct cmpval *v = &gr->val[fig * m->ncol + k];
					const struct cmpval *a = &gr->val[fig * m->ncol];
					double p = m->holm ? v->padj : v->p;
					if (!v->gated || v->verdict == CV_NONE)
						continue;
					if (pass == 0) {
						tests++;
						failures += v->verdict == CV_REGRESSION;
						skipped += v->verdict == CV_CANTTELL;
						continue;
					}
					fputs("    <testcase classname=\"contest.", f);
					xml_text(f, m->col[k].label);
					fputs("\" name=\"", f);
					xml_text(f, cmp_group_name(name, sizeof name, m, gr));
					fprintf(f, " %s\">\n", cmp_fig(m->rs, fig)->head);
					if (v->verdict == CV_REGRESSION)
						fprintf(f, "      <failure type=\"regression\" message=\""
						    "%s %+.1f%% (CI %+.1f..%+.1f%%, p=%.2g) beyond "
						    "%g%%\"/>\n", cmp_fig(m->rs, fig)->head, v->est_pct,
						    v->lo_pct, v->hi_pct, p, m->threshold);
					else if (v->t.kind == CT_NONE)
						fputs("      <skipped message=\"can't tell: fewer than "
						    "2 runs on a side, not tested\"/>\n", f);
					else if (v->verdict == CV_CANTTELL)
						fprintf(f, "      <skipped message=\"can't tell: "
						    "%+.1f%%, its interval %+.1f..%+.1f%% neither "
						    "beyond nor within %g%%\"/>\n", v->est_pct,
						    v->lo_pct, v->hi_pct, m->threshold);
					fprintf(f, "      <system-out>%s: %s %s: %.6g -&gt; "
					    "%.6g (%+.2f%%, %s test%s, p=%.4g; MinDetect "
					    "%.2f%%; a regression of %.2f%% caught with "
					    "%.0f%% power)</system-out>\n    </testcase>\n",
					    cmp_verdict_names[v->verdict], cmp_fig(m->rs, fig)->stat,
					    cmp_fig(m->rs, fig)->head, a->v, v->v, v->pct,
					    v->t.kind ? cmp_kind_names[v->t.kind] : "no",
					    v->t.kind == CT_PAIRED ? " over the rounds" : "", p,
					    v->mde_pct, v->gate_pct, CMP_POWER * 100);
				}
			}
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
}
