/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * contest bisect: whether a candidate's runs look like the good label's
 * or the bad one's, for git bisect run: 0 good, 1 bad, 125 skip.  The
 * step is every load in which BAD is a regression against GOOD (compare's
 * verdict, at alpha, beyond the threshold), each judged on one figure;
 * the candidate is bad where, in every load of the step, it lies past
 * the half way from GOOD to BAD, significantly worse than GOOD and not
 * significantly better than BAD; good the other way round; else skipped:
 * never a guess.  (A call on each
 * side's compare verdicts, no change against one and a regression
 * against the other, asked a ±threshold interval of five runs a side and
 * skipped most commits of a real 8% step.)
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "stats.h"
#include "util.h"

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
 * The same over boots, where the label's runs span two or more: the mean
 * of its boot means (their logs for Time and Ratio), their variance over
 * the boots, the boots' df; a label in one boot beside one over boots
 * has its runs' variance widened by that label's boot-to-boot spread.
 */
static void
over_boots(const struct column *k, const struct cmpgroup *g, double *e,
    double *v, double *df, size_t *nb)
{
	struct bootside s[3];
	double t2 = NAN, t2df = 0;

	for (size_t i = 0; i < 3; i++) {
		cmp_boot_side(g->cell[i], g->zero[i], k, &s[i]);
		if (!s[i].recorded)
			return;		/* older results: the runs, as before */
		if (s[i].nb > 1 && !isnan(s[i].t2) && (double)s[i].nb - 1 > t2df)
			t2 = s[i].t2, t2df = (double)s[i].nb - 1;
	}
	for (size_t i = 0; i < 3; i++) {
		if (s[i].nb > 1) {
			nb[i] = s[i].nb;
			e[i] = s[i].log ? exp(s[i].mean) : s[i].mean;
			v[i] = s[i].s2 / (double)s[i].nb * (s[i].log ? e[i] * e[i] : 1);
			df[i] = (double)s[i].nb - 1;
		} else if (s[i].nb == 1 && !isnan(t2)) {
			double w = t2 * e[i] * e[i];	/* t2 is relative */
			df[i] = stats_ws_df(v[i], df[i], w, t2df);
			v[i] += w;
		}
	}
}

/* Label j against label i, as compare tests two labels over boots. */
static double
pair_p(const double *e, const double *v, const double *df, const size_t *nb,
    int i, int j)
{
	double vi = v[i], vj = v[j], dof;

	cmp_boot_pool(&vi, &vj, nb[i], nb[j]);
	return stats_se_test(e[i], sqrt(vi), df[i], e[j], sqrt(vj), df[j], &dof);
}

/*
 * One load of the step, on its one figure: where CAND lies on the way
 * from GOOD to BAD, f = (CAND - GOOD) / (BAD - GOOD).  Bad where CAND is
 * past the half way (f > 1/2), significantly worse than GOOD and not
 * significantly better than BAD; good the other way round; else can't
 * tell, and a candidate both worse than GOOD and better than BAD, in
 * between, is never called either way.  A commit is GOOD's or BAD's (f 0
 * or 1): one that is in truth GOOD's is called bad only where its test
 * against GOOD errs, at most alpha / 2 of the time, and the other way
 * round.  (A night's drift that is not in the runs' spread is not in the
 * tests either: Ratio, where no_load did not move, leaves it out; Time
 * cannot, and skips more.)  -1 bad, +1 good, 0 can't tell.
 */
static int
call_load(FILE *f, const struct cmp *m, const struct cmpgroup *g, int fig)
{
	const struct column *k = cmp_fig(m->rs, fig);
	int base = g->blk == m->rs->base;
	double e[3], v[3], df[3];
	size_t nb[3] = { 0, 0, 0 };	/* boots, where a label spans two */
	char name[256];

	fprintf(f, "%s %s: ", cmp_group_name(name, sizeof name, m, g), k->head);
	for (size_t i = 0; i < 3; i++)
		if (!estimate(k, g->cell[i], base, &e[i], &v[i], &df[i])) {
			fprintf(f, "%s has fewer than 2 runs of it: can't tell\n",
			    m->col[i].label);
			return 0;
		}
	over_boots(k, g, e, v, df, nb);
	double step = e[1] - e[0], frac = step != 0 ? (e[2] - e[0]) / step : NAN;
	double pg = pair_p(e, v, df, nb, 0, 2), pb = pair_p(e, v, df, nb, 1, 2);
	int up = step > 0;	/* which way BAD is from GOOD */
	/* worse than GOOD, better than BAD: each significantly, at alpha */
	int past_g = pg < m->alpha && (up ? e[2] > e[0] : e[2] < e[0]);
	int short_b = pb < m->alpha && (up ? e[2] < e[1] : e[2] > e[1]);
	int bad = frac > 0.5 && past_g && !short_b;
	int good = frac < 0.5 && short_b && !past_g;
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
	return cmp_build(ms, rs, two, 2, &once);
}

int
bisect_decide(FILE *f, const struct rset *rs, char *good, char *bad, char *cand,
    const struct cmpopt *o)
{
	char *three[3] = { good, bad, cand };
	struct cmp m, ms;
	size_t nbad = 0, ngood = 0, nnone = 0, step = 0;

	if (step_cmp(&ms, rs, good, bad, o) != 0)
		return 125;
	if (cmp_build(&m, rs, three, 3, o) != 0) {
		cmp_free(&ms);
		return 125;
	}
	for (size_t i = 0; i < ms.ng; i++) {
		int fig = step_pick(&ms, &ms.g[i]);
		if (fig < 0)
			continue;
		step++;
		const struct cmpgroup *g = same_group(&m, &ms.g[i]);
		int c = g ? call_load(f, &m, g, fig) : 0;
		nbad += c < 0;
		ngood += c > 0;
		nnone += c == 0;
	}
	int rc = step == 0 ? 2 : nbad && !ngood && !nnone ? 1 :
	    ngood && !nbad && !nnone ? 0 : 125;
	if (step == 0)
		warnmsg("%s is no regression beyond %g%% against %s in any gated "
		    "figure: no step to bisect", bad, o->threshold, good);
	else
		fprintf(f, "%s looks %s (%zu of the step's %zu load%s bad, %zu good, %zu "
		    "can't tell; each by the half way and its tests against both at "
		    "alpha %g; the step at alpha %g and %g%%)\n", cand, rc == 0 ? "good" : rc == 1 ? "bad" :
		    "like neither: skip", nbad, step, step == 1 ? "" : "s", ngood, nnone,
		    m.alpha, ms.alpha, ms.threshold);
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
	cmp_free(&m);
	return step;
}
