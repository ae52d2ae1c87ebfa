/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The boot as the unit of a kernel's samples.  A boot fixes page
 * placement, interrupt routing and where the job starts, so the spread
 * between boots can dwarf the spread within one (Kalibera and Jones,
 * ISMM 2013).  Two labels measured in boots of their own are compared in
 * one model whatever the counts: runs within boots, a level per label,
 * one boot-to-boot variance and one within a boot (lib/reml.c, as nlme
 * fits it).  With as many boots a side and as many runs a boot that is
 * Student's t on the boot means; one boot against several takes the
 * several's spread, with their df; one run a boot, the boot means' spread
 * holds both levels and the model need not split them.  The model
 * takes both kernels' boots to spread alike; where the counts differ
 * and the kernel with fewer boots spreads wider, its level slips (2
 * boots against 4, that side's boot sd 4x: p < 0.05 in some 22% of
 * A/As).  So unequal counts of two or more boots a side are read as
 * well by Welch's t on the boot means, which takes no common spread, and
 * the reading with the larger p stands: the two tests' union, as
 * cautious as the more cautious (simulated on boot means: that case 9%,
 * the equal-spread A/A 3% rather than 5%; a true +8% at 2 against 3
 * boots found as often as at 2 and 2, no more).  Equal counts keep the
 * model alone:
 * Student's t with as many samples a side holds its level whatever the
 * two spreads, and Welch's df there only cost power.  One boot a side
 * has no spread of its own: it takes the other's, as it must.  Two
 * labels in one boot, in sessions of their own, drift apart as boots
 * do (the cache, the room, what else ran): their sessions are the units
 * by the same rules; a session in common, its rounds or runs.  The
 * rates: scripts/bench/boots.  cmp_boot_side's summaries are plan's.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reml.h"
#include "report.h"
#include "util.h"

#define BOOTS_MAX	256	/* boots of one label's cell told apart */

const char *const boot_note_names[] = {
	[BN_NONE] = "", [BN_ONE] = "one_boot", [BN_WIDENED] = "widened",
	[BN_UNRECORDED] = "unrecorded", [BN_WELCH] = "welch",
};

struct boot_acc {
	const char	*boot;
	size_t		 n[2];		/* runs: the cell's, its no_load's */
	double		 sum[2], sq[2];
};

/* Whether every run of c says its boot. */
static int
recorded(const struct rcell *c)
{
	for (size_t i = 0; c && i < c->npair; i++)
		if (c->pair[i].boot == NULL)
			return 0;
	return 1;
}

/* A run's unit: its boot, or (ses) its session. */
static const char *
unit_of(const struct rpair *p, int ses)
{
	return ses ? p->session : p->boot;
}

/* Whether two cells share a unit: a boot, or (ses) a session. */
static int
units_shared(const struct rcell *ca, const struct rcell *cb, int ses)
{
	for (size_t i = 0; i < ca->npair; i++)
		for (size_t j = 0; j < cb->npair; j++)
			if (unit_of(&ca->pair[i], ses) &&
			    unit_of(&ca->pair[i], ses) == unit_of(&cb->pair[j], ses))
				return 1;
	return 0;
}

/* The boots (ses: sessions) of c's runs (z: its no_load cell's, for
 * Ratio) into b, runs that record no boot as one; each run's log where
 * logs (Ratio's runs: as they are); how many. */
static size_t
gather(const struct rcell *c, const struct rcell *z, int pv, int logs, int ses,
    struct boot_acc *b)
{
	size_t nb = 0;

	for (int side = 0; side < (pv < 0 ? 2 : 1); side++) {
		const struct rcell *cc = side ? z : c;
		for (size_t i = 0; cc && i < cc->npair; i++) {
			const struct rpair *p = &cc->pair[i];
			double x = pv < 0 ? p->v[fig_pool(FIG_WALL)] : rpair_v(p, pv);
			size_t k;
			if (isnan(x) || isinf(x) || (logs && !(x > 0)))
				continue;
			if (logs && pv >= 0)
				x = log(x);
			for (k = 0; k < nb && b[k].boot != unit_of(p, ses); k++)
				;
			if (k == nb) {
				if (side || nb == BOOTS_MAX)
					continue;	/* no_load's unit the cell lacks */
				memset(&b[nb], 0, sizeof b[nb]);
				b[nb++].boot = unit_of(p, ses);
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
	int rec = recorded(c) && (pv >= 0 || recorded(z));
	int nb = rec ? (int)gather(c, z, pv, 0, 0, b) : -1;
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
	return units_shared(ca, cb, 0);
}

size_t
cmp_sessions_of_boot(const struct rcell *c, const struct rcell *z,
    const struct column *k)
{
	static struct boot_acc acc[BOOTS_MAX];

	for (size_t i = 0; c && i < c->npair; i++)
		if (c->pair[i].boot == NULL || c->pair[i].boot != c->pair[0].boot)
			return 0;
	return c ? gather(c, z, col_pv(k), 0, 1, acc) : 0;
}

/* The boots (ses: sessions) of c's runs (z: its no_load cell's, for
 * Ratio) as the model takes them, label l, appended to b at *n: each boot's runs on the
 * test's scale (logs for a log figure, one log Ratio a boot), their
 * mean and sum of squares; runs that record no boot (older results) are
 * one boot.  How many boots. */
static size_t
model_side(const struct rcell *c, const struct rcell *z, const struct column *k,
    int l, int ses, struct reml_boot *b, size_t *n)
{
	static struct boot_acc acc[BOOTS_MAX];
	int pv = col_pv(k);
	size_t nb = gather(c, z, pv, k->log || pv < 0, ses, acc), got = 0;

	for (size_t a = 0; a < nb; a++) {
		struct reml_boot *r = &b[*n];
		double v;
		if (acc[a].n[0] == 0 || (pv < 0 && acc[a].n[1] == 0))
			continue;
		r->label = l;
		if (pv < 0) {	/* the boot's own Ratio: one value */
			r->n = 1;
			r->mean = log(acc[a].sum[0] / (double)acc[a].n[0] /
			    (acc[a].sum[1] / (double)acc[a].n[1]));
			r->ss = 0;
		} else {
			r->n = acc[a].n[0];
			r->mean = mean_var(r->n, acc[a].sum[0], acc[a].sq[0], &v);
			r->ss = r->n > 1 ? v * (double)r->n * (double)(r->n - 1) : 0;
		}
		(*n)++;
		got++;
	}
	return got;
}

/* Unequal counts of two or more boots a side (labels 0 and 1 of b):
 * Welch's t on the boot means (scale: the baseline's level, for a raw
 * figure) in place of the model's where its p is the larger. */
static void
welch_guard(struct cmptest *t, const struct reml_boot *b, size_t n, double scale)
{
	double sum[2] = { 0 }, ss[2] = { 0 }, m[2], v[2];
	size_t c[2] = { 0 };

	for (size_t j = 0; j < n; j++)
		if (b[j].label < 2)
			c[b[j].label]++, sum[b[j].label] += b[j].mean;
	if (c[0] < 2 || c[1] < 2 || c[0] == c[1])
		return;
	for (int l = 0; l < 2; l++)
		m[l] = sum[l] / (double)c[l];
	for (size_t j = 0; j < n; j++)
		if (b[j].label < 2) {
			double d = b[j].mean - m[b[j].label];
			ss[b[j].label] += d * d;
		}
	for (int l = 0; l < 2; l++)
		v[l] = ss[l] / (double)(c[l] - 1) / (double)c[l] / (scale * scale);
	double se = sqrt(v[0] + v[1]), est = (m[1] - m[0]) / scale;
	double df = se > 0 ? (v[0] + v[1]) * (v[0] + v[1]) /
	    (v[0] * v[0] / (double)(c[0] - 1) + v[1] * v[1] / (double)(c[1] - 1)) : 1;
	double p = se > 0 ? stats_t_pvalue(est / se, df) : est == 0 ? 1 : 0;
	if (!(p > t->p))
		return;
	t->est = est;
	t->var[0] = v[0], t->var[1] = v[1];
	t->df[0] = (double)(c[0] - 1), t->df[1] = (double)(c[1] - 1);
	t->dfse = df;
	t->p = p;
	t->boot_note = BN_WELCH;
}

/* t from the model fitted to boots b[0..n-1] of nlabel labels: the
 * change of label 1 against label 0, its variance and df, p. */
static int
model_test(struct cmptest *t, const struct reml_boot *b, size_t n, int nlabel,
    int lg)
{
	struct reml_fit f;

	if (reml_fit(b, n, nlabel, &f) != 0)
		return 0;
	double scale = lg ? 1 : f.mu[0];
	if (!(scale != 0) || isnan(f.var10))
		return 0;
	t->kind = CT_BOOTS;
	t->log = lg;
	t->est = (f.mu[1] - f.mu[0]) / scale;
	t->var[0] = f.var10 / (scale * scale);
	t->var[1] = t->df[1] = NAN;
	t->df[0] = t->dfse = f.df;
	t->boot_note = BN_NONE;
	double se = sqrt(t->var[0]);
	t->p = se > 0 ? stats_t_pvalue(t->est / se, f.df) : t->est == 0 ? 1 : 0;
	if (nlabel == 2)
		welch_guard(t, b, n, scale);
	return 1;
}

/* The model on a's and b's boots, gathered into bt at *n, their counts
 * into na and nb: 1 where it was fitted into t. */
static int
pair_model(struct cmptest *t, const struct rcell *a, const struct rcell *b,
    const struct rcell *za, const struct rcell *zb, const struct column *k,
    int ses, struct reml_boot *bt, size_t *n, size_t *na, size_t *nb)
{
	*na = *nb = 0;
	if (a == NULL || b == NULL || (!recorded(a) && !recorded(b)) ||
	    units_shared(a, b, ses))
		return 0;
	*na = model_side(a, za, k, 0, ses, bt, n);
	*nb = model_side(b, zb, k, 1, ses, bt, n);
	if (*na == 0 || *nb == 0 || *na + *nb < 3 ||
	    !model_test(t, bt, *n, 2, k->log || col_pv(k) < 0))
		return 0;
	t->boots[0] = *na;
	t->boots[1] = *nb;
	return 1;
}

int
cmp_boot_pair(struct cmptest *t, const struct rcell *a, const struct rcell *b,
    const struct rcell *za, const struct rcell *zb, const struct column *k)
{
	static struct reml_boot bt[2 * BOOTS_MAX];
	size_t n = 0, na, nb;

	return pair_model(t, a, b, za, zb, k, 0, bt, &n, &na, &nb);
}

void
cmp_boots(struct cmptest *t, const struct rcell *a, const struct rcell *b,
    const struct rcell *za, const struct rcell *zb, const struct column *k,
    const char *la, const char *lb, const struct bootspread sp[2])
{
	static struct reml_boot bt[3 * BOOTS_MAX];
	struct cmptest m = *t;
	size_t n = 0, na, nb;

	t->boots[0] = t->boots[1] = 0;
	t->boot_note = BN_NONE;
	t->spread_label = NULL;
	t->spread_boots = 0;
	t->by_session = 0;
	/* paired: rounds of one session, so of one boot */
	if (t->kind == CT_NONE || t->kind == CT_PAIRED)
		return;
	int ra = recorded(a), rb = recorded(b), ses = 0;
	if (!ra && !rb)
		return;		/* older results: the runs */
	if (ra && rb && cmp_boots_shared(a, b)) {
		/* one boot: its sessions are the units, as boots are between
		 * boots; a session in common, the runs */
		if (units_shared(a, b, 1))
			return;
		ses = 1;
		sp = sp ? &sp[1] : NULL;
	} else if (cmp_boots_shared(a, b))
		return;
	m.by_session = ses;
	if (pair_model(&m, a, b, za, zb, k, ses, bt, &n, &na, &nb)) {
		*t = m;
		if (t->boots[0] == 1 || t->boots[1] == 1) {
			int multi = t->boots[0] > 1 ? 0 : 1;
			t->boot_note = BN_WIDENED;
			t->spread_label = multi ? lb : la;
			t->spread_boots = t->boots[multi];
		}
		if (ra != rb)
			t->boot_note = BN_UNRECORDED;
		return;
	}
	if (na != 1 || nb != 1)
		return;
	t->boots[0] = t->boots[1] = 1;
	t->by_session = ses;
	t->boot_note = ra != rb ? BN_UNRECORDED : BN_ONE;
	/* one unit each: the units of a label that has them, in the model
	 * beside the two, give it its spread */
	if (sp == NULL || sp->c == NULL || !recorded(sp->c) ||
	    units_shared(sp->c, a, ses) || units_shared(sp->c, b, ses) ||
	    model_side(sp->c, sp->z, k, 2, ses, bt, &n) < 2 ||
	    !model_test(&m, bt, n, 3, k->log || col_pv(k) < 0))
		return;
	*t = m;
	t->boots[0] = t->boots[1] = 1;
	t->by_session = ses;
	t->boot_note = ra != rb ? BN_UNRECORDED : BN_WIDENED;
	t->spread_label = sp->label;
	t->spread_boots = sp->nb;
}

/* What its tests rest on where the runs say their boots: ", over 1 and
 * 3 boots; a label in one boot widened by ..."; sessions of one boot
 * named as such. */
void
cmp_boots_how(char *buf, size_t len, const struct cmpcol *c)
{
	const char *u = c->nsession ? "session" : "boot";
	size_t n = 0;

	if (c->nboots && (c->boots[0] > 1 || c->boots[1] > 1))
		n += (size_t)snprintf(buf + n, len - n, ", over %zu and %zu %ss%s",
		    c->boots[0], c->boots[1], u, c->nsession ? " of one boot" : "");
	if (c->nunrecorded && n < len)
		n += (size_t)snprintf(buf + n, len - n, "; one label's runs record "
		    "no boot (older results): one boot");
	if (c->nwidened && n < len)
		n += (size_t)snprintf(buf + n, len - n, "; a label in one %s "
		    "widened by the %s-to-%s spread of %s's %zu %ss", u, u, u,
		    c->widened_label ? c->widened_label : "?", c->widened_boots, u);
	if (c->nwelch && n < len)
		n += (size_t)snprintf(buf + n, len - n, "; Welch's on %s means", u);
	if (c->nonesession && n < len)
		snprintf(buf + n, len - n, "; two sessions of one boot: a "
		    "session-to-session difference reads the same");
	else if (c->noneboot && n < len)
		snprintf(buf + n, len - n, "; one boot each: a boot-to-boot "
		    "difference reads the same");
}

/* The legend's line on boots, where any test rested on them. */
void
cmp_boots_legend(FILE *f, const struct cmp *m, const char *li)
{
	size_t boots = 0;

	for (size_t k = 1; k < m->ncol; k++)
		boots += m->col[k].nboots + m->col[k].noneboot + m->col[k].nwidened +
		    m->col[k].nunrecorded;
	if (boots)
		fprintf(f, "%sBoots: labels that ran in boots of their own are "
		    "compared in one model for every count of boots, R nlme's "
		    "lme(y ~ label, random = ~1 | boot) by REML: y a run's log Time "
		    "(a boot's log Ratio, or the figure), a level per label, one "
		    "boot-to-boot variance for both labels and one within a boot; "
		    "its t at boots - labels df.  A label in one boot takes the "
		    "other's boot-to-boot spread; one boot each, a third label's "
		    "over two or more boots of the same host, command and load, "
		    "else can't tell whatever the runs say, a change they call "
		    "marked possibly the boot.  Runs that record no boot (older "
		    "results) are one boot.  Labels in sessions of their own in "
		    "one boot are compared so with the session as the unit: one "
		    "each can't tell, a label over sessions of one boot lends "
		    "their spread.  The model takes both kernels' boots to spread alike; "
		    "at unequal counts of two or more boots a side Welch's t on the "
		    "boot means, which does not, is read too and the larger p "
		    "stands (scripts/bench/boots).\n", li);
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
