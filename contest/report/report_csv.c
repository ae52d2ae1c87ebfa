/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CSV (RFC 4180): one line per kernel and load with every statistic,
 * the report's columns in their order (columns.c); compare's: one line
 * per load, figure and label. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

void
csv_field(FILE *f, const char *s, int last)
{
	if (s == NULL)
		s = "";
	if (strpbrk(s, ",\"\r\n") == NULL)
		fputs(s, f);
	else {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	}
	fputc(last ? '\n' : ',', f);
}

/* A number, or an empty field for "none" (NaN). */
static void
csv_num(FILE *f, double v, int decimals, int last)
{
	if (!isnan(v) && !isinf(v))
		fprintf(f, "%.*f", decimals, v);
	fputc(last ? '\n' : ',', f);
}

static void
csv_stats(FILE *f, const struct stats *s, int decimals)
{
	csv_num(f, s->n ? s->mean : NAN, decimals, 0);
	csv_num(f, s->n > 1 ? s->sd : NAN, decimals, 0);
	csv_num(f, s->n > 1 ? s->cv : NAN, 6, 0);
	csv_num(f, s->n ? s->min : NAN, decimals, 0);
	csv_num(f, s->n ? s->median : NAN, decimals, 0);
	csv_num(f, s->n ? s->max : NAN, decimals, 0);
	csv_num(f, s->n > 1 ? s->ci95 : NAN, decimals, 0);
}

/* "name=value;..." of a cell's counter means, or of their rates. */
static void
csv_counters(FILE *f, const struct rcell *c, int rates)
{
	char buf[4096];
	size_t off = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < c->nc && off < sizeof buf - 1; k++) {
		double v = rates ? c->c[k].rate : c->c[k].mean;
		if (isnan(v))
			continue;
		off += (size_t)snprintf(buf + off, sizeof buf - off, "%s%s=%.6g",
		    off ? ";" : "", c->c[k].name, v);
	}
	csv_field(f, buf, 0);
}

/* The cell's job metrics' means, "score=129.6;ops=500", as the line's
 * last field. */
static void
csv_metrics(FILE *f, const struct rset *rs, const struct rcell *c)
{
	char buf[2048];
	size_t off = 0;

	buf[0] = '\0';
	for (size_t k = 0; c->jm && k < rs->njm && off < sizeof buf - 1; k++)
		if (c->jm[k].n)
			off += (size_t)snprintf(buf + off, sizeof buf - off, "%s%s=%.6g",
			    off ? ";" : "", rs->jm[k].name, c->jm[k].mean);
	csv_field(f, buf, 1);
}

/* The header's names of report column k. */
static void
csv_names(FILE *f, const struct column *k)
{
	static const char *const stat[] = { "mean", "sd", "cv", "min", "median",
		"max", "ci95" };

	switch (k->csv) {
	case CSV_NONE:
		break;
	case CSV_MEAN:
		fprintf(f, "%s,", k->key);
		break;
	case CSV_MEANSD:
		fprintf(f, "%s_mean,%s_sd,", k->key, k->key);
		break;
	case CSV_STATS:
		for (size_t i = 0; i < sizeof stat / sizeof stat[0]; i++)
			fprintf(f, "%s_%s,", k->key, stat[i]);
		break;
	case CSV_RATIO:
		fprintf(f, "%s,%s_sd,%s_ci95,", k->key, k->key, k->key);
		break;
	}
}

/* Report column k of cell c: its fields. */
static void
csv_values(FILE *f, const struct column *k, const struct rcell *c, int base)
{
	const struct stats *st = col_runs(k, c);

	switch (k->csv) {
	case CSV_NONE:
		break;
	case CSV_MEAN:
		csv_num(f, col_scaled(k, col_value(k, c, base)), k->csv_dec, 0);
		break;
	case CSV_MEANSD:
		csv_num(f, col_value(k, c, base), k->csv_dec, 0);
		csv_num(f, st && st->n > 1 ? st->sd : NAN, k->csv_dec, 0);
		break;
	case CSV_STATS:
		csv_stats(f, st, k->csv_dec);
		break;
	case CSV_RATIO:
		csv_num(f, col_value(k, c, base), k->csv_dec, 0);
		csv_num(f, c->ratio_sd, k->csv_dec, 0);
		csv_num(f, c->ratio_ci95, k->csv_dec, 0);
		break;
	}
}

void
report_csv(FILE *f, const struct rset *rs)
{
	fputs("load,load_name,kernel,label,host,command,runs,failed,noisy,", f);
	for (int i = 0; i < RC_N; i++)
		csv_names(f, &report_cols[i]);
	fputs("headline,counters,rates_per_s,kernel_release,cpu_model,nproc,"
	    "mem_total_kb,contest_version,sched", f);
	/* where the results have job metrics, their means last */
	fputs(rs->njm ? ",job_metrics\n" : "\n", f);
	for (size_t b = 0; b < rs->nblk; b++)
		for (size_t i = 0; i < rs->nrow; i++) {
			size_t r = rs->order[b * rs->nrow + i];
			const struct rcell *c = rset_cell(rs, r, b);
			const struct rrow *w = &rs->row[r];
			if (!rcell_ran(c))
				continue;
			csv_field(f, rs->blk[b].name, 0);
			csv_field(f, rs->blk[b].load, 0);
			csv_field(f, w->name, 0);
			csv_field(f, w->label, 0);
			csv_field(f, w->host, 0);
			csv_field(f, w->command, 0);
			fprintf(f, "%zu,%zu,%d,", c->ok, c->failed, c->noisy);
			for (int k = 0; k < RC_N; k++)
				csv_values(f, &report_cols[k], c, b == rs->base);
			csv_field(f, c->headline, 0);
			csv_counters(f, c, 0);
			csv_counters(f, c, 1);
			csv_field(f, w->env->kernel, 0);
			csv_field(f, w->env->cpu_model, 0);
			fprintf(f, "%ld,%lld,", w->env->nproc, w->env->mem_kb);
			csv_field(f, w->env->version, 0);
			csv_field(f, w->env->sched, !rs->njm);
			if (rs->njm)
				csv_metrics(f, rs, c);
		}
}

/* A p-value to six significant digits: 1e-9 is not 0. */
static void
csv_p(FILE *f, double p)
{
	if (!isnan(p))
		fprintf(f, "%.6g", p);
	fputc(',', f);
}

void
compare_csv(FILE *f, const struct cmp *m)
{
	const struct rset *rs = m->rs;

	fputs("load,sweep,figure,label,baseline,runs,failed,value,change_pct,p,"
	    "p_holm,significant,gated,regressed,mde_pct,test,pairs,estimate_pct,"
	    "ci_lo_pct,ci_hi_pct,gate_detect_pct,verdict\n", f);
	for (size_t g = 0; g < m->ng; g++) {
		const struct cmpgroup *gr = &m->g[g];
		for (int fig = 0; fig < cmp_nfig(m->rs); fig++) {
			if (!gr->shown[fig])
				continue;
			for (size_t k = 0; k < m->ncol; k++) {
				const struct cmpval *v = &gr->val[fig * m->ncol + k];
				const struct rcell *c = gr->cell[k];
				csv_field(f, rs->blk[gr->blk].name, 0);
				csv_field(f, gr->sweep, 0);
				csv_field(f, cmp_fig(m->rs, fig)->key, 0);
				csv_field(f, m->col[k].label, 0);
				csv_field(f, m->col[0].label, 0);
				fprintf(f, "%zu,%zu,", c ? c->ok : 0, c ? c->failed : 0);
				csv_num(f, col_scaled(cmp_fig(m->rs, fig), v->v), 6, 0);
				csv_num(f, k ? v->pct : NAN, 4, 0);
				csv_p(f, v->p);
				csv_p(f, m->holm ? v->padj : NAN);
				fprintf(f, "%d,%d,%d,", v->sig, v->gated, v->worse);
				csv_num(f, v->mde_pct, 4, 0);
				csv_field(f, cmp_kind_names[v->t.kind], 0);
				if (v->t.kind == CT_PAIRED)
					fprintf(f, "%zu", v->t.pairs);
				fputc(',', f);
				csv_num(f, v->est_pct, 4, 0);
				csv_num(f, v->lo_pct, 4, 0);
				csv_num(f, v->hi_pct, 4, 0);
				csv_num(f, v->gate_pct, 4, 0);
				csv_field(f, cmp_verdict_names[v->verdict], 1);
			}
		}
	}
}
