/* JSON: the whole report or comparison as one document, every figure. */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "json.h"
#include "report.h"
#include "util.h"

static void
emit(FILE *f, struct json *j)
{
	const char *t = json_text(j);

	if (t == NULL)
		fatal(1, "out of memory writing JSON");
	fputs(t, f);
	fputc('\n', f);
	json_free(j);
}

static void
kstats(struct json *j, const char *key, const struct stats *s, int decimals)
{
	json_key(j, key);
	json_obj_begin(j);
	json_kuint(j, "n", s->n);
	json_knum(j, "mean", s->n ? s->mean : NAN, decimals);
	json_knum(j, "sd", s->n > 1 ? s->sd : NAN, decimals);
	json_knum(j, "cv", s->n > 1 ? s->cv : NAN, 6);
	json_knum(j, "min", s->n ? s->min : NAN, decimals);
	json_knum(j, "median", s->n ? s->median : NAN, decimals);
	json_knum(j, "max", s->n ? s->max : NAN, decimals);
	json_knum(j, "ci95", s->n > 1 ? s->ci95 : NAN, decimals);
	json_obj_end(j);
}

static void
kenv(struct json *j, const struct rrow *w)
{
	json_key(j, "env");
	json_obj_begin(j);
	json_kstr(j, "host", w->host);
	json_kstr(j, "kernel", w->env->kernel ? w->env->kernel : "");
	json_kstr(j, "cpu_model", w->env->cpu_model ? w->env->cpu_model : "");
	json_kint(j, "nproc", w->env->nproc);
	json_kint(j, "mem_total_kb", w->env->mem_kb);
	json_kstr(j, "contest_version", w->env->version ? w->env->version : "");
	json_kstr(j, "sched", w->env->sched ? w->env->sched : "");
	json_kint(j, "cpus_online", w->env->cpus_online);
	json_kstr(j, "cpufreq_governor", w->env->governor ? w->env->governor : "");
	json_kint(j, "cpufreq_max_khz", w->env->freq_max_khz);
	json_key(j, "smt");
	if (w->env->smt < 0)
		json_null(j);
	else
		json_bool(j, w->env->smt);
	json_kstr(j, "clocksource", w->env->clocksource ? w->env->clocksource : "");
	if (w->env->prepare)
		json_kstr(j, "prepare", w->env->prepare);
	else {
		json_key(j, "prepare");
		json_null(j);
	}
	json_kbool(j, "prepare_inferred", w->env->prepare_inferred > 0);
	json_obj_end(j);
}

/* The runs' latency merged: percentiles within precision_pct, the
 * extremes exact (null where a schema 1 run did not record them). */
static void
latency(struct json *j, const char *key, const struct rclat *l)
{
	json_key(j, key);
	json_obj_begin(j);
	json_kstr(j, "what", l->what);
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
	kstats(j, "time_s", &c->time, 6);
	json_key(j, "time_runs_s");
	json_arr_begin(j);
	for (size_t i = 0; i < c->ok; i++)
		json_num(j, c->wall[i], 6);
	json_arr_end(j);
	kstats(j, "cpu_pct", &c->cpu, 2);
	kstats(j, "lcpu_pct", &c->lcpu, 2);
	kstats(j, "wait_pct", &c->wait, 2);	/* n 0: not measured */
	kstats(j, "load_pct", &c->loadp, 2);
	if (c->headline)
		json_kstr(j, "headline", c->headline);
	else {
		json_key(j, "headline");
		json_null(j);
	}
	kstats(j, "loads", &c->loads, 2);
	json_key(j, "ratio");
	json_obj_begin(j);
	json_knum(j, "mean", c->ratio, 6);
	json_knum(j, "sd", c->ratio_sd, 6);
	json_knum(j, "ci95", c->ratio_ci95, 6);
	json_obj_end(j);
	json_key(j, "counters");
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
		latency(j, "latency", &c->lat);
	if (c->probe.what)
		latency(j, "probe", &c->probe);
	json_knum(j, "probe_met_pct", c->met_pct, 2);
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
		json_kstr(&j, "label", rs->row[r].label);
		json_kstr(&j, "command", rs->row[r].command);
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
			if (c->ok || c->failed)
				cell(&j, rs, r, b);
		}
		json_arr_end(&j);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	emit(f, &j);
}

void
compare_json(FILE *f, const struct cmp *m)
{
	const struct rset *rs = m->rs;
	struct json j;

	json_init(&j);
	json_obj_begin(&j);
	json_kstr(&j, "compare", "contest");
	json_kint(&j, "schema", 1);
	json_kstr(&j, "baseline", rs->row[m->a].name);
	json_kstr(&j, "candidate", rs->row[m->b].name);
	json_knum(&j, "threshold_pct", m->threshold, 3);
	json_knum(&j, "alpha", CMP_ALPHA, 2);
	json_kuint(&j, "regressed", m->regressed);
	json_kuint(&j, "untested", m->untested);
	json_key(&j, "env");
	json_arr_begin(&j);
	for (int s = 0; s < 2; s++) {
		json_obj_begin(&j);
		kenv(&j, &rs->row[s ? m->b : m->a]);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_key(&j, "loads");
	json_arr_begin(&j);
	for (size_t i = 0; i < m->n; i++) {
		const struct cmpline *l = &m->line[i];
		json_obj_begin(&j);
		json_kstr(&j, "load", rs->blk[l->blk].name);
		kstats(&j, "time_a_s", &l->a->time, 6);
		kstats(&j, "time_b_s", &l->b->time, 6);
		json_knum(&j, "time_change_pct", l->time_pct, 4);
		json_knum(&j, "time_p", l->p_time, 6);
		json_kbool(&j, "time_significant", l->sig_time);
		json_knum(&j, "ratio_a", l->a->ratio, 6);
		json_knum(&j, "ratio_b", l->b->ratio, 6);
		json_knum(&j, "ratio_change_pct", l->ratio_pct, 4);
		json_knum(&j, "ratio_p", l->p_ratio, 6);
		json_kbool(&j, "ratio_significant", l->sig_ratio);
		/* the headline per second of job time; a gauge's level */
		json_knum(&j, "loads_a", l->loads_a, 4);
		json_knum(&j, "loads_b", l->loads_b, 4);
		json_kbool(&j, "loads_per_s", l->loads_per_s);
		json_knum(&j, "loads_change_pct", l->loads_pct, 4);
		json_knum(&j, "wait_a_pct", l->a->wait.n ? l->a->wait.mean : NAN, 2);
		json_knum(&j, "wait_b_pct", l->b->wait.n ? l->b->wait.mean : NAN, 2);
		json_knum(&j, "wait_p", l->p_wait, 6);
		json_kbool(&j, "wait_rose", l->wait_rose);
		json_kbool(&j, "regressed", l->worse_time || l->worse_ratio);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	emit(f, &j);
}
