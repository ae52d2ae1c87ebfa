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

void
compare_junit(FILE *f, const struct cmp *m)
{
	const struct rset *rs = m->rs;
	double total = 0;

	for (size_t i = 0; i < m->n; i++)
		total += m->line[i].b->time.mean * (double)m->line[i].b->ok;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
	    "  <testsuite name=\"contest compare ", f);
	xml_text(f, rs->row[m->a].name);
	fputs(" ", f);
	xml_text(f, rs->row[m->b].name);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" "
	    "time=\"%.3f\">\n", m->n, m->regressed, m->untested, total);
	for (size_t i = 0; i < m->n; i++) {
		const struct cmpline *l = &m->line[i];
		fputs("    <testcase classname=\"contest.", f);
		xml_text(f, rs->row[m->b].name);
		fputs("\" name=\"", f);
		xml_text(f, rs->blk[l->blk].name);
		fprintf(f, "\" time=\"%.3f\">\n", l->b->time.mean);
		if (l->worse_time || l->worse_ratio) {
			char msg[256];
			int n = 0;
			if (l->worse_time)
				n = snprintf(msg, sizeof msg, "Time %+.1f%% (p=%.2g)",
				    l->time_pct, l->p_time);
			if (l->worse_ratio)
				snprintf(msg + n, sizeof msg - (size_t)n, "%sRatio %+.1f%% (p=%.2g)",
				    n ? ", " : "", l->ratio_pct, l->p_ratio);
			fprintf(f, "      <failure type=\"regression\" message=\"%s beyond "
			    "%g%%\"/>\n", msg, m->threshold);
		} else if (isnan(l->p_time))
			fputs("      <skipped message=\"fewer than 2 runs on a side: "
			    "not tested\"/>\n", f);
		char p[32] = "n/a";
		if (!isnan(l->p_time))
			snprintf(p, sizeof p, "%.4g", l->p_time);
		fprintf(f, "      <system-out>Time %.3f s -&gt; %.3f s (%+.2f%%, p=%s)",
		    l->a->time.mean, l->b->time.mean, l->time_pct, p);
		if (!isnan(l->ratio_pct))
			fprintf(f, "; Ratio %.3f -&gt; %.3f (%+.2f%%)", l->a->ratio,
			    l->b->ratio, l->ratio_pct);
		fputs("</system-out>\n    </testcase>\n", f);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
}
