/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A results line's first part, before "status": which session, machine,
 * job, load and run the line is, with the settings the session was asked
 * for (its "config", runopt_walk.c's).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "builtin.h"
#include "json.h"
#include "keys.h"
#include "resultline_impl.h"
#include "util.h"
#include "buildver.h"

/* What else about the machine can change a result: frequency, SMT, clock. */
static void
put_env(struct json *j, const struct sysinfo *si)
{
	json_kstr_or_null(j, RK_NAME(CPUFREQ_GOVERNOR), si->governor);
	json_kint_or_null(j, RK_NAME(CPUFREQ_CUR_KHZ), si->freq_cur_khz);
	json_kint_or_null(j, RK_NAME(CPUFREQ_MIN_KHZ), si->freq_min_khz);
	json_kint_or_null(j, RK_NAME(CPUFREQ_MAX_KHZ), si->freq_max_khz);
	json_key(j, RK_NAME(SMT));
	if (si->smt < 0)
		json_null(j);
	else
		json_bool(j, si->smt);
	json_kstr_or_null(j, RK_NAME(CLOCKSOURCE), si->clocksource);
}

/* A scheduling knob: its value (text, or the number), or null when unset. */
static void
sched_field(struct json *j, const char *key, int set, int num, const char *text)
{
	json_key(j, key);
	if (!set)
		json_null(j);
	else if (text)
		json_str(j, text);
	else
		json_int(j, num);
}

/*
 * Which job ran: the built-in one by the SHA-256 of what its generator
 * writes (the tree is checked against it before every session); a
 * COMMAND by the file it resolved to, with its size and mtime.
 */
static void
put_job_identity(struct json *j, const struct session *s, const struct run_record *r)
{
	json_key(j, RK_NAME(JOB_SHA256));
	if (s->job_sha256)
		json_str(j, s->job_sha256);
	else
		json_null(j);
	json_key(j, RK_NAME(JOB_IDENTITY));
	if (r->job_stat) {
		json_obj_begin(j);
		json_kstr(j, JK_NAME(PATH), s->job_path);
		json_kint(j, JK_NAME(SIZE), r->job_size);
		json_kint(j, JK_NAME(MTIME), r->job_mtime);
		provenance_job_json(j, &s->prov);
		json_obj_end(j);
	} else if (s->job_sha256) {
		json_obj_begin(j);
		json_kstr(j, JK_NAME(BUILTIN), BUILTIN_TREE);
		provenance_job_json(j, &s->prov);
		json_obj_end(j);
	} else
		json_null(j);
}

static void
iso_time(double t, char *buf, size_t len)
{
	time_t sec = (time_t)t;
	struct tm tm;

	gmtime_r(&sec, &tm);
	size_t n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%03dZ", (int)((t - (double)sec) * 1000));
}

static void
put_load(struct json *j, const struct loadspec *ls, const char *workdir)
{
	char v[LOAD_STR_MAX];

	json_kstr(j, RK_NAME(LOAD), ls->load->name);
	json_kstr(j, RK_NAME(LOAD_SPEC), ls->name);
	json_key(j, RK_NAME(LOAD_OPTIONS));
	json_obj_begin(j);
	for (size_t i = 0; i < load_nopts(ls->load); i++) {
		if (ls->load->opts[i].type != LOAD_OPT_INT)
			json_kstr(j, ls->load->opts[i].key,
			    loadspec_value(ls, i, workdir, v, sizeof v));
		else
			json_kint(j, ls->load->opts[i].key, ls->opt[i]);
	}
	json_obj_end(j);
}


/* The scheduling knobs the run had, in words and one field each. */
static void
put_sched(struct json *j, const struct session *s, const struct run_record *r)
{
	const struct sched_opts *so = run_sched(s, r);
	char pol[SCHED_POLICY_TEXT];

	json_kstr(j, RK_NAME(SCHED), run_sched_text(s, r));
	sched_field(j, RK_NAME(LOAD_NICE), so->load.has_nice, so->load.nice, NULL);
	sched_policy_text(&so->load, pol, sizeof pol);
	sched_field(j, RK_NAME(LOAD_POLICY), so->load.has_policy, 0, pol);
	sched_field(j, RK_NAME(LOAD_CPUS), so->load.has_cpus, 0, so->load.cpus_text);
	sched_field(j, RK_NAME(JOB_CPUS), so->job.has_cpus, 0, so->job.cpus_text);
	sched_field(j, RK_NAME(JOB_NICE), so->job.has_nice, so->job.nice, NULL);
	sched_policy_text(&so->job, pol, sizeof pol);
	sched_field(j, RK_NAME(JOB_POLICY), so->job.has_policy, 0, pol);
}

/* --job-metric: each figure (null where the run has none: it failed),
 * and how it was read and which way is better; both null without. */
static void
put_job_metrics(struct json *j, const struct session *s, const struct run_record *r)
{
	json_key(j, RK_NAME(JOB_METRICS));
	if (s->cfg.njm == 0) {
		json_null(j);
		json_key(j, RK_NAME(JOB_METRIC_DEFS));
		json_null(j);
		return;
	}
	json_obj_begin(j);
	for (size_t i = 0; i < s->cfg.njm; i++)
		json_knum(j, s->cfg.jm[i].name, r->jm[i], 6);
	json_obj_end(j);
	/* a figure its program's mode does not print: why, the run standing */
	size_t nwhy = 0;
	for (size_t i = 0; i < s->cfg.njm; i++)
		nwhy += r->jm_why[i] != NULL && isnan(r->jm[i]);
	if (nwhy) {
		json_key(j, RK_NAME(JOB_METRICS_WHY));
		json_obj_begin(j);
		for (size_t i = 0; i < s->cfg.njm; i++)
			if (r->jm_why[i] && isnan(r->jm[i]))
				json_kstr(j, s->cfg.jm[i].name, r->jm_why[i]);
		json_obj_end(j);
	}
	json_key(j, RK_NAME(JOB_METRIC_DEFS));
	json_obj_begin(j);
	for (size_t i = 0; i < s->cfg.njm; i++) {
		const struct job_metric *m = &s->cfg.jm[i];
		json_key(j, m->name);
		json_obj_begin(j);
		json_kstr(j, JMK_NAME(REGEX), m->regex);
		json_kstr(j, JMK_NAME(BETTER), jm_better_names[!!m->higher]);
		json_kstr(j, JMK_NAME(OF), jm_of_names[m->of]);
		json_kstr_or_null(j, JMK_NAME(UNIT), m->unit);
		json_kstr_or_null(j, JMK_NAME(PRESET), m->preset);
		json_obj_end(j);
	}
	json_obj_end(j);
}

/* Which session, machine, scheduler settings and job the run was. */
void
line_who(struct json *j, const struct session *s, const struct run_record *r)
{
	char when[40];

	json_kint(j, RK_NAME(SCHEMA), RESULTS_SCHEMA);
	json_kstr(j, RK_NAME(CONTEST_VERSION), contest_build);
	json_kstr(j, RK_NAME(SESSION), s->id);
	iso_time(r->started, when, sizeof when);
	json_kstr(j, RK_NAME(TIMESTAMP), when);
	json_kstr(j, RK_NAME(HOST), s->si.host);
	json_kstr(j, RK_NAME(KERNEL), s->si.kernel);
	json_kstr(j, RK_NAME(KERNEL_VERSION), s->si.kversion);
	json_kstr_or_null(j, RK_NAME(KERNEL_BUILD_ID), s->si.build_id);
	json_kstr_or_null(j, RK_NAME(BOOT_ID), s->si.boot_id);
	json_kstr(j, RK_NAME(LABEL), s->label);
	json_kstr(j, RK_NAME(ARCH), s->si.machine);
	json_kint(j, RK_NAME(NPROC), s->si.nproc);
	json_kint(j, RK_NAME(CPUS_ONLINE), s->si.cpus_online);
	json_kstr(j, RK_NAME(CPU_MODEL), s->si.cpu_model);
	json_kint(j, RK_NAME(MEM_TOTAL_KB), s->si.mem_total_kb);
	put_env(j, &s->si);
	put_sched(j, s, r);
	put_job_metrics(j, s, r);
	json_kstr(j, RK_NAME(COMMAND), s->command);
	if (s->cells) {
		/* the tables' row key; the command before substitution */
		const struct sweep_cell *c = &s->cells[r->cell];
		json_key(j, RK_NAME(SWEEP));
		json_obj_begin(j);
		for (size_t k = 0; k < s->cfg.sweep.n; k++)
			json_kstr(j, s->cfg.sweep.name[k], c->val[k]);
		json_obj_end(j);
		json_kstr(j, RK_NAME(COMMAND_TEMPLATE), s->command_template);
	}
	put_job_identity(j, s, r);
	json_key(j, RK_NAME(ARGV));
	json_arr_begin(j);
	for (size_t i = 0; s->argv[i]; i++)
		json_str(j, s->argv[i]);
	json_arr_end(j);
	if (s->prepare_str)
		json_kstr(j, RK_NAME(PREPARE), s->prepare_str);
	else {
		json_key(j, RK_NAME(PREPARE));
		json_null(j);
	}
	json_kbool(j, RK_NAME(PREPARE_INFERRED), s->prepare_inferred);
}

/* Which load, round and run. */
void
line_run(struct json *j, const struct session *s, const struct run_record *r)
{
	const struct loadspec *ls = &s->cfg.slots[r->slot];

	json_knum(j, RK_NAME(LEAD_S), (double)r->lead_ms / 1000.0, 3);
	put_load(j, ls, s->dir);
	json_kint(j, RK_NAME(ROUND), r->round);
	if (s->cfg.nvariants) {
		/* one of the session's variants of the machine, in turns */
		const struct variant *v = &s->cfg.variants[r->variant];
		json_kstr(j, RK_NAME(VARIANT), v->name);
		json_kstr(j, RK_NAME(VARIANT_KIND), variant_kind_names[v->kind]);
		json_kstr_or_null(j, RK_NAME(VARIANT_COMMAND), v->cmd);
	}
	if (s->cfg.until_ci_pct > 0)
		json_knum(j, RK_NAME(UNTIL_CI_PCT), s->cfg.until_ci_pct, 3);
	runopt_json(j, &s->cfg);
	json_kint(j, RK_NAME(RUN), r->index);
	json_kint(j, RK_NAME(ROUND_POSITION), r->position);	/* 0: first of its round */
	/* a BPF scheduler loaded or gone while the run went on: what it
	 * measured is neither scheduler's */
	json_kbool(j, RK_NAME(SCHED_EXT_CHANGED), r->scx_after[0] != '\0');
	if (r->scx_after[0])
		json_kstr(j, RK_NAME(SCHED_EXT_AFTER), r->scx_after);
	json_kbool(j, RK_NAME(WARMUP), r->warmup);
}

