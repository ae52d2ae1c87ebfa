/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A run as one results line (doc/results.md): which session, machine
 * and job it was, which load and run, and then what it measured and how
 * it ended, member by member as figures.h describes them.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builtin.h"
#include "histrec.h"
#include "json.h"
#include "keys.h"
#include "resultline.h"
#include "resultline_impl.h"
#include "util.h"
#include "vmstat.h"

static void
put_counters(struct json *j, const char *key, const struct loadspec *ls,
    const unsigned long long *c)
{
	json_key(j, key);
	json_obj_begin(j);
	for (size_t i = 0; i < ls->ncounters; i++)
		json_kuint(j, ls->load->counters[i].id, c[i]);
	json_obj_end(j);
}

/* What could change how the job and the loads are scheduled against each
 * other: the cgroup controllers in effect for each (none, here, but pids). */
static void
put_controllers(struct json *j, const struct run_record *r)
{
	json_key(j, figures[FIG_CONTROLLERS].key);
	if (!r->ctl_ok) {
		json_null(j);
		return;
	}
	json_obj_begin(j);
	json_kstr(j, CTK_NAME(JOB), r->ctl_job);
	json_kstr(j, CTK_NAME(LOADS), r->ctl_loads);
	json_obj_end(j);
}

/* How the probe ran, as cyclictest's options say it: its policy, its
 * memory locked, /dev/cpu_dma_latency held (the latency, or why not), and
 * with a task a CPU the worst CPU (whose figures the probe's are) and
 * each CPU's p99, max, wake-ups and deadlines met. */
static void
put_probe_grade(struct json *j, const struct session *s, const struct run_record *r)
{
	char pol[SCHED_POLICY_TEXT];

	sched_policy_text(&s->cfg.probe.policy, pol, sizeof pol);
	json_kstr_or_null(j, PK_NAME(POLICY), s->cfg.probe.policy.has_policy ? pol : NULL);
	json_kbool(j, PK_NAME(MLOCK), r->probe_locked);
	json_key(j, PK_NAME(DMA_LATENCY_US));
	if (r->probe_dma)
		json_int(j, 0);
	else
		json_null(j);
	json_kstr_or_null(j, PK_NAME(DMA_WHY), r->probe_dma_why[0] ? r->probe_dma_why :
	    NULL);
	json_key(j, PK_NAME(CPU));
	if (r->npcpu)
		json_int(j, r->probe_worst);
	else
		json_null(j);
	json_key(j, PK_NAME(PER_CPU));
	if (r->npcpu == 0) {
		json_null(j);
		return;
	}
	json_arr_begin(j);
	for (size_t i = 0; i < r->npcpu; i++) {
		const struct probe_cpu *c = &r->pcpu[i];
		json_obj_begin(j);
		json_kint(j, PK_NAME(CPU), c->cpu);
		json_knum(j, PK_NAME(P99_US), c->p99 / 1e3, 3);
		json_knum(j, PK_NAME(MAX_US), c->samples ? (double)c->max / 1e3 : NAN, 3);
		json_kuint(j, PK_NAME(SAMPLES), c->samples);
		json_kuint(j, PK_NAME(MET), c->met);
		json_kuint(j, PK_NAME(DEADLINES), c->deadlines);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* The latency probe's wake-up lateness during the job (as a load's
 * latency), and the share of the deadlines that passed whose work was
 * done in time: a deadline the probe skipped was missed. */
static void
put_probe(struct json *j, const struct session *s, const struct run_record *r)
{
	const struct probe_rec *p = &r->probe;
	struct hist h = { HIST_SUB, p->hist, p->lat_min, p->lat_max, 0, 0 };

	json_key(j, figures[FIG_PROBE].key);
	if (!p->ran) {
		json_null(j);
		return;
	}
	json_obj_begin(j);
	json_kuint(j, PK_NAME(PERIOD_MS), s->cfg.probe.period_ms);
	if (s->cfg.probe.has_nice)
		json_kint(j, PK_NAME(NICE), s->cfg.probe.nice);
	else {
		json_key(j, PK_NAME(NICE));	/* the job's */
		json_null(j);
	}
	json_knum(j, PK_NAME(WORK_PCT), s->cfg.probe.work_mpct / 1000.0, 3);
	json_kuint(j, PK_NAME(WORK_LOOPS), s->cfg.probe.work);
	json_kuint(j, PK_NAME(PERIODS), p->periods);
	json_kuint(j, PK_NAME(MET), p->met);
	json_kuint(j, PK_NAME(SKIPPED), p->skipped);
	json_kuint(j, PK_NAME(DEADLINES), p->deadlines);
	json_knum(j, PK_NAME(MET_PCT), fig_met_pct(p->met, p->deadlines), 2);
	/* what it cost: its own CPU time while the job ran, over the job's
	 * wall time (null where the system will not say) */
	double wall = r->fig[FIG_WALL];
	json_knum(j, PK_NAME(CPU_PCT), p->cpu_ns >= 0 && wall > 0 ?
	    (double)p->cpu_ns / 1e9 / wall * 100 : NAN, 3);
	put_probe_grade(j, s, r);
	hist_json(j, &h);
	hist_json_raw(j, &h);
	json_obj_end(j);
}

/* What the report prints: each counter's label, and the ones that mean
 * something for these options, in order. */
static void
put_labels(struct json *j, const struct loadspec *ls)
{
	json_key(j, figures[FIG_COUNTER_LABELS].key);
	json_obj_begin(j);
	for (size_t i = 0; i < ls->ncounters; i++)
		json_kstr(j, ls->load->counters[i].id, ls->load->counters[i].label);
	json_obj_end(j);
}

static void
put_shown(struct json *j, const struct loadspec *ls)
{
	json_key(j, figures[FIG_COUNTERS_SHOWN].key);
	json_arr_begin(j);
	for (size_t i = 0; i < ls->ncounters; i++)
		if (ls->shown & 1ull << i)
			json_str(j, ls->load->counters[i].id);
	json_arr_end(j);
}

static void
put_units(struct json *j, const struct loadspec *ls)
{
	const struct load *l = ls->load;

	json_key(j, figures[FIG_COUNTER_UNITS].key);
	json_obj_begin(j);
	for (size_t i = 0; i < ls->ncounters; i++)
		json_kstr(j, l->counters[i].id, l->counters[i].unit);
	json_obj_end(j);
}

/* Each growing counter per second of the job: whole counts of runs of
 * different length do not compare. */
static void
put_rates(struct json *j, const struct loadspec *ls, const unsigned long long *c,
    double wall)
{
	const struct load *l = ls->load;

	json_key(j, figures[FIG_COUNTER_RATES].key);
	json_obj_begin(j);
	for (size_t i = 0; i < ls->ncounters; i++)
		if (l->counters[i].kind == LOAD_SUM)
			json_knum(j, l->counters[i].id,
			    wall > 0 ? (double)c[i] / wall : 0, 3);
	json_obj_end(j);
}

/*
 * Latency: percentiles (bucket midpoints, within precision_pct of the
 * truth), the exact min and max, and the raw histogram ([bucket floor
 * ns, count] in hist_sub buckets per power of two) to recompute any
 * other percentile from.
 */
static void
put_latency(struct json *j, const struct load *l, const struct run_record *r)
{
	struct hist h = { HIST_SUB, r->hist, r->lat_min, r->lat_max, 0, 0 };

	json_key(j, figures[FIG_LATENCY].key);
	json_obj_begin(j);
	json_kstr(j, HK_NAME(WHAT), l->latency);
	hist_json(j, &h);
	hist_json_raw(j, &h);
	json_obj_end(j);
}

static void
put_null_or_str(struct json *j, const char *key, const char *v)
{
	json_key(j, key);
	if (v)
		json_str(j, v);
	else
		json_null(j);
}

/* Machine-wide paging during the job: a refaulting cache shows here. */
static void
put_vmstat(struct json *j, const struct run_record *r)
{
	json_key(j, figures[FIG_VMSTAT].key);
	json_obj_begin(j);
	for (int i = 0; i < VMSTAT_NTEL; i++) {
		json_key(j, vmstat_keys[i]);
		if (r->vm[i] >= 0)
			json_int(j, r->vm[i]);
		else
			json_null(j);
	}
	json_obj_end(j);
}

/* /proc/schedstat over the job, machine-wide: time running and waiting
 * on the run queues, and timeslices, summed and CPU by CPU; null with
 * why where the kernel keeps none. */
static void
put_schedstat(struct json *j, const struct run_record *r)
{
	const struct schedstat *ss = &r->ss;

	json_key(j, figures[FIG_SCHEDSTAT].key);
	json_obj_begin(j);
	json_key(j, SS_NAME(VERSION));
	if (ss->ok)
		json_int(j, ss->version);
	else
		json_null(j);
	json_knum(j, SS_NAME(RUN_S), ss->ok ? (double)ss->run_all / 1e9 : NAN, 6);
	json_knum(j, SS_NAME(WAIT_S), ss->ok ? (double)ss->wait_all / 1e9 : NAN, 6);
	json_key(j, SS_NAME(SLICES));
	if (ss->ok)
		json_uint(j, ss->slices_all);
	else
		json_null(j);
	json_key(j, SS_NAME(PER_CPU));
	if (ss->ok) {
		json_arr_begin(j);
		for (size_t i = 0; i < ss->n; i++) {
			json_obj_begin(j);
			json_kint(j, SS_NAME(CPU), ss->cpu[i]);
			json_knum(j, SS_NAME(RUN_S), (double)ss->run[i] / 1e9, 6);
			json_knum(j, SS_NAME(WAIT_S), (double)ss->wait[i] / 1e9, 6);
			json_kuint(j, SS_NAME(SLICES), ss->slices[i]);
			json_obj_end(j);
		}
		json_arr_end(j);
	} else
		json_null(j);
	json_kstr_or_null(j, SS_NAME(WHY), ss->ok || !ss->why[0] ? NULL : ss->why);
	json_obj_end(j);
}

/* Machine-wide stall time during the job; null where there is no PSI. */
static void
put_psi(struct json *j, const struct run_record *r)
{
	json_key(j, figures[FIG_PSI].key);
	json_obj_begin(j);
	for (int i = 0; i < PSI_N; i++) {
		json_key(j, psi_keys[i]);
		if (r->psi.have[i])
			json_num(j, (double)r->psi.some_us[i] / 1e6, 6);
		else
			json_null(j);
	}
	json_obj_end(j);
}

/* The members figures.h leaves to their own code: what the run was and
 * how it went, and the objects. */
static void
put_own(struct json *j, const struct session *s, const struct run_record *r,
    enum fig_id id)
{
	const struct loadspec *ls = &s->cfg.slots[r->slot];
	const char *key = figures[id].key;
	int load = r->nworkers != 0;

	switch (id) {
	case FIG_STATUS: json_kstr(j, key, run_status_names[r->status]); break;
	case FIG_EXIT_CODE: json_kint(j, key, r->exit_code); break;
	case FIG_ERROR: if (r->why[0]) json_kstr(j, key, r->why); break;
	case FIG_CPU_SOURCE: json_kstr(j, key, r->job_cpu >= 0 ? "cgroup" : "rusage"); break;
	case FIG_JOB_CGROUP: json_kbool(j, key, r->job_cgroup); break;
	/* clone3: born in its cgroup; fork+move: it moved itself, inside
	 * the timed window; fork: no cgroup */
	case FIG_JOB_SPAWN: json_kstr(j, key, r->job_spawn ? r->job_spawn : "fork"); break;
	case FIG_CONTROLLERS: put_controllers(j, r); break;
	case FIG_SIGNAL: put_null_or_str(j, key, r->signal ? signal_name(r->signal) : NULL); break;
	case FIG_LCPU_SOURCE:
		json_kstr(j, key, !load ? "none" : r->load_cpu_exact == 2 ? "cgroup" :
		    r->load_cpu_exact ? "proc" : "rusage");
		break;
	case FIG_CONTAINMENT: json_kstr(j, key, !load ? "none" : r->cgroup ? "cgroup" : "pgroup"); break;
	case FIG_CGROUP_WHERE:	/* where the session's cgroup sits */
		if (r->cgroup && s->cgroup_where)
			json_kstr(j, key, s->cgroup_where);
		break;
	case FIG_COUNTERS: put_counters(j, key, ls, r->counter); break;
	case FIG_COUNTERS_TOTAL: put_counters(j, key, ls, r->counter_total); break;
	case FIG_COUNTER_UNITS: put_units(j, ls); break;
	case FIG_COUNTER_RATES: put_rates(j, ls, r->counter, r->fig[FIG_WALL]); break;
	case FIG_COUNTER_LABELS: put_labels(j, ls); break;
	case FIG_COUNTERS_SHOWN: put_shown(j, ls); break;
	case FIG_HEADLINE:
		json_kstr(j, key, ls->ncounters ?
		    ls->load->counters[ls->headline].id : "");
		break;
	case FIG_PROBE: put_probe(j, s, r); break;
	case FIG_SERIES: if (s->cfg.series) series_json(j, &r->series); break;
	case FIG_PROVENANCE:
		json_key(j, key);
		json_obj_begin(j);
		provenance_json(j, &s->prov, r->scx);
		json_obj_end(j);
		break;
	case FIG_LATENCY: if (ls->load->latency) put_latency(j, ls->load, r); break;
	case FIG_VMSTAT: put_vmstat(j, r); break;
	case FIG_PSI: put_psi(j, r); break;
	case FIG_SCHEDSTAT: put_schedstat(j, r); break;
	default: break;	/* figures.h writes the rest */
	}
}

/* One member of what the run measured, as figures.h describes it. */
static void
put_figure(struct json *j, const struct session *s, const struct run_record *r,
    enum fig_id id)
{
	const struct figure *f = &figures[id];
	double v = r->fig[id];

	if (f->how == W_OWN) {
		put_own(j, s, r, id);
		return;
	}
	if (f->how == W_OPT && isnan(v))
		return;
	json_key(j, f->key);
	if (f->how == W_INT && !isnan(v))
		json_int(j, (long long)v);
	else
		json_num(j, v, f->dec);
	if (isnan(v) && f->why && r->fig_why[id])
		json_kstr(j, f->why, r->fig_why[id]);
}

char *
results_line(const struct session *s, const struct run_record *r, size_t *lenp)
{
	struct json j;

	json_init(&j);
	json_obj_begin(&j);
	line_who(&j, s, r);
	line_run(&j, s, r);
	for (int i = 0; i < FIG_N; i++)
		put_figure(&j, s, r, (enum fig_id)i);
	json_obj_end(&j);
	const char *text = json_text(&j);
	size_t len = text ? strlen(text) : 0;
	char *line = text ? malloc(len + 1) : NULL;
	if (line) {
		memcpy(line, text, len);
		line[len] = '\n';
		*lenp = len + 1;
	}
	json_free(&j);
	return line;
}
