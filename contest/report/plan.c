/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * contest plan: how many boots, and how many runs in each, find a given
 * change at least cost.  From a label's runs over two or more boots, per
 * load, Time's and Ratio's two spreads (cmp_boots.c): within a boot, T1
 * (a run's own), and between boots, T2 (a boot's own level).  Kalibera
 * and Jones's optimum: runs per boot = sqrt(boot cost / run cost x T1^2 /
 * T2^2); then the fewest boots a kernel with which compare calls two
 * kernels' boot means differing by the target a regression with 80%
 * power: significant at alpha *and* its estimate beyond the threshold,
 * t(power) x SE + max(threshold, t(alpha) x SE) <= target, SE = sqrt(2
 * (T2^2 + T1^2 / r) / n), on the log scale, with 2n - 2 degrees of
 * freedom.  Sized for the test alone, the estimate's half of the rule
 * was left out: at a target of 5% and a threshold of 5% compare called
 * 47.8% at the advice, and no number of boots gets far past half.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "json.h"
#include "report.h"
#include "util.h"

#define PLAN_RUNS_MAX	1000
#define PLAN_BOOTS_MAX	10000

/* The change n boots of r runs a kernel have compare call a regression
 * with CMP_POWER: significant at alpha, beyond thr (log scale). */
static double
found(double t1, double t2, double r, size_t n, double alpha, double thr)
{
	double df = 2 * (double)n - 2;
	double se = sqrt(2 * (t2 + t1 / r) / (double)n);
	double sig = stats_t_inv(alpha, df) * se;

	return stats_t_inv(2 * (1 - CMP_POWER), df) * se + (sig > thr ? sig : thr);
}

int
plan_row(const struct rcell *c, const struct rcell *z, const struct column *k,
    const struct planopt *o, struct planrow *p)
{
	struct bootside s;

	if (cmp_boot_side(c, z, k, &s) < 2 || isnan(s.t2) || isnan(s.within_rel))
		return -1;
	p->boots = s.nb;
	p->runs = s.runs;
	/* a run's own variance: a boot mean's, times the runs it is over */
	p->t1 = s.within_rel * (double)s.runs / (double)s.nb;
	p->t2 = s.t2;
	p->run_s = rcell_fig(c, FIG_WALL)->mean;
	double r = p->t2 > 0 ? sqrt(o->boot_s / p->run_s * p->t1 / p->t2) :
	    PLAN_RUNS_MAX;
	double want = log1p(o->target_pct / 100), thr = log1p(o->threshold_pct / 100);
	/* no more runs a boot than two boots a kernel need (where the boots
	 * barely differ, the optimum runs off to many runs in few boots) */
	for (size_t m = 1; m < r && m <= PLAN_RUNS_MAX; m++)
		if (found(p->t1, p->t2, (double)m, 2, o->alpha, thr) <= want) {
			r = (double)m;
			break;
		}
	p->runs_per_boot = r < 1 ? 1 : r > PLAN_RUNS_MAX ? PLAN_RUNS_MAX :
	    (size_t)floor(r + 0.5);
	p->boots_per_kernel = 0;
	for (size_t n = 2; n <= PLAN_BOOTS_MAX; n++)
		if (found(p->t1, p->t2, (double)p->runs_per_boot, n, o->alpha, thr) <= want) {
			p->boots_per_kernel = n;
			break;
		}
	p->cost_s = (double)p->boots_per_kernel * (o->boot_s +
	    (double)p->runs_per_boot * p->run_s);
	return 0;
}

/* Each label over two or more boots, per load: Time, and Ratio beside a
 * load; f(row, blk, figure's column, plan) for each. */
static size_t
each_plan(const struct rset *rs, const struct planopt *o,
    void (*f)(void *, const struct rset *, size_t, size_t, const struct column *,
    const struct planrow *), void *arg)
{
	size_t n = 0;

	for (size_t r = 0; r < rs->nrow; r++)
		for (size_t b = 0; b < rs->nblk; b++) {
			const struct rcell *c = rset_cell(rs, r, b);
			const struct rcell *z = rs->base < rs->nblk ?
			    rset_cell(rs, r, rs->base) : NULL;
			for (int fig = CF_AMEAN; fig <= CF_RATIO; fig += CF_RATIO - CF_AMEAN) {
				const struct column *k = cmp_fig(rs, fig);
				struct planrow p;
				if (c == NULL || (fig == CF_RATIO && (b == rs->base || z == NULL)))
					continue;
				if (plan_row(c, z, k, o, &p) == 0) {
					f(arg, rs, r, b, k, &p);
					n++;
				}
			}
		}
	return n;
}

static void
no_row(void *arg, const struct rset *rs, size_t r, size_t b,
    const struct column *k, const struct planrow *p)
{
	(void)arg, (void)rs, (void)r, (void)b, (void)k, (void)p;
}

static void
text_row(void *arg, const struct rset *rs, size_t r, size_t b,
    const struct column *k, const struct planrow *p)
{
	FILE *f = arg;
	char boots[32];

	if (p->boots_per_kernel)
		snprintf(boots, sizeof boots, "%zu", p->boots_per_kernel);
	else
		snprintf(boots, sizeof boots, ">%d", PLAN_BOOTS_MAX);
	fprintf(f, "%-20s %-16s %-6s %5zu %5zu %7.2f%% %7.2f%% %9zu %12s %9.1f\n",
	    rs->row[r].name, rs->blk[b].name, k->head, p->boots, p->runs,
	    sqrt(p->t1) * 100, sqrt(p->t2) * 100, p->runs_per_boot, boots,
	    p->boots_per_kernel ? p->cost_s / 3600 : NAN);
}

static void
json_row(void *arg, const struct rset *rs, size_t r, size_t b,
    const struct column *k, const struct planrow *p)
{
	struct json *j = arg;

	json_obj_begin(j);
	json_kstr(j, "label", rs->row[r].name);
	json_kstr(j, "load", rs->blk[b].name);
	json_kstr(j, "figure", k->key);
	json_kuint(j, "boots", p->boots);
	json_kuint(j, "runs", p->runs);
	json_knum(j, "within_pct", sqrt(p->t1) * 100, 4);
	json_knum(j, "between_pct", sqrt(p->t2) * 100, 4);
	json_knum(j, "run_s", p->run_s, 3);
	json_kuint(j, "runs_per_boot", p->runs_per_boot);
	json_key(j, "boots_per_kernel");
	if (p->boots_per_kernel)
		json_uint(j, p->boots_per_kernel);
	else
		json_null(j);
	json_knum(j, "cost_s", p->boots_per_kernel ? p->cost_s : NAN, 1);
	json_obj_end(j);
}

int
plan_print(FILE *f, const struct rset *rs, const struct planopt *o, int json)
{
	size_t n = each_plan(rs, o, no_row, NULL);

	if (n == 0)
		return -1;
	if (json) {
		struct json j;
		json_init(&j);
		json_obj_begin(&j);
		json_kstr(&j, "plan", "contest");
		json_kint(&j, "schema", 2);
		json_knum(&j, "target_pct", o->target_pct, 3);
		json_knum(&j, "threshold_pct", o->threshold_pct, 3);
		json_knum(&j, "alpha", o->alpha, 4);
		json_knum(&j, "power", CMP_POWER, 2);
		json_knum(&j, "boot_cost_s", o->boot_s, 1);
		json_kbool(&j, "boot_cost_given", o->boot_given);
		json_key(&j, "rows");
		json_arr_begin(&j);
		each_plan(rs, o, json_row, &j);
		json_arr_end(&j);
		json_obj_end(&j);
		report_json_emit(f, &j);
		return 0;
	}
	fprintf(f, "plan: boots and runs a kernel for compare to call a change of "
	    "%g%% a regression (beyond %g%%, at alpha %g) with %.0f%% power, a boot "
	    "costing %g s (%s), a run its mean Time\n", o->target_pct,
	    o->threshold_pct, o->alpha, CMP_POWER * 100, o->boot_s, o->boot_given ?
	    "--boot-cost" : "assumed: give --boot-cost");
	fprintf(f, "%-20s %-16s %-6s %5s %5s %8s %8s %9s %12s %9s\n", "Label", "Load",
	    "Figure", "Boots", "Runs", "Within", "Between", "Runs/boot",
	    "Boots/kernel", "Hours");
	each_plan(rs, o, text_row, f);
	fputs("Within: a run's spread in its boot (T1); Between: a boot's own, "
	    "beyond what its runs explain (T2 = sqrt(S2^2 - S1^2/r1)); both sd in "
	    "% of the level. Runs/boot: Kalibera and Jones's optimum, sqrt(boot "
	    "cost / run cost x T1^2 / T2^2), or fewer where two boots a kernel "
	    "suffice; Boots/kernel: the fewest with which compare calls two "
	    "kernels' boot means a target apart a regression; Hours: a kernel's, "
	    "boots and runs.\n",
	    f);
	return 0;
}
