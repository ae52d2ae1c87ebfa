/*
 * The comparison of two rows, built once and printed by every format:
 * per load the change of B against A in Time, Ratio and Loads, Welch's
 * t-test for Time, and for Ratio a t-test on the two ratios' standard
 * errors; a load regresses when a change is significant and beyond the
 * threshold.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* The headline counter's rate, or a gauge's level; NaN: none. */
static double
headline(const struct rcell *c, int *per_s)
{
	for (size_t k = 0; c->headline && k < c->nc; k++)
		if (c->c[k].name == c->headline) {
			*per_s = !isnan(c->c[k].rate);
			return *per_s ? c->c[k].rate : c->c[k].mean;
		}
	return NAN;
}

void
cmp_build(struct cmp *m, const struct rset *rs, size_t a, size_t b,
    double threshold)
{
	memset(m, 0, sizeof *m);
	m->rs = rs;
	m->a = a;
	m->b = b;
	m->threshold = threshold;
	m->line = calloc(rs->nblk + 1, sizeof *m->line);
	if (m->line == NULL)
		return;
	for (size_t blk = 0; blk < rs->nblk; blk++) {
		const struct rcell *ca = rset_cell(rs, a, blk), *cb = rset_cell(rs, b, blk);
		struct cmpline *l = &m->line[m->n];
		double t, df;

		if (ca->ok == 0 || cb->ok == 0)
			continue;	/* a load only one side ran is no comparison */
		m->n++;
		l->blk = blk;
		l->a = ca;
		l->b = cb;
		l->time_pct = (cb->time.mean / ca->time.mean - 1) * 100;
		l->p_time = stats_welch(&ca->time, &cb->time, &t, &df);
		l->ratio_pct = l->p_ratio = NAN;
		if (blk != rs->base && !isnan(ca->ratio) && !isnan(cb->ratio)) {
			l->ratio_pct = (cb->ratio / ca->ratio - 1) * 100;
			double se = sqrt(ca->ratio_se * ca->ratio_se +
			    cb->ratio_se * cb->ratio_se);
			/* the smaller df of the two ratios: the wider test */
			df = ca->ratio_df < cb->ratio_df ? ca->ratio_df : cb->ratio_df;
			if (se > 0)
				l->p_ratio = stats_t_pvalue((cb->ratio - ca->ratio) / se, df);
			else if (!isnan(se))
				l->p_ratio = cb->ratio == ca->ratio ? 1 : 0;
		}
		/* rates: runs of different length make counts incomparable */
		l->loads_a = headline(ca, &l->loads_per_s);
		l->loads_b = headline(cb, &l->loads_per_s);
		l->loads_pct = !isnan(l->loads_a) && !isnan(l->loads_b) && l->loads_a != 0 ?
		    (l->loads_b / l->loads_a - 1) * 100 : NAN;
		/* did the job wait longer for a CPU? */
		l->p_wait = stats_welch(&ca->wait, &cb->wait, &t, &df);
		l->wait_rose = l->p_wait < CMP_ALPHA && cb->wait.mean > ca->wait.mean;
		l->sig_time = l->p_time < CMP_ALPHA;
		l->sig_ratio = l->p_ratio < CMP_ALPHA;
		l->worse_time = l->sig_time && l->time_pct > threshold;
		l->worse_ratio = l->sig_ratio && l->ratio_pct > threshold;
		if (l->worse_time || l->worse_ratio)
			m->regressed++;
		if (isnan(l->p_time))
			m->untested++;
	}
}

void
cmp_free(struct cmp *m)
{
	free(m->line);
	m->line = NULL;
}
