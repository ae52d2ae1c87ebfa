/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * contest bisect: whether a candidate's runs look like the good label's
 * or the bad one's, for git bisect run: 0 good, 1 bad, 125 skip.  Never
 * a guess: a call needs a significant test in its direction and none
 * against it, in every gated figure the step between GOOD and BAD moved.
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

/* A change significant and the given way (+1 worse, -1 better). */
static int
moved(const struct cmpval *v, int worse, int way)
{
	return v->t.kind != CT_NONE && v->sig && way * worse * v->est_pct > 0;
}

/* One figure of the step: -1 bad, +1 good, 0 can't tell. */
static int
call_figure(FILE *f, const struct cmp *m, const struct cmp *m2,
    const struct cmpgroup *g, int fig)
{
	const struct column *k = &cmp_figs[fig];
	const struct cmpgroup *g2 = same_group(m2, g);
	const struct cmpval *vg = val(m, g, fig, 2);
	const struct cmpval *vb = g2 ? val(m2, g2, fig, 1) : NULL;
	char name[256];
	int bad = moved(vg, k->worse, +1) && !(vb && moved(vb, k->worse, -1));
	int good = vb && moved(vb, k->worse, -1) && !moved(vg, k->worse, +1);

	fprintf(f, "%s %s: %s against %s %+.1f%% (p=%.2g), against %s ",
	    cmp_group_name(name, sizeof name, m, g), k->head, m->col[2].label,
	    m->col[0].label, vg->est_pct, vg->p, m->col[1].label);
	if (vb)
		fprintf(f, "%+.1f%% (p=%.2g)", vb->est_pct, vb->p);
	else
		fputs("untested", f);
	fprintf(f, ": %s\n", bad ? "bad" : good ? "good" : "can't tell");
	return bad ? -1 : good ? 1 : 0;
}

int
bisect_decide(FILE *f, const struct rset *rs, char *good, char *bad, char *cand,
    const struct cmpopt *o)
{
	char *three[3] = { good, bad, cand }, *two[2] = { bad, cand };
	struct cmp m, m2;
	size_t nbad = 0, ngood = 0, nnone = 0, step = 0;

	if (cmp_build(&m, rs, three, 3, o) != 0)
		return 125;
	if (cmp_build(&m2, rs, two, 2, o) != 0) {
		cmp_free(&m);
		return 125;
	}
	for (size_t i = 0; i < m.ng; i++)
		for (int fig = 0; fig < CF_NFIG; fig++) {
			/* the step: BAD significantly worse than GOOD */
			if (!cmp_figs[fig].gate || !(o->gate & CMP_GATE(fig)) ||
			    !moved(val(&m, &m.g[i], fig, 1), cmp_figs[fig].worse, +1))
				continue;
			step++;
			int c = call_figure(f, &m, &m2, &m.g[i], fig);
			nbad += c < 0;
			ngood += c > 0;
			nnone += c == 0;
		}
	int rc = step == 0 ? 2 : nbad && !ngood && !nnone ? 1 :
	    ngood && !nbad && !nnone ? 0 : 125;
	if (step == 0)
		warnmsg("bisect: %s is not significantly worse than %s in any gated "
		    "figure: no step to bisect", bad, good);
	else
		fprintf(f, "%s looks %s (%zu of the step's %zu figures bad, %zu good, %zu "
		    "can't tell; each call a test at alpha %g in its direction and none "
		    "against it)\n", cand, rc == 0 ? "good" : rc == 1 ? "bad" :
		    "like neither: skip", nbad, step, ngood, nnone, m.alpha);
	cmp_free(&m);
	cmp_free(&m2);
	return rc;
}

long
bisect_step(const struct rset *rs, char *good, char *bad, const struct cmpopt *o)
{
	char *two[2] = { good, bad };
	struct cmp m;
	long step = 0;

	if (cmp_build(&m, rs, two, 2, o) != 0)
		return -1;
	for (size_t i = 0; i < m.ng; i++)
		for (int fig = 0; fig < CF_NFIG; fig++)
			step += cmp_figs[fig].gate && (o->gate & CMP_GATE(fig)) &&
			    moved(val(&m, &m.g[i], fig, 1), cmp_figs[fig].worse, +1);
	cmp_free(&m);
	return step;
}
