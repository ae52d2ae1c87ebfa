/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * figures.h against itself and against the columns that show it
 * (report/columns.c); with --session, keys.h's members before "status",
 * with --status, its run statuses; with --nested, the members of its
 * objects as "object member" lines; with --list, the
 * table as "key jt why" lines for the schema test (tests/0990-schema.bats).
 */
#include "config.h"

#include <string.h>

#include "columns.h"
#include "figures.h"
#include "keys.h"
#include "tap.h"

static void
members(const char *object, const char *const *keys, int n)
{
	for (int i = 0; i < n; i++)
		printf("%s %s\n", object, keys[i]);
}

/* --list, --session, --status, --nested: a table for the schema test. */
static int
list(const char *what)
{
	if (strcmp(what, "--list") == 0)
		for (int i = 0; i < FIG_N; i++)
			printf("%s %s %s\n", figures[i].key, figures[i].jt,
			    figures[i].why ? figures[i].why : "-");
	else if (strcmp(what, "--session") == 0)
		for (int i = 0; i < RK_NSESSION; i++)
			printf("%s\n", rkey_names[i]);
	else if (strcmp(what, "--nested") == 0) {
		members(RK_NAME(JOB_IDENTITY), job_id_keys, JK_N);
		members(RK_NAME(JOB_METRIC_DEFS), jm_def_keys, JMK_N);
		members(rkey_names[RK_FIG(CONTROLLERS)], controller_keys, CTK_N);
		members(rkey_names[RK_FIG(PROBE)], probe_keys, PK_N);
		members(rkey_names[RK_FIG(SERIES)], series_keys, SK_N);
		members(rkey_names[RK_FIG(PROVENANCE)], provenance_keys, PRK_N);
		members(rkey_names[RK_FIG(VMSTAT)], vmstat_keys, VMSTAT_NTEL);
		members(rkey_names[RK_FIG(SCHEDSTAT)], schedstat_keys, SS_N);
		members(rkey_names[RK_FIG(PSI)], psi_keys, PSI_N);
	} else if (strcmp(what, "--status") == 0)
		for (int i = 0; i < RUN_NSTATUS; i++)
			printf("%s\n", run_status_names[i]);
	else
		return 2;
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}

int
main(int argc, char **argv)
{
	if (argc > 1)
		return list(argv[1]);
	int pooled = 0, badkey = 0, badunit = 0, badcol = 0, badslot = 0, badwhy = 0;
	for (int i = 0; i < FIG_N; i++) {
		const struct figure *f = &figures[i];
		for (int k = 0; k < i; k++)
			badkey += strcmp(figures[k].key, f->key) == 0;
		/* a number says what it counts; what its own code writes does not */
		badunit += (f->how == W_OWN) != (f->unit[0] == '\0');
		/* a pooled figure has a column of the report's table */
		int cols = 0;
		for (int k = 0; k < RC_N; k++)
			cols += report_cols[k].src == S_FIG && report_cols[k].fig == i &&
			    (report_cols[k].shown & COL_TABLE);
		if (FIG_POOLED(f->agg)) {
			badslot += fig_pool((enum fig_id)i) != pooled++;
			badcol += cols != 1;
		} else {
			badslot += fig_pool((enum fig_id)i) != -1;
			badcol += cols != 0;
		}
		/* a reason only beside a number that can be written null */
		badwhy += f->why != NULL && f->how != W_NUM && f->how != W_INT;
	}
	ok(badslot == 0, "fig_pool() numbers the pooled figures in order, -1 the rest");
	ok(badwhy == 0, "a reason only beside a number written null");
	ok(badkey == 0, "every key once");
	ok(badunit == 0, "a unit for every number, none for the rest");
	ok(badcol == 0, "a column for every pooled figure, and only for those");
	ok(pooled == FIG_NPOOL, "FIG_NPOOL %d counts the pooled figures", FIG_NPOOL);
	ok(strcmp(figures[FIG_STATUS].key, "status") == 0, "the run's part starts at status");
	/* compare's row of a figure's mean is named as the report's column */
	for (int i = 0; i < CF_NFIG; i++) {
		const struct column *d = &cmp_figs[i];
		if (d->src != S_FIG)
			continue;
		const char *head = NULL;
		for (int k = 0; k < RC_N; k++)
			if (report_cols[k].src == S_FIG && report_cols[k].fig == d->fig)
				head = report_cols[k].head;
		is_str(d->head, head ? head : "(none)", "compare's %s row is the "
		    "report's column", d->key);
	}
	/* every name once in its table; a gate only on a tested row */
	int dup = 0, badgate = 0;
	for (int i = 0; i < RC_N; i++)
		for (int k = 0; k < i; k++)
			dup += strcmp(report_cols[i].head, report_cols[k].head) == 0 ||
			    (report_cols[i].key && report_cols[k].key &&
			    strcmp(report_cols[i].key, report_cols[k].key) == 0) ||
			    (report_cols[i].lava && report_cols[k].lava &&
			    strcmp(report_cols[i].lava, report_cols[k].lava) == 0);
	for (int i = 0; i < CF_NFIG; i++) {
		badgate += cmp_figs[i].gate && cmp_figs[i].worse == 0;
		for (int k = 0; k < i; k++)
			dup += strcmp(cmp_figs[i].key, cmp_figs[k].key) == 0 ||
			    (cmp_figs[i].gate && cmp_figs[k].gate &&
			    strcmp(cmp_figs[i].gate, cmp_figs[k].gate) == 0);
	}
	ok(dup == 0, "every header, key, LAVA and gate name once in its table");
	ok(badgate == 0, "a gate only on a figure that has a worse direction");
	char list[128];
	is_str(cmp_gate_list(list, sizeof list, ~0u), "time,ratio,load,wait,lat,lat-p999,lat-max",
	    "--gate's names, in compare's row order");
	ok(cmp_gate_parse("lat,time") == (CMP_GATE(CF_LAT) | CMP_GATE(CF_AMEAN)),
	    "--gate lat,time is their rows' bits");
	ok(cmp_gate_parse("time,speed") == 0, "a name of no row is refused");
	return tap_done();
}
