/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * contest bisect: whether a candidate's runs look like the good label's
 * or the bad one's, for git bisect run: 0 good, 1 bad, 125 skip.  The
 * step is every load in which BAD is a regression against GOOD (compare's
 * verdict, at alpha, beyond the threshold), each judged on one figure;
 * the candidate is bad where a load of the step puts it within
 * BISECT_CUT of BAD, significantly worse than GOOD, no load calls it
 * good and the loads not called lie on BAD's side of the half way; good
 * the other way round; else skipped: the middle of the way is never
 * called.  (A call on each side's compare verdicts, no change against
 * one and a regression against the other, asked a ±threshold interval
 * of five runs a side and skipped most commits of a real 8% step; asking
 * every load to be past the half way and no different from its own
 * side, too, skipped 31% of a step in the job's own Time at ±3% drift.)
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "stats.h"
#include "util.h"

/* How far from GOOD (or BAD) a candidate may lie on the way and still be
 * called GOOD's (BAD's) commit: 0.4, the middle fifth skipped.  A night's
 * drift moves it along the way where the runs' tests cannot see it
 * (Time: the job itself); scripts/bench/bisect's 8,000 nights at +-3%
 * drift put its calls at 87% and its errors at 2.4% with it, and at 84%
 * and 1.9% with a cut of 0.35: both goals' edges (doc/performance.md). */
#define BISECT_CUT	0.4

/* m's value of figure f of group g for column k. */
static const struct cmpval *
val(const struct cmp *m, const struct cmpgroup *g, int f, size_t k)
{
	return &g->val[f * m->ncol + k];
}

/* The group of m2 that is g's load and sweep value; NULL: none. */
static const struct cmpgroup *
same_group(const struct cmp *m2, const struct cmpgroup *g)
{
	for (size_t i = 0; i < m2->ng; i++)
		if (m2->g[i].blk == g->blk && m2->g[i].sweep == g->sweep)
			return &m2->g[i];
	return NULL;
}

/* Whether figure fig of group g is in the step: gated, and BAD (column
 * 1) a regression against GOOD. */
static int
step_figure(const struct cmp *m, const struct cmpgroup *g, int fig)
{
	return cmp_fig(m->rs, fig)->gate && (m->gate & CMP_GATE(fig)) &&
	    val(m, g, fig, 1)->verdict == CV_REGRESSION;
}

/*
 * The one figure a load of the step is judged on: Time and Ratio are one
 * measurement counted twice.  Ratio where no_load did not move in the
 * step (a machine's drift from one boot to the next falls on the job
 * alone and on the job beside the load alike, and goes), Time where it
 * did (the job itself got slower: Ratio may not see it) or for no_load
 * itself; else, and where neither Time nor Ratio is in the load's step
 * (a step in a job metric alone: Time had none to judge), the first
 * figure of the step (Loads, a job metric).  -1: none of the load's
 * figures is in the step.
 */
static int
step_pick(const struct cmp *ms, const struct cmpgroup *g)
{
	int zero_moved = 0, first = -1;

	for (size_t i = 0; i < ms->ng; i++)
		if (ms->g[i].blk == ms->rs->base && ms->g[i].sweep == g->sweep)
			zero_moved = step_figure(ms, &ms->g[i], CF_AMEAN);
	for (int fig = 0; fig < cmp_nfig(ms->rs); fig++)
		if (step_figure(ms, g, fig) && first < 0)
			first = fig;
	if (first < 0)
		return -1;
	if (!step_figure(ms, g, CF_AMEAN) && !step_figure(ms, g, CF_RATIO))
		return first;
	if (g->blk != ms->rs->base && !zero_moved && (ms->gate & CMP_GATE(CF_RATIO)))
		return CF_RATIO;
	if (ms->gate & CMP_GATE(CF_AMEAN))
		return CF_AMEAN;
	return first;
}

/* A label's estimate of a figure, the variance of that estimate and its
 * df: Ratio's from the delta method, the others' from the runs. */
static int
estimate(const struct column *k, const struct rcell *c, int base, double *m,
    double *v, double *df)
{
	if (c == NULL || c->ok < 2)
		return 0;
	if (k->src == S_RATIO) {
		*m = c->ratio;
		*v = c->ratio_se * c->ratio_se;
		*df = c->ratio_df;
	} else {
		const struct stats *st = col_runs(k, c);
		if (st == NULL || st->n < 2)
			return 0;
		*m = col_value(k, c, base);
		*v = st->sd * st->sd / (double)st->n;
		*df = (double)(st->n - 1);
	}
	return isfinite(*m) && isfinite(*v) && isfinite(*df) && *df > 0;
}

/*
 * A label over two or more boots has its level as compare has it, the
 * mean of its boot means (of their logs for Time and Ratio); its tests
 * are compare's too (pair_p).
 */
static void
over_boots(const struct column *k, const struct cmpgroup *g, double *e)
{
	struct bootside s;

	for (size_t i = 0; i < 3; i++)
		if (cmp_boot_side(g->cell[i], g->zero[i], k, &s) > 1)
			e[i] = s.log ? exp(s.mean) : s.mean;
}

/* Label j against label i, as compare tests them: over boots by the
 * two-level model where their runs record boots, else on the runs. */
static double
pair_p(const struct column *k, const struct cmpgroup *g, const double *e,
    const double *v, const double *df, int i, int j)
{
	struct cmptest t;
	double dof;

	memset(&t, 0, sizeof t);
	if (cmp_boot_pair(&t, g->cell[i], g->cell[j], g->zero[i], g->zero[j], k))
		return t.p;
	return stats_se_test(e[i], sqrt(v[i]), df[i], e[j], sqrt(v[j]), df[j], &dof);
}

/*
 * One load of the step, on its one figure: where CAND lies on the way
 * from GOOD to BAD, f = (CAND - GOOD) / (BAD - GOOD).  Bad where CAND is
 * within BISECT_CUT of BAD (f > 1 - BISECT_CUT) and significantly worse
 * than GOOD; good the other way round; else can't tell, and *lean the
 * side of the half way it lies on (-1 BAD's, +1 GOOD's).  A commit is
 * GOOD's or BAD's (f 0 or 1): one in truth GOOD's is called bad only
 * where a night's drift and its runs carry it most of the way and its
 * test against GOOD says so.  (A night's drift that is not in the runs'
 * spread is not in the tests either: Ratio, where no_load did not move,
 * leaves it out; Time cannot, and relies on the cut.)  -1 bad, +1 good,
 * 0 can't tell.
 */
static int
call_load(FILE *f, const struct cmp *m, const struct cmpgroup *g, int fig,
    int *lean)
{
	const struct column *k = cmp_fig(m->rs, fig);
	int base = g->blk == m->rs->base;
	double e[3], v[3], df[3];
	char name[256];

	fprintf(f, "%s %s: ", cmp_group_name(name, sizeof name, m, g), k->head);
	for (size_t i = 0; i < 3; i++)
		if (!estimate(k, g->cell[i], base, &e[i], &v[i], &df[i])) {
			fprintf(f, "%s has fewer than 2 runs of it: can't tell\n",
			    m->col[i].label);
			return 0;
		}
	over_boots(k, g, e);
	double step = e[1] - e[0], frac = step != 0 ? (e[2] - e[0]) / step : NAN;
	*lean = frac > 0.5 ? -1 : frac < 0.5 ? 1 : 0;
	double pg = pair_p(k, g, e, v, df, 0, 2), pb = pair_p(k, g, e, v, df, 1, 2);
	int up = step > 0;	/* which way BAD is from GOOD */
	/* worse than GOOD, better than BAD: each significantly, at alpha */
	int past_g = pg < m->alpha && (up ? e[2] > e[0] : e[2] < e[0]);
	int short_b = pb < m->alpha && (up ? e[2] < e[1] : e[2] > e[1]);
	int bad = frac > 1 - BISECT_CUT && past_g;
	int good = frac < BISECT_CUT && short_b;
	fprintf(f, "%s at %.2f of the step from %s (%.*f) to %s (%.*f), against "
	    "%s p=%.2g, against %s p=%.2g: %s\n", m->col[2].label, frac,
	    m->col[0].label, col_mean_dec(k), col_scaled(k, e[0]), m->col[1].label,
	    col_mean_dec(k), col_scaled(k, e[1]), m->col[0].label, pg, m->col[1].label,
	    pb, bad ? "bad" : good ? "good" : "can't tell");
	return bad ? -1 : good ? 1 : 0;
}

/*
 * The step, BAD against GOOD, from their runs alone: at alpha itself, not
 * at a loop's alpha over its looks, and under --holm over their own tests,
 * never the candidate's.  So every look of --run judges the same step: a
 * step rebuilt at each look could vanish once measured, and exit 255.
 */
static int
step_cmp(struct cmp *ms, const struct rset *rs, char *good, char *bad,
    const struct cmpopt *o)
{
	char *two[2] = { good, bad };
	struct cmpopt once = *o;

	once.looks = 1;
	once.runs_in_boot = 1;
	return cmp_build(ms, rs, two, 2, &once);
}

/* Why GOOD to BAD is no step: no regression, or gated figures that
 * cannot tell (too few runs, runs left out as having done no work, a
 * change that straddles the threshold, a boot spread): "no regression"
 * would be a claim the runs did not make. */
static void
no_step(const struct cmp *ms, const char *good, const char *bad)
{
	if (ms->cant_tell)
		warnmsg("can't tell whether %s is a regression beyond %g%% against "
		    "%s: %zu gated figure%s undecided (contest compare says why); "
		    "no step to bisect", bad, ms->threshold, good, ms->cant_tell,
		    ms->cant_tell == 1 ? "" : "s");
	else
		warnmsg("%s is no regression beyond %g%% against %s in any gated "
		    "figure: no step to bisect", bad, ms->threshold, good);
}

int
bisect_decide(FILE *f, const struct rset *rs, char *good, char *bad, char *cand,
    const struct cmpopt *o)
{
	char *three[3] = { good, bad, cand };
	struct cmp m, ms;
	struct cmpopt runs = *o;
	size_t nbad = 0, ngood = 0, nnone = 0, step = 0, lbad = 0, lgood = 0;

	runs.runs_in_boot = 1;
	if (step_cmp(&ms, rs, good, bad, o) != 0)
		return 125;
	if (cmp_build(&m, rs, three, 3, &runs) != 0) {
		cmp_free(&ms);
		return 125;
	}
	for (size_t i = 0; i < ms.ng; i++) {
		int fig = step_pick(&ms, &ms.g[i]);
		if (fig < 0)
			continue;
		step++;
		const struct cmpgroup *g = same_group(&m, &ms.g[i]);
		int lean = 0, c = g ? call_load(f, &m, g, fig, &lean) : 0;
		nbad += c < 0;
		ngood += c > 0;
		nnone += c == 0;
		/* a load not called, on which side of the half way */
		lbad += c == 0 && lean < 0;
		lgood += c == 0 && lean > 0;
	}
	/* called where one load of the step is, none the other way, and
	 * the loads not called lie on its side of the half way: a night's
	 * drift moves every load alike, and each load's own runs move it a
	 * little further or less (five runs at 2%: a sixth of an 8% step) */
	int rc = step == 0 ? 2 : nbad && !ngood && lbad == nnone ? 1 :
	    ngood && !nbad && lgood == nnone ? 0 : 125;
	if (step == 0)
		no_step(&ms, good, bad);
	else
		fprintf(f, "%s looks %s (%zu of the step's %zu load%s bad, %zu good, %zu "
		    "can't tell; each within %g of the way from its side and tested "
		    "against the other at alpha %g; the step at alpha %g and %g%%)\n",
		    cand, rc == 0 ? "good" : rc == 1 ? "bad" : "like neither: skip", nbad,
		    step, step == 1 ? "" : "s", ngood, nnone, BISECT_CUT, m.alpha,
		    ms.alpha, ms.threshold);
	cmp_free(&ms);
	cmp_free(&m);
	return rc;
}

long
bisect_step(const struct rset *rs, char *good, char *bad, const struct cmpopt *o)
{
	struct cmp m;
	long step = 0;

	if (step_cmp(&m, rs, good, bad, o) != 0)
		return -1;
	for (size_t i = 0; i < m.ng; i++)
		step += step_pick(&m, &m.g[i]) >= 0;
	if (step == 0)
		no_step(&m, good, bad);
	cmp_free(&m);
	return step;
}
