/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rows of columns.h, and the one place a column's value is taken
 * from a cell.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "keys.h"
#include "util.h"

#define PCT(w)	.width = (w), .form = VF_PCT

const struct column report_cols[RC_N] = {
	[RC_TIME] = { .head = "Time", .width = 13, .form = VF_MEANSD, .dec = 2,
	    .shown = COL_TABLE, .src = S_FIG, .fig = FIG_WALL, .key = "time",
	    .csv = CSV_STATS, .csv_dec = 6, .lava = "time", .lava_unit = "s",
	    .lava_dec = 3 },
	[RC_CPU] = { .head = "CPU%", PCT(6), .shown = COL_TABLE, .src = S_FIG,
	    .fig = FIG_CPU, .key = FIG_KEY(CPU), .csv = CSV_MEAN, .csv_dec = 2,
	    .lava = "cpu", .lava_unit = "percent", .lava_dec = 1 },
	[RC_WAIT] = { .head = "Wait%", PCT(6), .shown = COL_TABLE, .src = S_FIG,
	    .fig = FIG_WAIT, .key = FIG_KEY(WAIT), .csv = CSV_MEAN, .csv_dec = 2,
	    .lava = "wait", .lava_unit = "percent", .lava_dec = 2 },
	[RC_LOADS] = { .head = "Loads", .width = 8, .form = VF_NUM,
	    .shown = COL_TABLE, .src = S_LOADS, .key = "loads",
	    .csv = CSV_MEANSD, .csv_dec = 2 },
	[RC_RATE] = { .head = "Loads/s", .src = S_RATE, .key = "loads_per_s",
	    .csv = CSV_MEAN, .csv_dec = 3, .lava = "loads", .lava_unit = "per_s",
	    .lava_dec = 2 },
	[RC_LOADP] = { .head = "Load%", PCT(6), .shown = COL_TABLE, .src = S_FIG,
	    .fig = FIG_LOADP, .not_base = 1, .key = FIG_KEY(LOADP), .csv = CSV_MEAN,
	    .csv_dec = 2, .lava = "load-pct", .lava_unit = "percent",
	    .lava_dec = 1 },
	[RC_LCPU] = { .head = "LCPU%", PCT(6), .shown = COL_TABLE, .src = S_FIG,
	    .fig = FIG_LCPU, .not_base = 1, .key = FIG_KEY(LCPU), .csv = CSV_MEAN,
	    .csv_dec = 2 },
	[RC_RATIO] = { .head = "Ratio", .width = 11, .form = VF_RATIO, .dec = 2,
	    .shown = COL_TABLE, .src = S_RATIO, .base_one = 1, .key = "ratio",
	    .csv = CSV_RATIO, .csv_dec = 6, .lava = "ratio",
	    .lava_unit = "ratio", .lava_dec = 3 },
	[RC_LAT] = { .head = "Lat p99", .width = 9, .form = VF_LAT,
	    .shown = COL_PROBE, .src = S_P99, .key = "lat_p99_us",
	    .csv = CSV_MEAN, .csv_dec = 3, .scale = 1e-3, .lava = "lat-p99",
	    .lava_unit = "us", .lava_dec = 1 },
	[RC_MET] = { .head = "Met%", PCT(5), .shown = COL_PROBE, .src = S_MET,
	    .key = "met_pct", .csv = CSV_MEAN, .csv_dec = 2, .lava = "met",
	    .lava_unit = "percent", .lava_dec = 2 },
	[RC_COV] = { .head = "CoV%", .md_head = "CoV", .width = 6,
	    .form = VF_NUMPCT, .dec = 1, .shown = COL_STATS, .src = S_COV },
	[RC_MIN] = { .head = "Min", .width = 8, .form = VF_NUM, .dec = 2,
	    .shown = COL_STATS, .src = S_MIN },
	[RC_MEDIAN] = { .head = "Median", .width = 8, .form = VF_NUM, .dec = 2,
	    .shown = COL_STATS, .src = S_MEDIAN },
	[RC_MAX] = { .head = "Max", .width = 8, .form = VF_NUM, .dec = 2,
	    .shown = COL_STATS, .src = S_MAX },
	[RC_CI95] = { .head = "CI95", .width = 8, .form = VF_NUM, .dec = 2,
	    .shown = COL_STATS, .src = S_CI95 },
};

/* Time's statistics as mmtests names them, untested; then each figure's
 * mean, tested.  The probe's p99/run and Met%/run are the runs' own,
 * averaged (what is shown is what is tested), named apart from the
 * report's Lat p99 and Met%, which pool every run's wake-ups. */
#define TIME_STAT(st, k, s) { .stat = (st), .head = "Time", .key = (k), \
	.form = VF_NUM, .dec = 2, .src = (s) }
const struct column cmp_figs[CF_NFIG] = {
	[CF_MIN] = TIME_STAT("Min", "time_min", S_MIN),
	[CF_AMEAN] = { .stat = "Amean", .head = "Time", .key = "time_amean",
	    .form = VF_NUM, .dec = 2, .src = S_FIG, .fig = FIG_WALL, .worse = +1,
	    .gate = "time", .log = 1 },
	[CF_STDDEV] = TIME_STAT("Stddev", "time_stddev", S_SD),
	[CF_COV] = TIME_STAT("CoeffVar", "time_coeffvar", S_COV),
	[CF_MAX] = TIME_STAT("Max", "time_max", S_MAX),
	[CF_BAMEAN] = TIME_STAT("BAmean-50", "time_bamean50", S_BAMEAN),
	[CF_RATIO] = { .stat = "Amean", .head = "Ratio", .key = "ratio",
	    .form = VF_NUM, .dec = 2, .src = S_RATIO, .base_one = 1,
	    .worse = +1, .gate = "ratio", .log = 1 },
	[CF_RATE] = { .stat = "Amean", .head = "Loads", .key = "loads_per_s",
	    .form = VF_RATE, .src = S_RATE, .worse = -1, .gate = "load" },
	[CF_WAIT] = { .stat = "Amean", .head = "Wait%", .key = FIG_KEY(WAIT),
	    .form = VF_NUM, .dec = 1, .src = S_FIG, .fig = FIG_WAIT, .worse = +1,
	    .gate = "wait" },
	[CF_LAT] = { .stat = "Amean", .head = "p99/run", .key = "p99_run_us",
	    .form = VF_LAT, .src = S_P99_RUNS, .scale = 1e-3, .worse = +1,
	    .gate = "lat" },
	[CF_MET] = { .stat = "Amean", .head = "Met%/run", .key = "met_run_pct",
	    .form = VF_NUM, .dec = 1, .src = S_MET_RUNS, .worse = -1 },
	/* what latency users gate on beside p99: its tail, and the worst */
	[CF_LAT999] = { .stat = "Amean", .head = "p999/run", .key = "p999_run_us",
	    .form = VF_LAT, .src = S_P999_RUNS, .scale = 1e-3, .worse = +1,
	    .gate = "lat-p999" },
	[CF_LATMAX] = { .stat = "Amean", .head = "max/run", .key = "max_run_us",
	    .form = VF_LAT, .src = S_PMAX_RUNS, .scale = 1e-3, .worse = +1,
	    .gate = "lat-max" },
	[CF_LOADP] = { .stat = "Amean", .head = "Load%", .key = FIG_KEY(LOADP),
	    .form = VF_NUM, .dec = 0, .src = S_FIG, .fig = FIG_LOADP,
	    .worse = -1 },
};

unsigned
cmp_gate_parse(const char *s)
{
	unsigned gate = 0;
	char *copy = xstrdup(s), *save = NULL;

	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		int f;
		for (f = 0; f < CF_NFIG; f++)
			if (cmp_figs[f].gate && strcmp(w, cmp_figs[f].gate) == 0)
				break;
		if (f == CF_NFIG) {
			free(copy);
			return 0;
		}
		gate |= CMP_GATE(f);
	}
	free(copy);
	return gate;
}

int
cmp_gate_split(const char *s, unsigned *bits, int *metrics)
{
	char *copy = xstrdup(s), *save = NULL;
	int rc = 0, n = 0;

	*bits = 0;
	*metrics = 0;
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		unsigned b = cmp_gate_parse(w);
		n++;
		if (b)
			*bits |= b;
		else if (jm_name_ok(w, strlen(w)))
			*metrics = 1;	/* --job-metric's names */
		else
			rc = -1;
	}
	free(copy);
	return n ? rc : -1;
}

const char *
cmp_gate_list(char *buf, size_t len, unsigned gate)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int f = 0; f < CF_NFIG && used < len; f++)
		if (cmp_figs[f].gate && (gate & CMP_GATE(f)))
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
			    used ? "," : "", cmp_figs[f].gate);
	return buf;
}

void
cmp_figs_for(struct cmpfigs *t, const struct rset *rs)
{
	memcpy(t->f, cmp_figs, sizeof cmp_figs);
	t->n = CF_NFIG;
	for (size_t k = 0; k < rs->njm; k++) {
		const struct rmetric *jm = &rs->jm[k];
		double big = 0;
		/* decimals for the largest mean of any cell */
		for (size_t i = 0; rs->cell && i < rs->nrow * rs->nblk; i++) {
			const struct rcell *c = &rs->cell[i];
			if (c->jm && c->jm[k].n && fabs(c->jm[k].mean) > big)
				big = fabs(c->jm[k].mean);
		}
		snprintf(t->key[k], sizeof t->key[k], "job_%s", jm->name);
		t->f[t->n++] = (struct column){ .stat = "Amean", .head = jm->name,
		    .key = t->key[k], .form = VF_NUM, .dec = col_sig_dec(big),
		    .src = S_JM, .fig = (int)k, .worse = jm->higher ? -1 : +1,
		    .gate = jm->name };
	}
}

struct cmpfigs *
cmp_figs_make(struct cmpfigs *old, const struct rset *rs)
{
	struct cmpfigs *t = old ? old : xcalloc(1, sizeof *t);

	cmp_figs_for(t, rs);
	return t;
}

unsigned
cmp_gate_all_metrics(const struct cmpfigs *t)
{
	unsigned gate = 0;

	for (int f = CF_NFIG; f < t->n; f++)
		gate |= CMP_GATE(f);
	return gate;
}

unsigned
cmp_gate_metrics(const struct cmpfigs *t, const char *names, char *bad, size_t badlen)
{
	unsigned gate = 0;
	char *copy = xstrdup(names), *save = NULL;

	bad[0] = '\0';
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		int f;
		if (cmp_gate_parse(w))
			continue;
		for (f = CF_NFIG; f < t->n && strcmp(w, t->f[f].gate) != 0; f++)
			;
		if (f == t->n) {
			snprintf(bad, badlen, "%s", w);
			free(copy);
			return 0;
		}
		gate |= CMP_GATE(f);
	}
	free(copy);
	return gate;
}

/* Time's statistics over the cell's ok runs. */
static double
time_stat(const struct rcell *c, enum col_src src)
{
	const struct stats *t = rcell_fig(c, FIG_WALL);

	switch (src) {
	case S_MIN: return t->min;
	case S_MEDIAN: return t->median;
	case S_MAX: return t->max;
	case S_SD: return c->ok > 1 ? t->sd : NAN;
	/* mmtests' calc_coeffvar: one run's is 0, as stats gives it */
	case S_COV: return t->cv * 100;
	case S_CI95: return c->ok > 1 ? t->ci95 : NAN;
	default: return c->bamean;
	}
}

int
col_pv(const struct column *k)
{
	switch (k->src) {
	case S_FIG: return fig_pool((enum fig_id)k->fig);
	case S_RATE: return PV_RATE;
	case S_P99_RUNS: return PV_P99;
	case S_MET_RUNS: return PV_MET;
	case S_P999_RUNS: return PV_P999;
	case S_PMAX_RUNS: return PV_PMAX;
	case S_JM: return PV_N + k->fig;
	default: return -1;
	}
}

const struct stats *
col_runs(const struct column *k, const struct rcell *c)
{
	if (c == NULL)
		return NULL;
	switch (k->src) {
	case S_FIG: return rcell_fig(c, (enum fig_id)k->fig);
	case S_LOADS: return &c->loads;
	case S_RATE: return &c->rate;
	case S_P99_RUNS: return &c->p99;
	case S_MET_RUNS: return &c->met;
	case S_P999_RUNS: return &c->p999;
	case S_PMAX_RUNS: return &c->pmax;
	case S_JM: return c->jm ? &c->jm[k->fig] : NULL;
	default: return NULL;
	}
}

double
col_value(const struct column *k, const struct rcell *c, int base)
{
	if (c == NULL || c->ok == 0 || (base && k->not_base))
		return NAN;
	const struct stats *st = col_runs(k, c);
	if (st)
		return st->n ? st->mean : NAN;
	switch (k->src) {
	case S_RATIO: return c->ratio;
	case S_P99: return c->probe.what && hist_total(&c->probe.h) ?
		    hist_quantile(&c->probe.h, 0.99) : NAN;
	case S_MET: return c->met_pct;
	default: return time_stat(c, k->src);
	}
}
