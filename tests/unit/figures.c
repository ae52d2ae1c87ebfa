/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * figures.h against itself and against compare's rows; with --list, the
 * table as "key jt why" lines for the schema test (tests/0990-schema.bats).
 */
#include "config.h"

#include <string.h>

#include "figures.h"
#include "report.h"
#include "tap.h"

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--list") == 0) {
		for (int i = 0; i < FIG_N; i++)
			printf("%s %s %s\n", figures[i].key, figures[i].jt,
			    figures[i].why ? figures[i].why : "-");
		return ferror(stdout) || fflush(stdout) ? 1 : 0;
	}
	int pooled = 0, badkey = 0, badunit = 0, badhead = 0, badslot = 0, badwhy = 0;
	for (int i = 0; i < FIG_N; i++) {
		const struct figure *f = &figures[i];
		for (int k = 0; k < i; k++)
			badkey += strcmp(figures[k].key, f->key) == 0;
		/* a number says what it counts; what its own code writes does not */
		badunit += (f->how == W_OWN) != (f->unit[0] == '\0');
		/* a pooled figure has a column; one compared says which way is worse */
		if (FIG_POOLED(f->agg)) {
			badslot += fig_pool((enum fig_id)i) != pooled++;
			badhead += f->head == NULL;
		} else {
			badslot += fig_pool((enum fig_id)i) != -1;
			badhead += f->head != NULL || f->worse != 0;
		}
		/* a reason only beside a number that can be written null */
		badwhy += f->why != NULL && f->how != W_NUM && f->how != W_INT;
	}
	ok(badslot == 0, "fig_pool() numbers the pooled figures in order, -1 the rest");
	ok(badwhy == 0, "a reason only beside a number written null");
	ok(badkey == 0, "every key once");
	ok(badunit == 0, "a unit for every number, none for the rest");
	ok(badhead == 0, "a header for every pooled figure, and only for those");
	ok(pooled == FIG_NPOOL, "FIG_NPOOL %d counts the pooled figures", FIG_NPOOL);
	ok(strcmp(figures[FIG_STATUS].key, "status") == 0, "the run's part starts at status");
	/* compare's row of a figure's mean takes its name and sense from it */
	for (int k = 0; k < CF_NFIG; k++) {
		const struct cmp_figdef *d = &cmp_figs[k];
		if (d->fig < 0)
			continue;
		is_str(d->what, figures[d->fig].head, "compare's %s row is the figure's column",
		    d->key);
		ok(d->worse == figures[d->fig].worse, "compare's %s row: worse is %+d",
		    d->key, figures[d->fig].worse);
	}
	return tap_done();
}
