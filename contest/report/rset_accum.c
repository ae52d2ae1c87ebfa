/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A cell's runs as they are read (struct cell_acc): the pooled figures one
 * value a run, the tested-only ones as running sums, counters summed,
 * histograms merged, and each run's telemetry while it fits the budget;
 * rs_accumulate() both adds a run and takes one out again.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rset_impl.h"
#include "util.h"

/* vmstat's members, then the job's own */
const char *const rset_telemetry[RSET_NTEL] = {
#define TEL_NAME(id, key) key,
	VMSTAT_KEYS(TEL_NAME)
#undef TEL_NAME
	"job majflt", "job nivcsw", "job migrations", "run-queue wait ms",
};

void
rs_dpush(struct dvec *d, double x)
{
	if (isnan(x))
		return;
	xgrow(&d->v, &d->cap, d->n + 1, sizeof *d->v, 8);
	d->v[d->n++] = x;
}

/* The accumulator of cell (row, blk), made when first needed. */
uint32_t
rs_acc_for(struct rset *rs, size_t row, size_t blk)
{
	struct rindex *ix = rs->ix;

	if (blk >= ix->cells[row].n) {
		xgrow(&ix->cells[row].acc, &ix->cells[row].cap, blk + 1, sizeof(uint32_t), 8);
		for (size_t i = ix->cells[row].n; i <= blk; i++)
			ix->cells[row].acc[i] = UINT32_MAX;
		ix->cells[row].n = blk + 1;
	}
	if (ix->cells[row].acc[blk] != UINT32_MAX)
		return ix->cells[row].acc[blk];
	xgrow(&rs->acc, &rs->capacc, rs->nacc + 1, sizeof *rs->acc, 8);
	struct cell_acc *a = &rs->acc[rs->nacc];
	memset(a, 0, sizeof *a);
	a->row = row;
	a->blk = blk;
	ix->cells[row].acc[blk] = (uint32_t)rs->nacc;
	return (uint32_t)rs->nacc++;
}

/* count v into bucket i of a cell's histogram, its window grown to hold i */
static void
window_add(struct cell_lat *c, size_t i, unsigned long long v)
{
	struct hist *h = &c->h;

	if (c->count == NULL) {
		c->count = xcalloc(1, sizeof *c->count);
		h->lo = i;
		h->n = 1;
	} else if (i < h->lo || i >= h->lo + h->n) {
		size_t lo = i < h->lo ? i : h->lo;
		size_t hi = i >= h->lo + h->n ? i + 1 : h->lo + h->n;
		unsigned long long *nc = xcalloc(hi - lo, sizeof *nc);
		memcpy(nc + (h->lo - lo), c->count, h->n * sizeof *nc);
		free(c->count);
		c->count = nc;
		h->lo = lo;
		h->n = hi - lo;
	}
	c->count[i - h->lo] += v;
	h->count = c->count;
}

/*
 * One run's histogram into its cell's, in the coarsest layout among the
 * runs (a schema 1 run makes the cell coarse: what is there is spread
 * into the coarser buckets); the extremes exact only while every run's
 * are.  A cell keeps only the window of buckets its runs used.  Sign -1
 * takes a run out again; where it held an extreme, the cell's is no
 * longer known exactly.
 */
static void
lat_merge(struct cell_lat *c, int *inexact, const struct run_lat *l, int sign)
{
	if (l->what == NULL)
		return;
	if (sign < 0) {
		for (size_t k = 0; k < l->n && c->count; k++) {
			size_t i = hist_index(l->pair[2 * k], c->h.sub);
			if (i >= c->h.lo && i < c->h.lo + c->h.n)
				c->count[i - c->h.lo] -= l->pair[2 * k + 1];
		}
		if (l->max && (l->min <= c->h.min || l->max >= c->h.max))
			*inexact = 1;
		return;
	}
	if (c->what == NULL)
		c->h.min = ~0ULL, c->h.max = 0;
	c->what = l->what;
	if (c->h.sub == 0 || l->sub < c->h.sub) {
		struct cell_lat old = *c;
		c->count = NULL;
		c->h.sub = l->sub;
		for (size_t k = 0; k < old.h.n; k++)
			if (old.count[k])
				window_add(c, hist_index(hist_floor(old.h.lo + k,
				    old.h.sub), l->sub), old.count[k]);
		free(old.count);
	}
	for (size_t k = 0; k < l->n; k++)
		window_add(c, hist_index(l->pair[2 * k], c->h.sub), l->pair[2 * k + 1]);
	if (c->count == NULL)	/* a run with nothing counted: an empty window */
		window_add(c, 0, 0);
	if (l->max == 0 && l->n > 0)
		*inexact = 1;
	if (l->max && l->min < c->h.min)
		c->h.min = l->min;
	if (l->max > c->h.max)
		c->h.max = l->max;
}

void
rs_run_tel(struct run_tel *t, const struct jnode *o, uint32_t file, uint32_t line)
{
	const struct jnode *vm = LGET(o, RK_FIG(VMSTAT));

	t->at.file = file;
	t->at.line = line;
	t->runno = (long)LINT(o, RK_RUN, 0, 0, 1L << 30);
	t->wall = LNUM(o, RK_FIG(WALL), NAN);
	for (int i = 0; i < VMSTAT_NTEL; i++)
		t->tel[i] = jget_num(vm, vmstat_keys[i], NAN);
	t->tel[RSET_NTEL - 4] = LNUM(o, RK_FIG(MAJFLT), NAN);
	t->tel[RSET_NTEL - 3] = LNUM(o, RK_FIG(NIVCSW), NAN);
	t->tel[RSET_NTEL - 2] = LNUM(o, RK_FIG(MIGRATIONS), NAN);
	/* every CPU's run queues (/proc/schedstat), as the job ran */
	t->tel[RSET_NTEL - 1] = jget_num(LGET(o, RK_FIG(SCHEDSTAT)), SS_NAME(WAIT_S),
	    NAN) * 1e3;
}

/* TEL_BUDGET, or CONTEST_REPORT_TEL_KB's kB: the tests' way to make a
 * small report take the path a large one takes. */
static size_t
tel_budget(void)
{
	static size_t budget;
	static int read;

	if (!read) {
		const char *e = getenv("CONTEST_REPORT_TEL_KB");
		char *end;
		unsigned long long kb = e && *e ? strtoull(e, &end, 10) : 0;
		read = 1;
		budget = e && *e && *end == '\0' && kb < (1ULL << 40) ?
		    (size_t)kb << 10 : TEL_BUDGET;
	}
	return budget;
}

/* Past the budget: the telemetry goes, to be read again. */
static void
spill_telemetry(struct rset *rs)
{
	rs->ix->spilled = 1;
	for (size_t i = 0; i < rs->nacc; i++) {
		struct cell_acc *a = &rs->acc[i];
		free(a->tel);
		a->tel = NULL;
		a->ntel = a->captel = 0;
	}
}

/* Remove one x from d, the last equal to it (NaN matches NaN): a run
 * taken out of its cell keeps the others in file order. */
void
rs_dremove(struct dvec *d, double x)
{
	for (size_t i = d->n; i-- > 0;)
		if (d->v[i] == x || (isnan(x) && isnan(d->v[i]))) {
			memmove(d->v + i, d->v + i + 1, (d->n - i - 1) * sizeof *d->v);
			d->n--;
			return;
		}
}

/* A run's counters into its cell's sums (sign -1: out again). */
static void
add_counters(struct cell_acc *a, const struct rrun *r, int sign)
{
	for (size_t k = 0; k < r->nc; k++) {
		const struct run_counter *rc = &r->c[k];
		size_t j;
		for (j = 0; j < a->nc && a->c[j].name != rc->name; j++)
			;
		if (j == a->nc) {
			xgrow(&a->c, &a->capc, a->nc + 1, sizeof *a->c, 8);
			a->c[a->nc++] = (struct cell_counter){ rc->name, rc->unit, rc->label,
			    0, 0, 0, rc->shown };
		}
		a->c[j].mean += sign * rc->val;
		a->c[j].rate += sign * rc->rate;	/* NaN stays NaN: a gauge */
		a->c[j].n += (size_t)(ptrdiff_t)sign;
	}
}

/* An ok run's Time into its boot's sum, or out again. */
static void
add_boot(struct cell_acc *a, const struct rrun *r, int sign)
{
	size_t k;

	if (r->boot == NULL)
		return;
	for (k = 0; k < a->nboot && a->boot[k].boot != r->boot; k++)
		;
	if (k == a->nboot) {
		if (sign < 0)
			return;
		xgrow(&a->boot, &a->capboot, a->nboot + 1, sizeof *a->boot, 4);
		a->boot[a->nboot++] = (struct rboot){ r->boot, 0, 0 };
	}
	a->boot[k].n += (size_t)(long)sign;
	a->boot[k].wall += sign * r->fig[fig_pool(FIG_WALL)];
}

/* A run of a session's rounds into its cell's pairs, or out again. */
static void
add_pair(const struct rset *rs, struct cell_acc *a, const struct rrun *r, int sign)
{
	if (!rs->pairs || r->round < 0 || r->session == NULL)
		return;
	if (sign < 0) {
		for (size_t i = 0; i < a->npair; i++)
			if (a->pair[i].session == r->session && a->pair[i].round == r->round) {
				free(a->pair[i].jm);
				a->pair[i] = a->pair[--a->npair];
				return;
			}
		return;
	}
	xgrow(&a->pair, &a->cappair, a->npair + 1, sizeof *a->pair, 8);
	struct rpair *p = &a->pair[a->npair++];
	p->session = r->session;
	p->boot = r->boot;
	p->round = r->round;
	memcpy(p->v, r->fig, FIG_NPOOL * sizeof *p->v);
	p->v[PV_RATE] = r->rate;
	p->v[PV_P99] = r->probe_p99;
	p->v[PV_MET] = r->met_pct;
	p->v[PV_P999] = r->probe_p999;
	p->v[PV_PMAX] = r->probe_max;
	p->jm = NULL;
	if (r->has_jm) {
		p->jm = xcalloc(RSET_JM, sizeof *p->jm);
		memcpy(p->jm, r->jm, sizeof r->jm);
	}
}

/* A run's probe CPUs into its cell's, or out again. */
static void
add_pcpu(struct cell_acc *a, const struct rrun *r, int sign)
{
	for (size_t k = 0; k < r->npcpu; k++) {
		const struct run_pcpu *p = &r->pcpu[k];
		size_t j;
		for (j = 0; j < a->npcpu && a->pcpu[j].cpu != p->cpu; j++)
			;
		if (j == a->npcpu) {
			xgrow(&a->pcpu, &a->cappcpu, a->npcpu + 1, sizeof *a->pcpu, 4);
			memset(&a->pcpu[a->npcpu], 0, sizeof *a->pcpu);
			a->pcpu[a->npcpu++].cpu = p->cpu;
		}
		struct cell_pcpu *c = &a->pcpu[j];
		if (sign < 0) {
			stats_remove(&c->p99, &c->m2[0], p->p99);
			if (!isnan(p->max))
				stats_remove(&c->max, &c->m2[1], p->max);
		} else {
			stats_add(&c->p99, &c->m2[0], p->p99);
			if (!isnan(p->max))
				stats_add(&c->max, &c->m2[1], p->max);
		}
	}
}

/* A run's job metrics into its cell's sums, or out again. */
static void
add_metrics(struct cell_acc *a, const struct rrun *r, int sign)
{
	if (!r->has_jm)
		return;
	if (a->jm == NULL) {
		a->jm = xcalloc(RSET_JM, sizeof *a->jm);
		a->jm2 = xcalloc(RSET_JM, sizeof *a->jm2);
	}
	for (size_t k = 0; k < RSET_JM; k++)
		if (isnan(r->jm[k]))
			continue;
		else if (sign < 0)
			stats_remove(&a->jm[k], &a->jm2[k], r->jm[k]);
		else
			stats_add(&a->jm[k], &a->jm2[k], r->jm[k]);
}

/*
 * A kept run's figures, counters and histograms into its cell (sign 1),
 * or taken out of it again (sign -1: a run found to have done no work,
 * read a second time).  Both ways are this one function, so that what
 * goes in is what comes out.
 */
void
rs_accumulate(struct rset *rs, struct cell_acc *a, const struct rrun *r,
    const struct jnode *o, uint32_t file, int timed, int sign)
{
	if (!r->ok) {
		a->failed += (size_t)(long)sign;
		a->last_exit = r->exit_code;
		a->last_signal = r->signal;
		return;
	}
	add_boot(a, r, sign);
	for (int i = 0; i < FIG_N; i++) {
		int k = fig_pool((enum fig_id)i);
		if (k < 0)
			continue;
		double v = r->fig[k];
		if (sign < 0)
			rs_dremove(&a->fig[k], v);
		else if (figures[i].agg == A_EVERY) {
			/* one value per ok run, NaN or not */
			xgrow(&a->fig[k].v, &a->fig[k].cap, a->fig[k].n + 1, sizeof *a->fig[k].v, 8);
			a->fig[k].v[a->fig[k].n++] = v;
		} else
			rs_dpush(&a->fig[k], v);
	}
	if (sign < 0)
		rs_dremove(&a->fig[F_LOADS], r->loads);
	else
		rs_dpush(&a->fig[F_LOADS], r->loads);
	const double sv[NSUM] = { r->rate, r->probe_p99, r->met_pct, r->probe_p999,
	    r->probe_max };
	for (int k = 0; k < NSUM; k++)
		if (isnan(sv[k]))
			continue;
		else if (sign < 0)
			stats_remove(&a->sum[k], &a->m2[k], sv[k]);
		else
			stats_add(&a->sum[k], &a->m2[k], sv[k]);
	if (r->headline && sign > 0)
		a->headline = r->headline;
	a->scx_changed += sign * r->scx_changed;
	add_counters(a, r, sign);
	add_metrics(a, r, sign);
	add_pcpu(a, r, sign);
	add_pair(rs, a, r, sign);
	lat_merge(&a->lat, &a->lat_inexact, &r->lat, sign);
	lat_merge(&a->probe, &a->probe_inexact, &r->probe, sign);
	a->deadlines += (unsigned long long)(long long)sign * r->probe_deadlines;
	a->met += (unsigned long long)(long long)sign * r->probe_met;
	if (r->probe_skipped >= 0) {
		a->skipped += (unsigned long long)(sign * r->probe_skipped);
		a->nskipped += (unsigned long long)(long long)sign;
	}
	if (sign < 0) {		/* its telemetry goes too: not an outlier now */
		size_t n = 0;
		for (size_t k = 0; k < a->ntel; k++)
			if (a->tel[k].at.file != file || a->tel[k].at.line != r->line)
				a->tel[n++] = a->tel[k];
		a->ntel = n;
		return;
	}
	if (!timed) {	/* where it is, should it be read again */
		xgrow(&a->loc, &a->caploc, a->nloc + 1, sizeof *a->loc, 8);
		a->loc[a->nloc].file = file;
		a->loc[a->nloc++].line = (uint32_t)r->line;
	}
	if (!rs->ix->spilled) {
		xgrow(&a->tel, &a->captel, a->ntel + 1, sizeof *a->tel, 8);
		rs_run_tel(&a->tel[a->ntel++], o, file, (uint32_t)r->line);
		if ((rs->ix->tel_bytes += sizeof *a->tel) > tel_budget())
			spill_telemetry(rs);
	}
}
