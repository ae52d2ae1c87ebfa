/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A results line as a struct rrun: the members a report reads (and the
 * key sets that say which), counters, latency histograms, per-second
 * samples, provenance and the job's identity.  Nothing here counts or
 * keeps: a line read twice decodes to the same run.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rset_impl.h"
#include "util.h"

static void
counters(struct rset *rs, struct rrun *r, const struct jnode *o)
{
	const struct jnode *vals = jget(o, "counters");
	const struct jnode *units = jget(o, "counter_units");
	const struct jnode *rates = jget(o, "counter_rates_per_s");
	const struct jnode *labels = jget(o, "counter_labels");
	const struct jnode *shown = jget(o, "counters_shown");
	size_t n = 0;

	r->loads = r->rate = NAN;
	if (vals == NULL || vals->type != J_OBJ)
		return;
	for (const struct jnode *v = vals->child; v; v = v->next)
		n++;
	if (n == 0)
		return;
	r->c = xcalloc(n, sizeof *r->c);
	for (const struct jnode *v = vals->child; v; v = v->next) {
		if (v->type != J_NUM)
			continue;
		struct run_counter *c = &r->c[r->nc++];
		c->name = rs_intern(rs, v->key);
		c->unit = rs_intern(rs, jget_str(units, v->key));
		c->val = v->num;
		c->rate = jget_num(rates, v->key, NAN);
		c->label = rs_intern(rs, jget_str(labels, v->key) ? jget_str(labels,
		    v->key) : v->key);
		c->shown = shown ? 0 : c->name == r->headline;
		for (const struct jnode *e = shown ? shown->child : NULL; e; e = e->next)
			if (e->type == J_STR && strcmp(e->str, v->key) == 0)
				c->shown = 1;
		if (r->headline == c->name) {
			r->loads = c->val;
			r->rate = isnan(c->rate) ? c->val : c->rate;
		}
	}
}

/* A sweep object {"j":"2","m":"4"} as "j=2 m=4". */
const char *
rs_sweep_key(struct rset *rs, const struct jnode *sw)
{
	char buf[1024];
	size_t used = 0;

	if (sw == NULL || sw->type != J_OBJ || sw->child == NULL)
		return NULL;
	for (const struct jnode *v = sw->child; v && used < sizeof buf; v = v->next) {
		if (v->type == J_STR)
			used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s=%s",
			    used ? " " : "", v->key, v->str);
		else if (v->type == J_NUM)
			used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s=%g",
			    used ? " " : "", v->key, v->num);
	}
	return used ? rs_intern(rs, buf) : NULL;
}

/* One column of a series: n numbers (null: NaN); 1 if any was a number. */
static int
series_col(const struct jnode *o, const char *key, double *out, size_t n)
{
	const struct jnode *a = jget(o, key), *e;
	size_t i = 0;
	int any = 0;

	for (e = a && a->type == J_ARR ? a->child : NULL; e && i < n; e = e->next, i++) {
		out[i] = e->type == J_NUM ? e->num : NAN;
		any |= e->type == J_NUM;
	}
	for (; i < n; i++)
		out[i] = NAN;
	return any;
}

void
rs_series(struct rrun *r, const struct jnode *o)
{
	const struct jnode *t = jget(o, "t_s");
	struct rseries *s;
	size_t n = 0;

	if (t == NULL || t->type != J_ARR)
		return;
	for (const struct jnode *e = t->child; e; e = e->next)
		n++;
	if (n == 0 || n > 1000000)
		return;
	s = r->series = xcalloc(1, sizeof *s);
	double *buf = xcalloc(5 * n, sizeof *buf);
	s->t = buf, s->cpu = buf + n, s->wait = buf + 2 * n, s->rate = buf + 3 * n;
	s->p99 = buf + 4 * n;
	series_col(o, "t_s", s->t, n);
	s->have_cpu = series_col(o, "cpu_pct", s->cpu, n);
	s->have_wait = series_col(o, "wait_pct", s->wait, n);
	s->gauge = jget(o, "load_level") != NULL;
	s->have_rate = series_col(o, s->gauge ? "load_level" : "load_rate", s->rate, n);
	s->have_p99 = series_col(o, "probe_p99_us", s->p99, n);
	s->n = n;
}

/* One run's own p99 from its histogram: the same quantile as a cell's. */
static double
run_p99(const struct run_lat *l)
{
	if (l->what == NULL || l->n == 0)
		return NAN;
	double q = hist_quantile_pairs(l->pair, l->n, l->sub, l->min, l->max, 0.99);
	if (!isnan(q))
		return q;
	size_t nb = hist_nbuckets(l->sub);	/* out of order: spread them */
	unsigned long long *count = xcalloc(nb, sizeof *count);
	for (size_t k = 0; k < l->n; k++)
		count[hist_index(l->pair[2 * k], l->sub)] += l->pair[2 * k + 1];
	struct hist h = { l->sub, count, l->min, l->max, 0, 0 };
	q = hist_total(&h) ? hist_quantile(&h, 0.99) : NAN;
	free(count);
	return q;
}

/*
 * A latency histogram (key "latency" or "probe") as [floor, count] pairs.
 * Results of schema 1 say nothing of their layout: four buckets per
 * power of two, no exact extremes.
 */
static void
latency(struct rset *rs, struct run_lat *l, const struct jnode *o, const char *key,
    const char *what)
{
	const struct jnode *lat = jget(o, key), *h = jget(lat, "hist_ns");
	size_t n = 0;

	if (lat == NULL || h == NULL || h->type != J_ARR || !what)
		return;
	long long sub = jget_int(lat, "hist_sub", HIST_SUB_V1, 1, 1 << 12);
	if (sub & (sub - 1))
		return;		/* not a layout of ours */
	for (const struct jnode *e = h->child; e; e = e->next)
		n++;
	l->pair = xcalloc(2 * n + 2, sizeof *l->pair);
	for (const struct jnode *e = h->child; e; e = e->next) {
		const struct jnode *f = e->type == J_ARR ? e->child : NULL;
		const struct jnode *c = f ? f->next : NULL;
		if (c == NULL || f->type != J_NUM || c->type != J_NUM ||
		    !(f->num >= 0 && f->num < 1e19) || !(c->num >= 0 && c->num < 1e19))
			continue;
		l->pair[2 * l->n] = (unsigned long long)f->num;
		l->pair[2 * l->n + 1] = (unsigned long long)c->num;
		l->n++;
	}
	l->what = rs_intern(rs, what);
	l->sub = (unsigned)sub;
	if (jget(lat, "hist_sub")) {	/* schema 2 on: extremes exact */
		double lo = jget_num(lat, "min_us", NAN), hi = jget_num(lat, "max_us", NAN);
		if (lo >= 0 && hi >= lo && hi < 1e13) {
			l->min = (unsigned long long)llround(lo * 1e3);
			l->max = (unsigned long long)llround(hi * 1e3);
		}
	}
}

/* What else the run's machine and kernel were, when it says. */
static void
provenance(struct rset *rs, struct rrun *r, const struct jnode *p,
    const struct jnode *id)
{
	r->cmdline = rs_intern(rs, jget_str(p, "cmdline"));
	r->sched_ext = rs_intern(rs, jget_str(p, "sched_ext"));
	r->preempt = rs_intern(rs, jget_str(p, "preempt"));
	r->config_sha256 = rs_intern(rs, jget_str(p, "config_sha256"));
	r->mitigations = rs_intern(rs, jget_str(p, "mitigations"));
	r->thp = rs_intern(rs, jget_str(p, "thp"));
	r->git_head = rs_intern(rs, jget_str(id, "git_head"));
	r->cc = rs_intern(rs, jget_str(id, "cc"));
	r->ld = rs_intern(rs, jget_str(id, "ld"));
	r->hz = (long)jget_int(p, "hz", -1, 1, 100000);
	r->autogroup = (long)jget_int(p, "autogroup", -1, 0, 1);
	r->git_dirty = jget(id, "git_dirty") && jget(id, "git_dirty")->type == J_BOOL ?
	    (long)jget_int(id, "git_dirty", -1, 0, 1) : -1;
}

/* The job's identity as one string: the built-in tree's hash, or the
 * command's file, size and mtime; NULL for results that do not say. */
static const char *
job_key(struct rset *rs, const struct jnode *o)
{
	const struct jnode *id = jget(o, "job_identity");
	char buf[4300];

	if (jget_str(o, "job_sha256")) {
		snprintf(buf, sizeof buf, "sha256:%s", jget_str(o, "job_sha256"));
		return rs_intern(rs, buf);
	}
	if (id && jget_str(id, "path")) {
		snprintf(buf, sizeof buf, "%.4000s %.0f %.0f", jget_str(id, "path"),
		    jget_num(id, "size", -1), jget_num(id, "mtime", -1));
		return rs_intern(rs, buf);
	}
	return NULL;
}

/*
 * The members a report reads: those before "status" that say which run
 * a line is, and every figure figures.h says a report reads; the rest of
 * each line is validated and passed over.  The per-second samples only
 * when asked for.
 */
#define READ_KEYS \
	"clocksource", "command", "contest_version", "cpu_model", \
	"cpufreq_governor", "cpufreq_max_khz", "cpus_online", "host", \
	"job_identity", "job_sha256", "kernel", "kernel_build_id", \
	"kernel_version", "label", "load", "load_spec", "mem_total_kb", "nproc", \
	"prepare", "prepare_inferred", "round_position", "run", "sched", \
	"round", "sched_ext_changed", "session", "smt", "sweep", "timestamp", \
	"variant", "warmup"
#define TEL_KEYS	"run", "wall_s", "vmstat", "majflt", "nivcsw"
static const char *const tel_list[] = { TEL_KEYS, NULL };
static struct jkeys tel_keys;	/* what a second look reads */

/* The key set for reading under filter f. */
const struct jkeys *
rs_keys_for(const struct rfilter *f)
{
	static const char *const base[] = { READ_KEYS, NULL };
	static const char *list[2][sizeof base / sizeof *base + FIG_N + 1];
	static struct jkeys k[2];
	static int made;

	if (!made) {
		made = 1;
		for (int series = 0; series < 2; series++) {
			size_t n = 0;
			for (size_t i = 0; base[i]; i++)
				list[series][n++] = base[i];
			for (int i = 0; i < FIG_N; i++)
				if (figures[i].agg != A_NONE ||
				    (series && i == FIG_SERIES))
					list[series][n++] = figures[i].key;
			list[series][n] = NULL;
			jkeys_init(&k[series], list[series]);
		}
		jkeys_init(&tel_keys, tel_list);
	}
	return &k[!!f->series];
}

const struct jkeys *
rs_tel_keys(void)
{
	return &tel_keys;
}
/* What the row's table and its environment lines say: its first run's. */
void
rs_environment(struct rset *rs, struct rrun *r, const struct jnode *o)
{
	r->prepare = rs_intern(rs, jget_str(o, "prepare"));
	r->prepare_inferred = jget(o, "prepare_inferred") &&
	    jget(o, "prepare_inferred")->type == J_BOOL ?
	    (int)jget_int(o, "prepare_inferred", 0, 0, 1) : -1;
	r->kernel = rs_intern(rs, jget_str(o, "kernel"));
	r->cpu_model = rs_intern(rs, jget_str(o, "cpu_model"));
	r->version = rs_intern(rs, jget_str(o, "contest_version"));
	r->sched = rs_intern(rs, jget_str(o, "sched"));
	r->nproc = (long)jget_int(o, "nproc", 0, 0, 1L << 30);
	r->cpus_online = (long)jget_int(o, "cpus_online", r->nproc, 0, 1L << 30);
	r->governor = rs_intern(rs, jget_str(o, "cpufreq_governor"));
	r->clocksource = rs_intern(rs, jget_str(o, "clocksource"));
	r->freq_max_khz = jget_int(o, "cpufreq_max_khz", -1, 0, 1LL << 40);
	r->smt = jget(o, "smt") && jget(o, "smt")->type == J_BOOL ?
	    (int)jget_int(o, "smt", 0, 0, 1) : -1;
	r->mem_kb = jget_int(o, "mem_total_kb", 0, 0, 1LL << 50);
	r->steal_pct = jget_num(o, "steal_pct", NAN);
	provenance(rs, r, jget(o, "provenance"), jget(o, "job_identity"));
}

/*
 * The kernel build and scheduler a run measured: uname -v (which
 * carries the build's number and time), the config's hash and sched_ext's
 * state.  With the GNU build ID beside it (row_is()), two builds of one
 * release are two rows, never one average.
 */
uint32_t
rs_build_key(struct rset *rs, const struct jnode *o)
{
	const struct jnode *p = jget(o, "provenance");

	return rs_tuple(rs, rs_intern(rs, jget_str(o, "kernel_version")),
	    rs_intern(rs, jget_str(p, "config_sha256")),
	    rs_intern(rs, jget_str(p, "sched_ext")));
}

const char *
rs_label(struct rset *rs, const struct jnode *o)
{
	const char *label = jget_str(o, "label"), *v = jget_str(o, "variant");
	char buf[512];

	if (label == NULL || v == NULL || *v == '\0')
		return rs_intern(rs, label);
	snprintf(buf, sizeof buf, "%.250s/%.250s", label, v);
	return rs_intern(rs, buf);
}

/*
 * A line's run: its keys, figures, counters and histograms into *r (the
 * caller frees r->c and the histograms' pairs); 0, or -1 when the line
 * is no contest result.  Nothing is counted here: a line read a second
 * time parses to the same run.
 */
int
rs_parse_run(struct rset *rs, const struct jnode *o, unsigned long lineno,
    const char *file, struct rrun *r, uint32_t build)
{
	const char *label = jget_str(o, "label"), *load = jget_str(o, "load");
	const char *status = jget_str(o, "status");
	const char *block = jget_str(o, "load_spec");
	const char *host = jget_str(o, "host");
	double wall = jget_num(o, "wall_s", NAN);

	memset(r, 0, sizeof *r);
	if (label == NULL || load == NULL || status == NULL || isnan(wall))
		return -1;
	if (block == NULL)
		block = load;
	r->session = rs_intern(rs, jget_str(o, "session"));
	r->job = job_key(rs, o);
	r->build = build ? build : rs_build_key(rs, o);
	r->build_id = rs_intern(rs, jget_str(o, "kernel_build_id"));
	r->label = rs_label(rs, o);
	r->variant = rs_intern(rs, jget_str(o, "variant"));
	r->round = (long)jget_int(o, "round", -1, 0, 1L << 30);
	r->host = rs_intern(rs, host ? host : "?");
	r->command = rs_intern(rs, jget_str(o, "command") ? jget_str(o, "command") : "?");
	r->block = rs_intern(rs, block);
	r->load = rs_intern(rs, load);
	r->signal = rs_intern(rs, jget_str(o, "signal"));
	const char *head = jget_str(o, "headline");
	r->headline = head && *head ? rs_intern(rs, head) : NULL;
	r->file = file;
	r->line = lineno;
	r->runno = (long)jget_int(o, "run", 0, 0, 1L << 30);
	r->ok = strcmp(status, "ok") == 0;
	r->exit_code = (int)jget_int(o, "exit_code", 0, -255, 65535);
	for (int i = 0; i < FIG_N; i++)
		if (fig_pool((enum fig_id)i) >= 0)
			r->fig[fig_pool((enum fig_id)i)] = jget_num(o, figures[i].key, NAN);
	r->sweep = rs_sweep_key(rs, jget(o, "sweep"));
	r->position = (long)jget_int(o, "round_position", -1, 0, 1L << 30);
	r->scx_changed = jget(o, "sched_ext_changed") &&
	    jget(o, "sched_ext_changed")->type == J_BOOL &&
	    jget_int(o, "sched_ext_changed", 0, 0, 1);
	if (!r->ok)
		return 0;
	counters(rs, r, o);
	latency(rs, &r->lat, o, "latency", jget_str(jget(o, "latency"), "what"));
	latency(rs, &r->probe, o, "probe", "Probe wake-up lateness");
	const struct jnode *pr = jget(o, "probe");
	r->probe_periods = (unsigned long long)jget_int(pr, "periods", 0, 0, 1LL << 50);
	r->probe_met = (unsigned long long)jget_int(pr, "met", 0, 0, 1LL << 50);
	/* Met% over every deadline that passed, skipped ones too; results
	 * before "deadlines" counted only the periods the probe woke for */
	r->probe_deadlines = (unsigned long long)jget_int(pr, "deadlines",
	    (long long)r->probe_periods, 0, 1LL << 50);
	r->probe_skipped = pr ? jget_int(pr, "skipped", -1, 0, 1LL << 50) : -1;
	r->probe_p99 = run_p99(&r->probe);
	r->met_pct = fig_met_pct(r->probe_met, r->probe_deadlines);
	return 0;
}

void
rs_free_run(struct rrun *r)
{
	free(r->c);
	free(r->lat.pair);
	free(r->probe.pair);
}
