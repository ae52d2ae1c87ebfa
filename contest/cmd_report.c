/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * contest report, compare and history: they read stored results and
 * print; they never run anything.  Their options are query.c's.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "query.h"
#include "report.h"
#include "rset.h"
#include "util.h"

/* History's series: --figure's, or the gate's default and every job
 * metric; 0, or -1 after a message (a name no figure has). */
static int
build_history(struct history *h, const struct rset *rs, const struct query *q,
    size_t last)
{
	unsigned figs = q->figs_set ? q->figs : CMP_GATE_DEFAULT |
	    cmp_gate_all_metrics(rs->figs);
	char bad[64];

	if (q->fig_names) {
		unsigned jm = cmp_gate_metrics(rs->figs, q->fig_names, bad, sizeof bad);
		if (jm == 0 && bad[0]) {
			warnmsg("--figure: '%s' is neither one of contest's figures nor "
			    "a job metric of these results", bad);
			return -1;
		}
		figs |= jm;
	}
	history_build(h, rs, figs, q->cmp.threshold, last);
	return 0;
}

/* The site, its histories by history's rules; rs freed. */
static int
report_html(const struct query *q, struct rset *rs)
{
	struct history h;

	if (build_history(&h, rs, q, 0) < 0) {
		rset_free(rs);
		return EXIT_USAGE;
	}
	int rc = report_site(q->html, rs, &h, &q->f, &q->cmp, q->sort) != 0;
	history_free(&h);
	rset_free(rs);
	return finish_stdout() || rc;
}

int
cmd_report(int argc, char **argv)
{
	struct query q;
	struct rset rs = { 0 };
	int i = query_parse(argc, argv, &q, Q_REPORT);

	if (q.f.series && q.svg == NULL)
		usage_fail("--series: a chart of the runs' samples needs --svg FILE");
	if (q.html == NULL && (q.figs_set || q.thr_set))
		usage_fail("--%s: the site's (--html DIR)", q.figs_set ? "figure" : "threshold");
	if (q.html && (q.svg || q.fmt != RFMT_TEXT || q.stats))
		usage_fail("--html: the site is the output; not with %s", q.svg ?
		    "--svg" : q.stats ? "--stats" : "--format");
	q.f.per_host |= q.html != NULL;
	query_load(&rs, argv + i, argc - i, &q);
	if (rs.nrun == 0) {
		warnmsg("no results%s", q.f.nlabels || q.f.nloads || q.f.host ||
		    q.f.since ? " match the filters" : " to report");
		rset_free(&rs);
		return 1;
	}
	if (q.html)
		return report_html(&q, &rs);
	switch (q.fmt) {
	case RFMT_CSV:
		report_csv(stdout, &rs);
		break;
	case RFMT_JSON:
		report_json(stdout, &rs);
		break;
	case RFMT_LAVA:
		report_lava(stdout, &rs);
		break;
	default:
		report_text(stdout, &rs, q.stats, q.fmt == RFMT_MD);
		break;
	}
	int rc = q.svg && report_svg(q.svg, &rs, q.f.series) != 0;
	rset_free(&rs);
	return finish_stdout() || rc;
}

/* Whether a test of m rests on one boot a side with no spread known. */
static int
one_boot(const struct cmp *m)
{
	for (size_t k = 1; k < m->ncol; k++)
		if (m->col[k].noneboot)
			return 1;
	return 0;
}

int
cmd_compare(int argc, char **argv)
{
	struct query q;
	struct rset rs = { 0 };
	struct cmp m;
	int i = query_parse(argc, argv, &q, Q_COMPARE);
	int n = argc - i;

	if (n < 2)
		usage_fail("needs a baseline and at least one candidate label "
		    "(see 'contest compare --help')");
	if (n > MAX_FILTERS)
		usage_fail("at most %d labels", MAX_FILTERS);
	for (int a = 0; a < n; a++) {
		if (*argv[i + a] == '\0')
			usage_fail("empty label");
		for (int b = 0; b < a; b++)
			if (strcmp(argv[i + a], argv[i + b]) == 0)
				usage_fail("label '%s' is given twice", argv[i + a]);
		/* only the labels are read: a big results file stays cheap */
		q.labels[a] = argv[i + a];
	}
	q.f.nlabels = (size_t)n;
	q.f.pairs = 1;
	query_load(&rs, NULL, 0, &q);
	if (cmp_build(&m, &rs, argv + i, (size_t)n, &q.cmp) != 0) {
		rset_free(&rs);
		return EXIT_USAGE;
	}
	if (m.ng == 0) {
		warnmsg("no load has results under these labels");
		cmp_free(&m);
		rset_free(&rs);
		return EXIT_USAGE;
	}
	struct rset aa = { 0 };
	if (one_boot(&m)) {
		/* a label in one boot: an A/A among the other labels stored,
		 * one kernel over two or more boots, gives the boots' spread */
		struct query qa = q;
		qa.f.nlabels = 0;
		query_load(&aa, NULL, 0, &qa);
		q.cmp.aa = &aa;
		cmp_free(&m);
		if (cmp_build(&m, &rs, argv + i, (size_t)n, &q.cmp) != 0)
			contest_exit(EXIT_USAGE);	/* it was built once */
	}
	switch (q.fmt) {
	case RFMT_CSV:
		compare_csv(stdout, &m);
		break;
	case RFMT_JSON:
		compare_json(stdout, &m);
		break;
	case RFMT_JUNIT:
		compare_junit(stdout, &m);
		break;
	case RFMT_LAVA:
		compare_lava(stdout, &m);
		break;
	default:
		compare_text(stdout, &m, q.stats, q.fmt == RFMT_MD);
		break;
	}
	/* a regression or a failed load, or (--strict) something undecided */
	int rc = m.regressed + m.failed > 0 ? 1 : q.strict && m.cant_tell > 0 ? 3 : 0;
	cmp_free(&m);
	rset_free(&rs);
	rset_free(&aa);
	if (finish_stdout())
		return 1;
	return rc;
}

int
cmd_history(int argc, char **argv)
{
	struct query q;
	struct rset rs = { 0 };
	struct history h;
	int i = query_parse(argc, argv, &q, Q_HISTORY);

	if (i < argc)
		usage_fail("'%s' is no option (name files with -f)", argv[i]);
	if (q.robot && q.fmt != RFMT_TEXT && q.fmt != RFMT_MD)
		usage_fail("--report: text or md, not --format %s", q.fmt == RFMT_CSV ?
		    "csv" : q.fmt == RFMT_JSON ? "json" : q.fmt == RFMT_LAVA ? "lava" :
		    "junit");
	q.f.per_host = 1;
	query_load(&rs, NULL, 0, &q);
	if (rs.nrun == 0) {
		warnmsg("no results%s", q.f.nlabels || q.f.nloads || q.f.host ||
		    q.f.since ? " match the filters" : " to read");
		rset_free(&rs);
		return 1;
	}
	if (build_history(&h, &rs, &q, q.last) < 0) {
		rset_free(&rs);
		return EXIT_USAGE;
	}
	if (q.robot)
		history_robot(stdout, &h, q.fmt == RFMT_MD);
	else switch (q.fmt) {
	case RFMT_CSV:
		history_csv(stdout, &h);
		break;
	case RFMT_JSON:
		history_json(stdout, &h);
		break;
	case RFMT_JUNIT:
		history_junit(stdout, &h);
		break;
	case RFMT_LAVA:
		history_lava(stdout, &h);
		break;
	default:
		history_text(stdout, &h, q.fmt == RFMT_MD);
		break;
	}
	/* a series that ends worse than it was: the nightly gate; else the
	 * newest nights worse, not yet placed */
	int rc = h.worse > 0 ? 1 : h.newest_worse > 0 ? 3 : 0;
	if (q.svg && history_svg(q.svg, &h) != 0)
		rc = 1;
	history_free(&h);
	rset_free(&rs);
	return finish_stdout() ? 1 : rc;
}
