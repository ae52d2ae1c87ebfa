/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JUnit XML for CI servers: one testcase per load, failed when the
 * comparison found a significant regression beyond the threshold.
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

/* One test case per candidate, load and gated figure. */
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
				for (int fig = 0; fig < CF_NFIG; fig++) {
					const struct cmpval *v = &gr->val[fig * m->ncol + k];
					const struct cmpval *a = &gr->val[fig * m->ncol];
					double p = m->holm ? v->padj : v->p;
					if (!v->gated || isnan(a->v))
						continue;
					if (pass == 0) {
						tests++;
						failures += v->worse != 0;
						skipped += !v->worse && isnan(p);
						continue;
					}
					fputs("    <testcase classname=\"contest.", f);
					xml_text(f, m->col[k].label);
					fputs("\" name=\"", f);
					xml_text(f, cmp_group_name(name, sizeof name, m, gr));
					fprintf(f, " %s\">\n", cmp_figs[fig].what);
					if (v->worse)
						fprintf(f, "      <failure type=\"regression\" message=\""
						    "%s %+.1f%% (p=%.2g) beyond %g%%\"/>\n",
						    cmp_figs[fig].what, v->pct, p, m->threshold);
					else if (isnan(p))
						fputs("      <skipped message=\"fewer than 2 runs on a "
						    "side: not tested\"/>\n", f);
					fprintf(f, "      <system-out>%s %s: %.6g -&gt; %.6g "
					    "(%+.2f%%, p=%.4g; smallest change it could have "
					    "found: %.2f%%)</system-out>\n    </testcase>\n",
					    cmp_figs[fig].stat, cmp_figs[fig].what, a->v, v->v,
					    v->pct, p, v->mde_pct);
				}
			}
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
}
