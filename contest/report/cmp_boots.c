/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The boot as the unit of a kernel's samples.  A boot fixes page
 * placement, interrupt routing and where the job starts, so the spread
 * between boots can dwarf the spread within one (Kalibera and Jones,
 * ISMM 2013).  Two levels, runs within boots: each boot's mean of the
 * figure, S2^2 the variance of the boot means, and the within-boot part
 * of it, the mean over boots of the variance of a boot's mean from its
 * own runs (S1^2 / r1 where every boot has r1 runs); the boots' own
 * spread T2^2 = S2^2 - S1^2 / r1.  A label over two or more boots is
 * tested on its boot means, with the boots' degrees of freedom; a label
 * in one boot borrows T2^2 where a label of the comparison has it.
 * Two labels over as many boots share one boot-to-boot variance, as the
 * mixed model (lme's: runs within boots, the label fixed) has it: with
 * equal counts that is Student's t on the boot means, 2n - 2 df.  Its
 * standard error is Welch's; only the df differ, and Welch's fewer cost
 * power (scripts/bench/boots at 364a9d9, with Welch's df, found a true
 * +8% over 4 boots a side 78.5% of the time, CI95 77.0..79.9).  The
 * price: where one kernel's boots spread more than the other's, the
 * level slips (a simulation, 2 to 4 boots a side, two-sided at 0.05:
 * some 6% at twice the sd, 8 to 9% at four times).  Unequal counts,
 * where the slip is worse, keep Welch's.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "util.h"

#define BOOTS_MAX	256	/* boots of one label's cell told apart */

const char *const boot_note_names[] = {
	[BN_NONE] = "", [BN_ONE] = "one_boot", [BN_WIDENED] = "widened",
	[BN_UNRECORDED] = "unrecorded",
};

struct boot_acc {
	const char	*boot;
	size_t		 n[2];		/* runs: the cell's, its no_load's */
	double		 sum[2], sq[2];
};

/* The boots of c's runs (z: its no_load cell's, for Ratio) into b; how
 * many boots, or -1 where a run records none. */
static int
gather(const struct rcell *c, const struct rcell *z, int pv, struct boot_acc *b)
{
	int nb = 0;

	for (int side = 0; side < (pv < 0 ? 2 : 1); side++) {
		const struct rcell *cc = side ? z : c;
		for (size_t i = 0; cc && i < cc->npair; i++) {
			const struct rpair *p = &cc->pair[i];
			double x = pv < 0 ? p->v[fig_pool(FIG_WALL)] : rpair_v(p, pv);
			int k;
			if (p->boot == NULL)
				return -1;
			if (isnan(x) || isinf(x))
				continue;
			for (k = 0; k < nb && b[k].boot != p->boot; k++)
				;
			if (k == nb) {
				if (side || nb == BOOTS_MAX)
					continue;	/* no_load's boot the cell lacks */
				memset(&b[nb], 0, sizeof b[nb]);
				b[nb++].boot = p->boot;
			}
			b[k].n[side]++;
			b[k].sum[side] += x;
			b[k].sq[side] += x * x;
		}
	}
	return nb;
}

/* The mean of n values of sum and sum of squares, and the variance of
 * that mean (NaN below two). */
static double
mean_var(size_t n, double sum, double sq, double *var_mean)
{
	double m = sum / (double)n;
	double v = n > 1 ? (sq - sum * m) / (double)(n - 1) : NAN;

	*var_mean = v < 0 ? 0 : v / (double)n;
	return m;
}

int
cmp_boot_side(const struct rcell *c, const struct rcell *z,
    const struct column *k, struct bootside *s)
{
	static struct boot_acc b[BOOTS_MAX];
	int pv = col_pv(k), lg = k->log || pv < 0;
	int nb = gather(c, z, pv, b);
	double m[BOOTS_MAX], wsum = 0;
	size_t nw = 0, n = 0;

	memset(s, 0, sizeof *s);
	s->nb = 0;
	s->recorded = nb >= 0;
	if (nb <= 0)
		return nb;
	for (int i = 0; i < nb; i++) {
		double v0, v1, m0, m1;
		if (b[i].n[0] == 0 || (pv < 0 && b[i].n[1] == 0))
			continue;
		m0 = mean_var(b[i].n[0], b[i].sum[0], b[i].sq[0], &v0);
		if (pv < 0) {	/* the boot's own Ratio, and its delta-method part */
			m1 = mean_var(b[i].n[1], b[i].sum[1], b[i].sq[1], &v1);
			if (!(m0 > 0) || !(m1 > 0))
				continue;
			m[n] = log(m0 / m1);
			v0 = v0 / (m0 * m0) + v1 / (m1 * m1);
		} else if (lg) {
			if (!(m0 > 0))
				continue;
			m[n] = log(m0);
			v0 /= m0 * m0;
		} else
			m[n] = m0;
		if (!isnan(v0))
			wsum += v0, nw++;
		s->runs += b[i].n[0];
		n++;
	}
	struct stats st;
	stats_compute(m, n, &st);
	s->nb = n;
	s->log = lg;
	s->mean = st.mean;
	s->s2 = n > 1 ? st.sd * st.sd : NAN;
	s->within = nw ? wsum / (double)nw : NAN;
	/* relative to the side's level, for a figure tested raw */
	double rel = lg || st.mean == 0 ? 1 : st.mean * st.mean;
	s->t2 = n > 1 && !isnan(s->within) ? fmax(0, s->s2 - s->within) / rel : NAN;
	s->within_rel = s->within / rel;
	return (int)n;
}

int
cmp_boots_shared(const struct rcell *ca, const struct rcell *cb)
{
	for (size_t i = 0; i < ca->npair; i++)
		for (size_t j = 0; j < cb->npair; j++)
			if (ca->pair[i].boot && ca->pair[i].boot == cb->pair[j].boot)
				return 1;
	return 0;
}

void
cmp_boot_pool(double *v0, double *v1, size_t n0, size_t n1)
{
	/* each v is s2 / n: the pooled s2 over n, the same for both */
	if (n0 != n1 || n0 < 2 || isnan(*v0) || isnan(*v1))
		return;
	*v0 = *v1 = (*v0 + *v1) / 2;
}

/* The two sides' boot means, a t-test on them (Student's over as many
 * boots a side, else Welch's): the change, its variance in each side's
 * part and their degrees of freedom. */
void
cmp_boot_test(struct cmptest *t, const struct bootside *a,
    const struct bootside *b)
{
	double scale = a->log ? 1 : a->mean;

	t->kind = CT_BOOTS;
	t->log = a->log;
	t->boots[0] = a->nb;
	t->boots[1] = b->nb;
	t->est = (b->mean - a->mean) / scale;
	t->var[0] = a->s2 / (double)a->nb / (scale * scale);
	t->var[1] = b->s2 / (double)b->nb / (scale * scale);
	t->df[0] = (double)a->nb - 1;
	t->df[1] = (double)b->nb - 1;
	/* pooled, the parts equal: Welch-Satterthwaite's df is 2n - 2 */
	cmp_boot_pool(&t->var[0], &t->var[1], a->nb, b->nb);
	double se = sqrt(t->var[0] + t->var[1]);
	t->dfse = stats_ws_df(t->var[0], t->df[0], t->var[1], t->df[1]);
	t->p = se > 0 ? stats_t_pvalue(t->est / se, t->dfse) : t->est == 0 ? 1 : 0;
}

/* Side i of t in one boot: its part widened by the boots' own spread t2
 * (estimated over df boots' worth), the test's df and p made again. */
void
cmp_boot_widen(struct cmptest *t, int i, double t2, double df)
{
	double v = t->var[i], d = t->df[i];

	if (isnan(v) || isnan(t2))
		return;
	t->var[i] = v + t2;
	t->df[i] = stats_ws_df(v, d, t2, df);
	double var1 = isnan(t->var[1]) ? 0 : t->var[1];
	double se = sqrt(t->var[0] + var1);
	t->dfse = isnan(t->var[1]) ? t->df[0] :
	    stats_ws_df(t->var[0], t->df[0], t->var[1], t->df[1]);
	t->p = se > 0 ? stats_t_pvalue(t->est / se, t->dfse) : t->est == 0 ? 1 : 0;
}

/* One side over two or more boots (m), the other in one (s): the first
 * on its boot means, the second on its runs widened by the first's
 * spread; est of b against a. */
static void
mixed(struct cmptest *t, const struct bootside *a, const struct bootside *b,
    const char *label)
{
	const struct bootside *m = a->nb > 1 ? a : b, *s = a->nb > 1 ? b : a;
	double scale = a->log ? 1 : a->mean, sc2 = scale * scale;
	int im = m == a ? 0 : 1;

	t->kind = CT_BOOTS;
	t->log = a->log;
	t->boots[0] = a->nb;
	t->boots[1] = b->nb;
	t->est = (b->mean - a->mean) / scale;
	t->var[im] = m->s2 / (double)m->nb / sc2;
	t->df[im] = (double)m->nb - 1;
	t->var[!im] = s->within / sc2;
	t->df[!im] = s->runs > 1 ? (double)s->runs - 1 : NAN;
	t->boot_note = BN_WIDENED;
	t->spread_label = label;
	t->spread_boots = m->nb;
	cmp_boot_widen(t, !im, m->t2 * (a->log ? 1 : m->mean * m->mean / sc2),
	    (double)m->nb - 1);
}

/* Both sides in a boot of their own, each widened by one estimate t2 of
 * the boots' spread over df: the difference's variance v0 + v1 + 2 t2,
 * its df by Welch-Satterthwaite over the three parts, the shared
 * estimate counted once. */
static void
widen_both(struct cmptest *t, double t2, double df)
{
	double v0 = t->var[0], v1 = t->var[1], d0 = t->df[0], d1 = t->df[1];

	if (isnan(v0) || isnan(v1) || isnan(t2))
		return;
	t->var[0] = v0 + t2;
	t->var[1] = v1 + t2;
	t->df[0] = stats_ws_df(v0, d0, t2, df);
	t->df[1] = stats_ws_df(v1, d1, t2, df);
	double sum = v0 + v1 + 2 * t2;
	double den = v0 * v0 / d0 + v1 * v1 / d1 + 4 * t2 * t2 / df;
	t->dfse = den > 0 ? sum * sum / den : d0 + d1;
	t->p = sum > 0 ? stats_t_pvalue(t->est / sqrt(sum), t->dfse) :
	    t->est == 0 ? 1 : 0;
}

void
cmp_boots(struct cmptest *t, const struct rcell *a, const struct rcell *b,
    const struct rcell *za, const struct rcell *zb, const struct column *k,
    const char *la, const char *lb, const struct bootspread *sp)
{
	struct bootside A, B;

	t->boots[0] = t->boots[1] = 0;
	t->boot_note = BN_NONE;
	t->spread_label = NULL;
	t->spread_boots = 0;
	/* paired: rounds of one session, so of one boot */
	if (t->kind == CT_NONE || t->kind == CT_PAIRED)
		return;
	cmp_boot_side(a, za, k, &A);
	cmp_boot_side(b, zb, k, &B);
	if (!A.recorded || !B.recorded) {
		if (A.recorded != B.recorded && a->npair && b->npair)
			t->boot_note = BN_UNRECORDED;
		return;
	}
	if (A.nb == 0 || B.nb == 0 || cmp_boots_shared(a, b))
		return;		/* labels of one boot: its runs are the samples */
	if (A.nb > 1 && B.nb > 1) {
		cmp_boot_test(t, &A, &B);
		return;
	}
	if (A.nb > 1 || B.nb > 1) {
		mixed(t, &A, &B, A.nb > 1 ? la : lb);
		return;
	}
	t->boots[0] = t->boots[1] = 1;
	if (sp == NULL || sp->nb < 2 || isnan(sp->t2)) {
		t->boot_note = BN_ONE;
		return;
	}
	t->boot_note = BN_WIDENED;
	t->spread_label = sp->label;
	t->spread_boots = sp->nb;
	widen_both(t, sp->t2, (double)sp->nb - 1);
}

/* What its tests rest on where the runs say their boots: ", over 3 and 3
 * boots", "; one boot each: ...". */
void
cmp_boots_how(char *buf, size_t len, const struct cmpcol *c)
{
	size_t n = 0;

	if (c->nboots && c->boots[0] > 1 && c->boots[1] > 1)
		n += (size_t)snprintf(buf + n, len - n, ", over %zu and %zu boots",
		    c->boots[0], c->boots[1]);
	if (c->nwidened && n < len)
		n += (size_t)snprintf(buf + n, len - n, "; one boot a side widened by "
		    "the boot-to-boot spread of %s's %zu boots", c->widened_label ?
		    c->widened_label : "?", c->widened_boots);
	if (c->noneboot && n < len)
		n += (size_t)snprintf(buf + n, len - n, "; one boot each: a "
		    "boot-to-boot difference reads the same");
	if (c->nunrecorded && n < len)
		snprintf(buf + n, len - n, "; one label's runs record no boot (older "
		    "results): tested over runs");
}

/* The legend's line on boots, where any test rested on them. */
void
cmp_boots_legend(FILE *f, const struct cmp *m, const char *li)
{
	size_t boots = 0;

	for (size_t k = 1; k < m->ncol; k++)
		boots += m->col[k].nboots + m->col[k].noneboot + m->col[k].nwidened;
	if (boots)
		fprintf(f, "%sBoots: labels that ran in boots of their own are "
		    "compared boot by boot: over two or more boots a side, a t-test "
		    "on the boot means (of log Time, of each boot's log Ratio), "
		    "Student's over as many boots a side (one boot-to-boot variance, "
		    "as a mixed model's), else Welch's, with the boots' df; a label "
		    "in one boot widened by a compared label's boot-to-boot spread "
		    "(T2^2 = S2^2 - S1^2/r1); one boot each with none known never "
		    "claims no change and marks a regression possibly the boot.\n",
		    li);
}

int
cmp_boot_point(const struct column *k, const struct rcell *c,
    const struct rcell *z, double *mean, double *ci95)
{
	double v[64];
	size_t n = 0;

	if (!(k->src == S_FIG && k->fig == FIG_WALL) && k->src != S_RATIO)
		return 0;
	for (size_t i = 0; i < c->nboot && n < sizeof v / sizeof v[0]; i++) {
		const struct rboot *b = &c->boot[i];
		if (b->n == 0)
			continue;
		v[n] = b->wall / (double)b->n;
		if (k->src == S_RATIO) {	/* over its boot's own no_load */
			size_t j;
			for (j = 0; z && j < z->nboot && z->boot[j].boot != b->boot; j++)
				;
			if (z == NULL || j == z->nboot || z->boot[j].n == 0 ||
			    !(z->boot[j].wall > 0))
				continue;
			v[n] /= z->boot[j].wall / (double)z->boot[j].n;
		}
		n++;
	}
	if (n < 2)
		return 0;
	struct stats st;
	stats_compute(v, n, &st);
	*mean = st.mean;
	*ci95 = st.ci95;
	return 1;
}
