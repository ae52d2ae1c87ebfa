/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * contest bisect: whether a candidate's runs look like the good label's
 * or the bad one's, for git bisect run: 0 good, 1 bad, 125 skip.  Never
 * a guess: in every gated figure the step moved (BAD against GOOD: a
 * regression beyond the threshold), the candidate is bad where against
 * GOOD it is a regression too and against BAD no change (or worse), good
 * where against BAD it is an improvement and against GOOD no change (or
 * better): compare's four words, each side's, so that a drift between
 * sessions smaller than the threshold is no change, not a call.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
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

/* Within the threshold, or beyond it the given way (+1 worse, -1 better). */
static int
no_worse(const struct cmpval *v, int way)
{
	return v->verdict == CV_NOCHANGE ||
	    v->verdict == (way > 0 ? CV_REGRESSION : CV_IMPROVEMENT);
}

/* Whether figure fig of group g is in the step: gated, and BAD (column
 * 1) a regression against GOOD. */
static int
step_figure(const struct cmp *m, const struct cmpgroup *g, int fig)
{
	return cmp_fig(m->rs, fig)->gate && (m->gate & CMP_GATE(fig)) &&
	    val(m, g, fig, 1)->verdict == CV_REGRESSION;
}

/* One figure of the step: -1 bad, +1 good, 0 can't tell. */
static int
call_figure(FILE *f, const struct cmp *m, const struct cmp *m2,
    const struct cmpgroup *g, int fig)
{
	const struct column *k = cmp_fig(m->rs, fig);
	const struct cmpgroup *g2 = same_group(m2, g);
	const struct cmpval *vg = val(m, g, fig, 2);
	const struct cmpval *vb = g2 ? val(m2, g2, fig, 1) : NULL;
	char name[256];
	int bad = vg->verdict == CV_REGRESSION && vb && no_worse(vb, +1);
	int good = vb && vb->verdict == CV_IMPROVEMENT && no_worse(vg, -1);

	fprintf(f, "%s %s: %s against %s %+.1f%% (p=%.2g, %s), against %s ",
	    cmp_group_name(name, sizeof name, m, g), k->head, m->col[2].label,
	    m->col[0].label, vg->est_pct, vg->p, cmp_verdict_names[vg->verdict],
	    m->col[1].label);
	if (vb)
		fprintf(f, "%+.1f%% (p=%.2g, %s)", vb->est_pct, vb->p,
		    cmp_verdict_names[vb->verdict]);
	else
		fputs("untested", f);
	fprintf(f, ": %s\n", bad ? "bad" : good ? "good" : "can't tell");
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
	char *three[3] = { good, bad, cand }, *two[2] = { bad, cand };
	struct cmp m, m2, ms;
	size_t nbad = 0, ngood = 0, nnone = 0, step = 0;

	if (step_cmp(&ms, rs, good, bad, o) != 0)
		return 125;
	if (cmp_build(&m, rs, three, 3, o) != 0) {
		cmp_free(&ms);
		return 125;
	}
	if (cmp_build(&m2, rs, two, 2, o) != 0) {
		cmp_free(&ms);
		cmp_free(&m);
		return 125;
	}
	for (size_t i = 0; i < ms.ng; i++)
		for (int fig = 0; fig < cmp_nfig(rs); fig++) {
			/* the step: BAD a regression against GOOD */
			if (!step_figure(&ms, &ms.g[i], fig))
				continue;
			step++;
			const struct cmpgroup *g = same_group(&m, &ms.g[i]);
			int c = g ? call_figure(f, &m, &m2, g, fig) : 0;
			nbad += c < 0;
			ngood += c > 0;
			nnone += c == 0;
		}
	int rc = step == 0 ? 2 : nbad && !ngood && !nnone ? 1 :
	    ngood && !nbad && !nnone ? 0 : 125;
	if (step == 0)
		warnmsg("bisect: %s is no regression beyond %g%% against %s in any gated "
		    "figure: no step to bisect", bad, o->threshold, good);
	else
		fprintf(f, "%s looks %s (%zu of the step's %zu figures bad, %zu good, %zu "
		    "can't tell; each call two of compare's verdicts, at alpha %g and "
		    "%g%%; the step at alpha %g)\n", cand, rc == 0 ? "good" : rc == 1 ?
		    "bad" : "like neither: skip", nbad, step, ngood, nnone, m.alpha,
		    m.threshold, ms.alpha);
	cmp_free(&ms);
	cmp_free(&m);
	cmp_free(&m2);
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
		for (int fig = 0; fig < cmp_nfig(rs); fig++)
			step += step_figure(&m, &m.g[i], fig);
	cmp_free(&m);
	return step;
}
