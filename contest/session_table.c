/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The session's table and --until-ci's decision, both from the session's
 * own results lines read back by the report code: the table is what
 * `contest report` prints for that file, and the interval that stops the
 * rounds is the one it prints.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "session_table.h"
#include "util.h"

/* The session's own results lines read back by the report code and
 * summarised; -1: no run finished, nothing to read. */
static int
read_back(const struct session *s, struct rset *rs)
{
	struct rfilter all = { .keep_suspect = s->cfg.keep_suspect,
	    .pairs = s->cfg.nvariants > 1 };

	memset(rs, 0, sizeof *rs);
	if (s->lines_len == 0)
		return -1;
	if (rset_add_mem(rs, s->results_path, s->lines, s->lines_len, &all) < 0)
		fatal(1, "reading back this session's results: %s", strerror(errno));
	rset_summarise(rs, RSORT_FIRST);
	return 0;
}

/* With variants: each against the first, paired over the session's
 * rounds, in the verdict lines compare prints with its defaults. */
static void
variant_verdicts(const struct session *s, const struct rset *rs)
{
	struct cmpopt o = { .threshold = 5, .alpha = CMP_ALPHA,
	    .gate = CMP_GATE_DEFAULT };
	char **labels = xcalloc(s->cfg.nvariants + 1, sizeof *labels);
	struct cmp m;

	for (size_t i = 0; i < s->cfg.nvariants; i++) {
		size_t len = strlen(s->label) + strlen(s->cfg.variants[i].name) + 2;
		labels[i] = xcalloc(len, 1);
		snprintf(labels[i], len, "%s/%s", s->label, s->cfg.variants[i].name);
	}
	if (s->cfg.nvariants > 1 && cmp_build(&m, rs, labels, s->cfg.nvariants, &o) == 0) {
		if (m.ng)
			compare_verdict(stdout, &m);
		cmp_free(&m);
	}
	for (size_t i = 0; i < s->cfg.nvariants; i++)
		free(labels[i]);
	free(labels);
}

/*
 * The session's table: its own results lines, read back by the report
 * code and printed as `contest report` prints that file, so that the
 * two can never disagree.
 */
void
session_table(const struct session *s)
{
	struct rset rs;

	if (read_back(s, &rs) < 0)
		return;		/* no run finished: nothing to tell */
	report_text(stdout, &rs, 0, 0);
	variant_verdicts(s, &rs);
	report_warn_suspects(&rs);
	rset_free(&rs);
}

/* The cells an --until-ci session has not narrowed yet, for its last line. */
static char ci_note[1024];

/*
 * Is every cell's interval narrow enough to stop: each load's Ratio CI95
 * within until_ci_pct percent of the Ratio (no_load's Time CI95 when no
 * load runs)?  The same figures the table prints, from the same lines.
 */
int
session_narrow(struct session *s)
{
	struct rset rs;
	int narrow = 1, any = 0;
	size_t used = 0;

	ci_note[0] = '\0';
	if (read_back(s, &rs) < 0)
		return 0;
	for (size_t r = 0; r < rs.nrow; r++)
		for (size_t b = 0; b < rs.nblk; b++) {
			const struct rcell *c = rset_cell(&rs, r, b);
			int base = b == rs.base;
			if ((base && rs.nblk > 1) || !rcell_ran(c))
				continue;
			any = 1;
			double rel = base ? (c->ok > 1 ? rcell_fig(c, FIG_WALL)->ci95 / rcell_fig(c, FIG_WALL)->mean : NAN) :
			    c->ratio_ci95 / c->ratio;
			rel *= 100;
			if (rel <= s->cfg.until_ci_pct)
				continue;
			narrow = 0;
			if (used < sizeof ci_note)
				used += (size_t)snprintf(ci_note + used, sizeof ci_note - used,
				    "%s%s%s%s (%s%.1f%%)", used ? ", " : "", rs.blk[b].name,
				    rs.nrow > 1 ? " " : "", rs.nrow > 1 ? rs.row[r].name : "",
				    base ? "Time \xc2\xb1" : "\xc2\xb1", isnan(rel) ? 0 : rel);
		}
	rset_free(&rs);
	return narrow && any;
}

/* What --until-ci did, under the table. */
void
session_until_ci_line(struct session *s)
{
	if (s->cfg.until_ci_pct <= 0 || s->rounds_measured == 0)
		return;
	if (s->stopped_early)
		printf("until-ci %g%%: stopped after %u of at most %u rounds: every "
		    "Ratio's CI95 within %g%% of it\n", s->cfg.until_ci_pct,
		    s->rounds_measured, s->cfg.runs, s->cfg.until_ci_pct);
	else if (session_narrow(s))
		printf("until-ci %g%%: every Ratio's CI95 within %g%% of it after %u "
		    "rounds\n", s->cfg.until_ci_pct, s->cfg.until_ci_pct, s->rounds_measured);
	else
		printf("until-ci %g%%: ran %u rounds, -n's most; not within %g%%: %s\n",
		    s->cfg.until_ci_pct, s->rounds_measured, s->cfg.until_ci_pct, ci_note);
}
