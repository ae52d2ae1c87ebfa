/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * contest plan: from stored results of labels over two or more boots,
 * each one's spread within a boot and between boots, and how many boots
 * and runs a kernel find a given change at least cost (report/plan.c).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "query.h"
#include "report.h"
#include "rset.h"
#include "util.h"

int
cmd_plan(int argc, char **argv)
{
	struct query q;
	struct rset rs = { 0 };
	int i = query_parse(argc, argv, &q, Q_PLAN);

	q.plan.alpha = q.cmp.alpha;
	q.plan.threshold_pct = q.cmp.threshold;
	/* compare calls a regression only beyond the threshold: a true
	 * change at it is over the line half the time, whatever the boots */
	if (!(q.plan.target_pct > q.plan.threshold_pct))
		usage_fail("--target %g is not beyond the threshold %g: compare "
		    "calls a regression only past it, so a change at or under it is "
		    "called about half the time or less, whatever the boots (a "
		    "larger --target, or a smaller --threshold)", q.plan.target_pct,
		    q.plan.threshold_pct);
	q.f.pairs = 1;		/* the runs by boot */
	query_load(&rs, argv + i, argc - i, &q);
	int rc = plan_print(stdout, &rs, &q.plan, q.fmt == RFMT_JSON);
	rset_free(&rs);
	if (rc < 0) {
		warnmsg("no label here has runs over two or more boots (each "
		    "results line's boot_id): boot one kernel twice or more (an A/A) "
		    "and run the same session in each boot");
		return finish_stdout() ? 1 : EXIT_USAGE;
	}
	return finish_stdout();
}
