/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JSON: the whole report or comparison as one document, every figure. */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "json.h"
#include "histrec.h"
#include "keys.h"
#include "report.h"
#include "util.h"

void
report_json_emit(FILE *f, struct json *j)
{
	const char *t = json_text(j);

	if (t == NULL)
		fatal(1, "out of memory writing JSON");
	fputs(t, f);
	fputc('\n', f);
	json_free(j);
}

static void stats_members(struct json *, const struct stats *, int decimals);

static void
kstats(struct json *j, const char *key, const struct stats *s, int decimals)
{
	json_key(j, key);
	json_obj_begin(j);
	stats_members(j, s, decimals);
	json_obj_end(j);
}

/* --probe-cpus: each CPU's probe over the cell's runs: its p99s' and its
 * maxima's statistics, us. */
static void
probe_per_cpu(struct json *j, const struct rcell *c)
{
	json_key(j, "probe_per_cpu");
	json_arr_begin(j);
	for (size_t k = 0; k < c->npcpu; k++) {
		if (c->pcpu[k].p99.n == 0)
			continue;
		json_obj_begin(j);
		json_kint(j, PK_NAME(CPU), c->pcpu[k].cpu);
		kstats(j, PK_NAME(P99_US), &c->pcpu[k].p99, 3);
		kstats(j, PK_NAME(MAX_US), &c->pcpu[k].max, 3);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* Each job metric of the cell (--job-metric): its runs' statistics (no
 * median: kept as sums), its unit, which way is better, and its ratio to
 * the row's no_load (null where there is none). */
static void
job_metrics(struct json *j, const struct rset *rs, const struct rcell *c,
    const struct rcell *base)
{
	json_key(j, RK_NAME(JOB_METRICS));
	json_obj_begin(j);
	for (size_t k = 0; c->jm && k < rs->njm; k++) {
		const struct stats *st = &c->jm[k];
		if (st->n == 0)
			continue;
		json_key(j, rs->jm[k].name);
		json_obj_begin(j);
		stats_members(j, st, 6);
		json_kstr_or_null(j, JMK_NAME(UNIT), rs->jm[k].unit);
		json_kstr(j, JMK_NAME(BETTER), jm_better_names[!!rs->jm[k].higher]);
		json_knum(j, "ratio", rcell_jm_ratio(c, base, k), 6);
		json_obj_end(j);
	}
	json_obj_end(j);
}

static void
stats_members(struct json *j, const struct stats *s, int decimals)
{
	json_kuint(j, "n", s->n);
	json_knum(j, "mean", s->n ? s->mean : NAN, decimals);
	json_knum(j, "sd", s->n > 1 ? s->sd : NAN, decimals);
	json_knum(j, "cv", s->n > 1 ? s->cv : NAN, 6);
	json_knum(j, "min", s->n ? s->min : NAN, decimals);
	json_knum(j, "median", s->n ? s->median : NAN, decimals);
	json_knum(j, "max", s->n ? s->max : NAN, decimals);
	json_knum(j, "ci95", s->n > 1 ? s->ci95 : NAN, decimals);
}

static void
kenv(struct json *j, const struct rrow *w)
{
	json_key(j, "env");
	json_obj_begin(j);
	json_kstr(j, RK_NAME(HOST), w->host);
	json_kstr(j, RK_NAME(KERNEL), w->env->kernel ? w->env->kernel : "");
	json_kstr(j, RK_NAME(CPU_MODEL), w->env->cpu_model ? w->env->cpu_model : "");
	json_kint(j, RK_NAME(NPROC), w->env->nproc);
	json_kint(j, RK_NAME(MEM_TOTAL_KB), w->env->mem_kb);
	json_kstr(j, RK_NAME(CONTEST_VERSION), w->env->version ? w->env->version : "");
	json_kstr(j, RK_NAME(SCHED), w->env->sched ? w->env->sched : "");
	json_kint(j, RK_NAME(CPUS_ONLINE), w->env->cpus_online);
	json_kstr(j, RK_NAME(CPUFREQ_GOVERNOR), w->env->governor ? w->env->governor : "");
	json_kint(j, RK_NAME(CPUFREQ_MAX_KHZ), w->env->freq_max_khz);
	json_key(j, RK_NAME(SMT));
	if (w->env->smt < 0)
		json_null(j);
	else
		json_bool(j, w->env->smt);
	json_kstr(j, RK_NAME(CLOCKSOURCE), w->env->clocksource ? w->env->clocksource : "");
	if (w->env->prepare)
		json_kstr(j, RK_NAME(PREPARE), w->env->prepare);
	else {
		json_key(j, RK_NAME(PREPARE));
		json_null(j);
	}
	json_kbool(j, RK_NAME(PREPARE_INFERRED), w->env->prepare_inferred > 0);
	json_obj_end(j);
}

/* The runs' latency merged: percentiles within precision_pct, the
 * extremes exact (null where a schema 1 run did not record them). */
static void
latency(struct json *j, const char *key, const struct cell_lat *l)
{
	json_key(j, key);
	json_obj_begin(j);
	json_kstr(j, HK_NAME(WHAT), l->what);
	hist_json(j, &l->h);
	json_obj_end(j);
}

static void
cell(struct json *j, const struct rset *rs, size_t r, size_t b)
{
	const struct rcell *c = rset_cell(rs, r, b);

	json_obj_begin(j);
	json_kstr(j, "kernel", rs->row[r].name);
	json_kuint(j, "runs", c->ok);
	json_kuint(j, "failed", c->failed);
	json_kbool(j, "noisy", c->noisy);
	json_key(j, "suspect_runs");	/* may have done no work */
	json_arr_begin(j);
	for (size_t i = 0; i < c->nsuspect; i++)
		json_int(j, c->suspect[i].runno);
	json_arr_end(j);
	json_kbool(j, "suspect_kept", rs->keep_suspect);	/* else left out */
	kstats(j, "time_s", rcell_fig(c, FIG_WALL), 6);
	json_key(j, "time_runs_s");
	json_arr_begin(j);
	for (size_t i = 0; i < c->ok; i++)
		json_num(j, c->wall[i], 6);
	json_arr_end(j);
	/* the other pooled figures, as figures.h has them (n 0: not measured) */
	for (int i = 0; i < FIG_N; i++)
		if (i != FIG_WALL && fig_pool((enum fig_id)i) >= 0)
			kstats(j, figures[i].key, rcell_fig(c, (enum fig_id)i), figures[i].dec);
	if (c->headline)
		json_kstr(j, figures[FIG_HEADLINE].key, c->headline);
	else {
		json_key(j, figures[FIG_HEADLINE].key);
		json_null(j);
	}
	kstats(j, "loads", &c->loads, 2);
	json_key(j, "ratio");
	json_obj_begin(j);
	json_knum(j, "mean", c->ratio, 6);
	json_knum(j, "sd", c->ratio_sd, 6);
	json_knum(j, "ci95", c->ratio_ci95, 6);
	json_obj_end(j);
	json_key(j, figures[FIG_COUNTERS].key);
	json_obj_begin(j);
	for (size_t k = 0; k < c->nc; k++) {
		json_key(j, c->c[k].name);
		json_obj_begin(j);
		json_knum(j, "mean", c->c[k].mean, 3);
		json_knum(j, "rate_per_s", c->c[k].rate, 3);
		if (c->c[k].unit)
			json_kstr(j, "unit", c->c[k].unit);
		json_obj_end(j);
	}
	json_obj_end(j);
	if (c->lat.what)
		latency(j, figures[FIG_LATENCY].key, &c->lat);
	if (c->probe.what)
		latency(j, figures[FIG_PROBE].key, &c->probe);
	json_knum(j, "probe_met_pct", c->met_pct, 2);
	if (c->npcpu)
		probe_per_cpu(j, c);
	if (rs->njm)
		job_metrics(j, rs, c, b != rs->base && rs->base < rs->nblk ?
		    rset_cell(rs, r, rs->base) : NULL);
	json_obj_end(j);
}

void
report_json(FILE *f, const struct rset *rs)
{
	struct json j;

	json_init(&j);
	json_obj_begin(&j);
	json_kstr(&j, "report", "contest");
	json_kint(&j, "schema", 1);
	json_kuint(&j, "files", rs->files);
	json_kuint(&j, "results", rs->nrun);
	json_kuint(&j, "skipped_lines", rs->skipped);
	json_kuint(&j, "warmup_runs", rs->warmups);
	json_key(&j, "kernels");
	json_arr_begin(&j);
	for (size_t r = 0; r < rs->nrow; r++) {
		json_obj_begin(&j);
		json_kstr(&j, "name", rs->row[r].name);
		json_kstr(&j, RK_NAME(LABEL), rs->row[r].label);
		json_kstr(&j, RK_NAME(COMMAND), rs->row[r].command);
		kenv(&j, &rs->row[r]);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_key(&j, "loads");
	json_arr_begin(&j);
	for (size_t b = 0; b < rs->nblk; b++) {
		json_obj_begin(&j);
		json_kstr(&j, "load", rs->blk[b].name);
		json_kstr(&j, "load_name", rs->blk[b].load);
		json_key(&j, "rows");
		json_arr_begin(&j);
		for (size_t i = 0; i < rs->nrow; i++) {
			size_t r = rs->order[b * rs->nrow + i];
			const struct rcell *c = rset_cell(rs, r, b);
			if (rcell_ran(c))
				cell(&j, rs, r, b);
		}
		json_arr_end(&j);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	report_json_emit(f, &j);
}

/* One figure of a load's comparison: each label's value, change and test. */
static void
cmp_figure(struct json *j, const struct cmp *m, const struct cmpgroup *gr, int fig)
{
	const struct column *col = cmp_fig(m->rs, fig);

	json_obj_begin(j);
	json_kstr(j, "figure", col->key);
	if (col->src == S_JM) {
		const struct rmetric *jm = &m->rs->jm[col->fig];
		json_kstr_or_null(j, JMK_NAME(UNIT), jm->unit);
		json_kstr(j, JMK_NAME(BETTER), jm_better_names[!!jm->higher]);
	}
	json_key(j, "values");
	json_arr_begin(j);
	for (size_t k = 0; k < m->ncol; k++) {
		const struct cmpval *v = &gr->val[fig * m->ncol + k];
		const struct rcell *c = gr->cell[k];
		json_obj_begin(j);
		json_kstr(j, RK_NAME(LABEL), m->col[k].label);
		json_kuint(j, "runs", c ? c->ok : 0);
		json_knum(j, "value", col_scaled(cmp_fig(m->rs, fig), v->v), 6);
		/* the report table's figure: every run's samples pooled */
		const struct column *lat = &report_cols[RC_LAT], *met = &report_cols[RC_MET];
		if (fig == CF_LAT)
			json_knum(j, "pooled", col_scaled(lat, col_value(lat, c, 0)), 6);
		if (fig == CF_MET)
			json_knum(j, "pooled", col_value(met, c, 0), 4);
		json_knum(j, "change_pct", k ? v->pct : NAN, 4);
		json_kgnum(j, "p", v->p, 6);
		json_kgnum(j, "p_holm", m->holm ? v->padj : NAN, 6);
		json_knum(j, "mde_pct", v->mde_pct, 4);
		json_kbool(j, "significant", v->sig);
		json_kbool(j, "regressed", v->worse);
		json_kstr_or_null(j, "test", k && v->t.kind ? cmp_kind_names[v->t.kind] :
		    NULL);
		json_key(j, "pairs");
		if (v->t.kind == CT_PAIRED)
			json_uint(j, v->t.pairs);
		else
			json_null(j);
		json_key(j, "boots");
		if (k && v->t.boots[0] && v->t.boots[1]) {
			json_arr_begin(j);
			json_uint(j, v->t.boots[0]);
			json_uint(j, v->t.boots[1]);
			json_arr_end(j);
		} else
			json_null(j);
		json_kstr_or_null(j, "boot_note", k ? boot_note_names[v->t.boot_note] :
		    NULL);
		json_kstr_or_null(j, "boot_spread_from", k ? v->t.spread_label : NULL);
		json_kstr_or_null(j, "boot_unit", k && v->t.boots[0] && v->t.boots[1] ?
		    (v->t.by_session ? "session" : "boot") : NULL);
		json_knum(j, "estimate_pct", v->est_pct, 4);
		json_knum(j, "ci_lo_pct", v->lo_pct, 4);
		json_knum(j, "ci_hi_pct", v->hi_pct, 4);
		json_knum(j, "gate_detect_pct", v->gate_pct, 4);
		json_kbool(j, "gated", v->gated);
		json_kstr_or_null(j, "verdict", v->verdict ? cmp_verdict_names[v->verdict] :
		    NULL);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/* One load (and sweep value) of the comparison: the labels it ran under
 * and each figure shown. */
static void
cmp_group(struct json *j, const struct cmp *m, const struct cmpgroup *gr)
{
	const struct rset *rs = m->rs;
	char name[512];

	json_obj_begin(j);
	json_kstr(j, "load", rs->blk[gr->blk].name);
	json_kstr_or_null(j, RK_NAME(SWEEP), gr->sweep);	/* as its text */
	json_kstr(j, "name", cmp_group_name(name, sizeof name, m, gr));
	json_key(j, "ran_under");
	json_arr_begin(j);
	for (size_t k = 0; k < m->ncol; k++)
		if (gr->cell[k] && gr->cell[k]->ok)
			json_str(j, m->col[k].label);
	json_arr_end(j);
	json_key(j, "figures");
	json_arr_begin(j);
	for (int fig = 0; fig < cmp_nfig(m->rs); fig++)
		if (gr->shown[fig])
			cmp_figure(j, m, gr, fig);
	json_arr_end(j);
	json_obj_end(j);
}

/* What was found for candidate k. */
static void
cmp_candidate(struct json *j, const struct cmp *m, size_t k)
{
	json_obj_begin(j);
	json_kstr(j, RK_NAME(LABEL), m->col[k].label);
	const struct cmpcol *c = &m->col[k];
	json_kstr(j, "verdict", cmp_verdict_names[c->verdict]);
	json_kuint(j, "compared", c->compared);
	json_kuint(j, "regressed", c->regressed);
	json_key(j, "figures");	/* gated figures by verdict */
	json_obj_begin(j);
	for (int v = CV_NONE + 1; v < CV_FIGS; v++)
		json_kuint(j, cmp_verdict_names[v], c->nverdict[v]);
	json_obj_end(j);
	json_key(j, "failed");	/* loads a run of which failed */
	json_arr_begin(j);
	for (size_t g = 0; g < m->ng; g++) {
		const struct rcell *cell = m->g[g].cell[k];
		char name[512];
		if (!cmp_load_failed(&m->g[g], k))
			continue;
		json_obj_begin(j);
		json_kstr(j, "name", cmp_group_name(name, sizeof name, m, &m->g[g]));
		json_kuint(j, "failed", cell->failed);
		json_kuint(j, "runs", cell->ok + cell->failed + cell->nsuspect);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_kuint(j, "baseline_failed", c->base_failed);
	json_kuint(j, "not_run", c->not_run);
	/* what the whole rule catches as a regression with CMP_POWER */
	json_knum(j, "gate_detect_pct", c->gate_pct, 4);
	json_kuint(j, "paired_tests", c->npaired);
	json_kuint(j, "unpaired_tests", c->nunpaired);
	json_key(j, "pairs");
	if (c->npaired) {
		json_arr_begin(j);
		json_uint(j, c->pairs_min);
		json_uint(j, c->pairs_max);
		json_arr_end(j);
	} else
		json_null(j);
	json_kuint(j, "boot_tests", c->nboots);
	json_kuint(j, "one_boot_tests", c->noneboot);
	json_kuint(j, "widened_tests", c->nwidened);
	json_obj_end(j);
}

void
compare_json(FILE *f, const struct cmp *m)
{
	const struct rset *rs = m->rs;
	struct json j;

	json_init(&j);
	json_obj_begin(&j);
	json_kstr(&j, "compare", "contest");
	json_kint(&j, "schema", 6);
	json_kstr(&j, "baseline", m->col[0].label);
	json_key(&j, "labels");
	json_arr_begin(&j);
	for (size_t k = 0; k < m->ncol; k++)
		json_str(&j, m->col[k].label);
	json_arr_end(&j);
	json_knum(&j, "threshold_pct", m->threshold, 3);
	json_knum(&j, "alpha", m->alpha, 8);
	json_kuint(&j, "looks", m->looks);
	json_kbool(&j, "holm", m->holm);
	json_kuint(&j, "tests", m->ntests);
	json_kuint(&j, "family", m->family);
	json_kuint(&j, "cant_tell", m->cant_tell);
	json_key(&j, "gate");
	json_arr_begin(&j);
	for (int fig = 0; fig < cmp_nfig(m->rs); fig++)
		if (cmp_fig(m->rs, fig)->gate && (m->gate & CMP_GATE(fig)))
			json_str(&j, cmp_fig(m->rs, fig)->gate);
	json_arr_end(&j);
	json_kuint(&j, "regressed", m->regressed);
	json_kuint(&j, "failed", m->failed);
	json_key(&j, "candidates");
	json_arr_begin(&j);
	for (size_t k = 1; k < m->ncol; k++)
		cmp_candidate(&j, m, k);
	json_arr_end(&j);
	json_key(&j, "env");
	json_arr_begin(&j);
	for (size_t k = 0; k < m->ncol; k++) {
		json_obj_begin(&j);
		json_kstr(&j, RK_NAME(LABEL), m->col[k].label);
		kenv(&j, &rs->row[m->col[k].rows[0]]);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_key(&j, "loads");
	json_arr_begin(&j);
	for (size_t g = 0; g < m->ng; g++)
		cmp_group(&j, m, &m->g[g]);
	json_arr_end(&j);
	json_obj_end(&j);
	report_json_emit(f, &j);
}
