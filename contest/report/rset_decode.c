/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A results line as a struct rrun: the members a report reads (and the
 * key sets that say which), counters, latency histograms, per-second
 * samples and the job's identity (a row's environment: rset_env.c).
 * Nothing here counts or keeps: a line read twice decodes to the same
 * run.
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
	const struct jnode *vals = LGET(o, RK_FIG(COUNTERS));
	const struct jnode *units = LGET(o, RK_FIG(COUNTER_UNITS));
	const struct jnode *rates = LGET(o, RK_FIG(COUNTER_RATES));
	const struct jnode *labels = LGET(o, RK_FIG(COUNTER_LABELS));
	const struct jnode *shown = LGET(o, RK_FIG(COUNTERS_SHOWN));
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

/* --probe-cpus's each CPU, as the run recorded it. */
static void
probe_cpus(struct rrun *r, const struct jnode *a)
{
	size_t n = 0;

	if (a == NULL || a->type != J_ARR)
		return;
	for (const struct jnode *e = a->child; e; e = e->next)
		n++;
	r->pcpu = xcalloc(n + 1, sizeof *r->pcpu);
	for (const struct jnode *e = a->child; e; e = e->next) {
		long long cpu = jget_int(e, PK_NAME(CPU), -1, 0, 1 << 20);
		double p99 = jget_num(e, PK_NAME(P99_US), NAN);
		if (cpu < 0 || isnan(p99))
			continue;
		r->pcpu[r->npcpu++] = (struct run_pcpu){ (int)cpu, p99,
		    jget_num(e, PK_NAME(MAX_US), NAN) };
	}
}

/* A metric's index in the report's list, added on first sight; -1 past
 * RSET_JM names. */
static int
metric_index(struct rset *rs, const char *name, const struct jnode *def)
{
	for (size_t k = 0; k < rs->njm; k++)
		if (rs->jm[k].name == name)
			return (int)k;
	if (rs->njm == RSET_JM) {
		rs->jm_dropped = 1;
		return -1;
	}
	const char *better = jget_str(def, JMK_NAME(BETTER));
	rs->jm[rs->njm] = (struct rmetric){ name, rs_intern(rs, jget_str(def,
	    JMK_NAME(UNIT))), better && strcmp(better, jm_better_names[1]) == 0 };
	return (int)rs->njm++;
}

/* --job-metric's figures, by the report's index. */
static void
job_metrics(struct rset *rs, struct rrun *r, const struct jnode *o)
{
	const struct jnode *vals = LGET(o, RK_JOB_METRICS);
	const struct jnode *defs = LGET(o, RK_JOB_METRIC_DEFS);

	for (size_t k = 0; k < RSET_JM; k++)
		r->jm[k] = NAN;
	if (vals == NULL || vals->type != J_OBJ)
		return;
	for (const struct jnode *v = vals->child; v; v = v->next) {
		if (v->type != J_NUM)
			continue;
		int k = metric_index(rs, rs_intern(rs, v->key), jget(defs, v->key));
		if (k >= 0) {
			r->jm[k] = v->num;
			r->has_jm = 1;
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
	const struct jnode *t = jget(o, SK_NAME(T));
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
	series_col(o, SK_NAME(T), s->t, n);
	s->have_cpu = series_col(o, SK_NAME(CPU), s->cpu, n);
	s->have_wait = series_col(o, SK_NAME(WAIT), s->wait, n);
	s->gauge = jget(o, SK_NAME(LEVEL)) != NULL;
	s->have_rate = series_col(o, s->gauge ? SK_NAME(LEVEL) : SK_NAME(RATE),
	    s->rate, n);
	s->have_p99 = series_col(o, SK_NAME(P99), s->p99, n);
	s->n = n;
}

/* One run's own quantile q from its histogram: as a cell's. */
static double
run_quantile(const struct run_lat *l, double q0)
{
	if (l->what == NULL || l->n == 0)
		return NAN;
	double q = hist_quantile_pairs(l->pair, l->n, l->sub, l->min, l->max, q0);
	if (!isnan(q))
		return q;
	size_t nb = hist_nbuckets(l->sub);	/* out of order: spread them */
	unsigned long long *count = xcalloc(nb, sizeof *count);
	for (size_t k = 0; k < l->n; k++)
		count[hist_index(l->pair[2 * k], l->sub)] += l->pair[2 * k + 1];
	struct hist h = { l->sub, count, l->min, l->max, 0, 0 };
	q = hist_total(&h) ? hist_quantile(&h, q0) : NAN;
	free(count);
	return q;
}

/*
 * A latency histogram (key "latency" or "probe") as [floor, count] pairs.
 * Results of schema 1 say nothing of their layout: four buckets per
 * power of two, no exact extremes.
 */
static void
latency(struct rset *rs, struct run_lat *l, const struct jnode *o, unsigned key,
    const char *what)
{
	const struct jnode *lat = LGET(o, key), *h = jget(lat, HK_NAME(NS));
	size_t n = 0;

	if (lat == NULL || h == NULL || h->type != J_ARR || !what)
		return;
	long long sub = jget_int(lat, HK_NAME(SUB), HIST_SUB_V1, 1, 1 << 12);
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
	if (jget(lat, HK_NAME(SUB))) {	/* schema 2 on: extremes exact */
		double lo = jget_num(lat, HK_NAME(MIN_US), NAN);
		double hi = jget_num(lat, HK_NAME(MAX_US), NAN);
		if (lo >= 0 && hi >= lo && hi < 1e13) {
			l->min = (unsigned long long)llround(lo * 1e3);
			l->max = (unsigned long long)llround(hi * 1e3);
		}
	}
}

/* The job's identity as one string: the built-in tree's hash, or the
 * command's file, size and mtime; NULL for results that do not say. */
static const char *
job_key(struct rset *rs, const struct jnode *o)
{
	const struct jnode *id = LGET(o, RK_JOB_IDENTITY);
	char buf[4300];

	if (LSTR(o, RK_JOB_SHA256)) {
		snprintf(buf, sizeof buf, "sha256:%s", LSTR(o, RK_JOB_SHA256));
		return rs_intern(rs, buf);
	}
	if (id && jget_str(id, JK_NAME(PATH))) {
		snprintf(buf, sizeof buf, "%.4000s %.0f %.0f", jget_str(id, JK_NAME(PATH)),
		    jget_num(id, JK_NAME(SIZE), -1), jget_num(id, JK_NAME(MTIME), -1));
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
static const unsigned read_keys[] = {
	RK_CLOCKSOURCE, RK_COMMAND, RK_CONTEST_VERSION, RK_CPU_MODEL,
	RK_CPUFREQ_GOVERNOR, RK_CPUFREQ_MAX_KHZ, RK_CPUS_ONLINE, RK_HOST,
	RK_JOB_IDENTITY, RK_JOB_SHA256, RK_KERNEL, RK_KERNEL_BUILD_ID,
	RK_KERNEL_VERSION, RK_LABEL, RK_LEAD_S, RK_LOAD, RK_LOAD_SPEC, RK_MEM_TOTAL_KB,
	RK_NPROC, RK_PREPARE, RK_PREPARE_INFERRED, RK_ROUND_POSITION, RK_RUN,
	RK_SCHED, RK_ROUND, RK_SCHED_EXT_CHANGED, RK_SESSION, RK_SMT, RK_SWEEP,
	RK_TIMESTAMP, RK_VARIANT, RK_WARMUP, RK_JOB_METRICS, RK_JOB_METRIC_DEFS,
	RK_CONFIG, RK_BOOT_ID,
};
/* what a second look reads */
static const unsigned tel_read[] = { RK_RUN, RK_FIG(WALL), RK_FIG(VMSTAT),
	RK_FIG(MAJFLT), RK_FIG(NIVCSW), RK_FIG(SCHEDSTAT) };
static struct jkeys tel_keys;

/* The key set for reading under filter f, its ids keys.h's. */
const struct jkeys *
rs_keys_for(const struct rfilter *f)
{
	static struct jkeys k[2];
	static int made;

	if (!made) {
		unsigned char want[2][RK_N] = { { 0 } }, tel[RK_N] = { 0 };
		made = 1;
		for (int series = 0; series < 2; series++) {
			for (size_t i = 0; i < sizeof read_keys / sizeof *read_keys; i++)
				want[series][read_keys[i]] = 1;
			for (int i = 0; i < FIG_N; i++)
				want[series][RK_NSESSION + i] = figures[i].agg != A_NONE ||
				    (series && i == FIG_SERIES);
			jkeys_init_ids(&k[series], rkey_names, RK_N, want[series]);
		}
		for (size_t i = 0; i < sizeof tel_read / sizeof *tel_read; i++)
			tel[tel_read[i]] = 1;
		jkeys_init_ids(&tel_keys, rkey_names, RK_N, tel);
	}
	return &k[!!f->series];
}

const struct jkeys *
rs_tel_keys(void)
{
	return &tel_keys;
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
	const struct jnode *p = LGET(o, RK_FIG(PROVENANCE));

	return rs_tuple(rs, rs_intern(rs, LSTR(o, RK_KERNEL_VERSION)),
	    rs_intern(rs, jget_str(p, PRK_NAME(CONFIG_SHA256))),
	    rs_intern(rs, jget_str(p, PRK_NAME(SCHED_EXT))));
}

const char *
rs_label(struct rset *rs, const struct jnode *o)
{
	const char *label = LSTR(o, RK_LABEL), *v = LSTR(o, RK_VARIANT);
	char buf[512];

	if (label == NULL || v == NULL || *v == '\0')
		return rs_intern(rs, label);
	snprintf(buf, sizeof buf, "%.250s/%.250s", label, v);
	return rs_intern(rs, buf);
}

/*
 * Which run a line is, all a report filters and keys it by: its label
 * (with its variant), load and load spec, host, session, sweep, run
 * number, status and Time into *r; 0, or -1 when the line is no contest
 * result.
 */
int
rs_parse_id(struct rset *rs, const struct jnode *o, struct rrun *r)
{
	const char *label = LSTR(o, RK_LABEL), *load = LSTR(o, RK_LOAD);
	const char *status = LSTR(o, RK_FIG(STATUS));
	const char *block = LSTR(o, RK_LOAD_SPEC);
	const char *host = LSTR(o, RK_HOST);

	memset(r, 0, sizeof *r);
	r->fig[fig_pool(FIG_WALL)] = LNUM(o, RK_FIG(WALL), NAN);
	if (label == NULL || load == NULL || status == NULL ||
	    isnan(r->fig[fig_pool(FIG_WALL)]))
		return -1;
	r->session = rs_intern(rs, LSTR(o, RK_SESSION));
	r->boot = rs_intern(rs, LSTR(o, RK_BOOT_ID));
	r->label = rs_label(rs, o);
	r->variant = rs_intern(rs, LSTR(o, RK_VARIANT));
	r->host = rs_intern(rs, host ? host : "?");
	r->block = rs_intern(rs, block ? block : load);
	r->load = rs_intern(rs, load);
	r->runno = (long)LINT(o, RK_RUN, 0, 0, 1L << 30);
	r->ok = strcmp(status, run_status_names[RUN_OK]) == 0;
	r->sweep = rs_sweep_key(rs, LGET(o, RK_SWEEP));
	return 0;
}

/*
 * The rest of a line's run, after rs_parse_id(): its figures, counters
 * and histograms (the caller frees r->c and the histograms' pairs).
 * Nothing is counted here: a line read a second time parses to the same
 * run.
 */
void
rs_parse_rest(struct rset *rs, const struct jnode *o, unsigned long lineno,
    const char *file, struct rrun *r, uint32_t build)
{
	r->job = job_key(rs, o);
	r->build = build ? build : rs_build_key(rs, o);
	r->build_id = rs_intern(rs, LSTR(o, RK_KERNEL_BUILD_ID));
	r->round = (long)LINT(o, RK_ROUND, -1, 0, 1L << 30);
	r->command = rs_intern(rs, LSTR(o, RK_COMMAND) ? LSTR(o, RK_COMMAND) : "?");
	r->signal = rs_intern(rs, LSTR(o, RK_FIG(SIGNAL)));
	const char *head = LSTR(o, RK_FIG(HEADLINE));
	r->headline = head && *head ? rs_intern(rs, head) : NULL;
	r->file = file;
	r->line = lineno;
	r->exit_code = (int)LINT(o, RK_FIG(EXIT_CODE), 0, -255, 65535);
	for (int i = 0; i < FIG_N; i++)	/* Time: rs_parse_id() read it */
		if (fig_pool((enum fig_id)i) >= 0 && i != FIG_WALL)
			r->fig[fig_pool((enum fig_id)i)] = LNUM(o, RK_NSESSION + i, NAN);
	r->position = (long)LINT(o, RK_ROUND_POSITION, -1, 0, 1L << 30);
	r->scx_changed = LGET(o, RK_SCHED_EXT_CHANGED) &&
	    LGET(o, RK_SCHED_EXT_CHANGED)->type == J_BOOL &&
	    LINT(o, RK_SCHED_EXT_CHANGED, 0, 0, 1);
	for (size_t k = 0; k < RSET_JM; k++)
		r->jm[k] = NAN;
	if (!r->ok)
		return;
	counters(rs, r, o);
	job_metrics(rs, r, o);
	latency(rs, &r->lat, o, RK_FIG(LATENCY), jget_str(LGET(o, RK_FIG(LATENCY)), HK_NAME(WHAT)));
	latency(rs, &r->probe, o, RK_FIG(PROBE), "Probe wake-up lateness");
	const struct jnode *pr = LGET(o, RK_FIG(PROBE));
	r->probe_periods = (unsigned long long)jget_int(pr, PK_NAME(PERIODS), 0, 0, 1LL << 50);
	r->probe_met = (unsigned long long)jget_int(pr, PK_NAME(MET), 0, 0, 1LL << 50);
	/* Met% over every deadline that passed, skipped ones too; results
	 * before "deadlines" counted only the periods the probe woke for */
	r->probe_deadlines = (unsigned long long)jget_int(pr, PK_NAME(DEADLINES),
	    (long long)r->probe_periods, 0, 1LL << 50);
	r->probe_skipped = pr ? jget_int(pr, PK_NAME(SKIPPED), -1, 0, 1LL << 50) : -1;
	r->probe_p99 = run_quantile(&r->probe, 0.99);
	r->probe_p999 = run_quantile(&r->probe, 0.999);
	/* exact where the line says (schema 2 on); else unknown */
	r->probe_max = r->probe.what && r->probe.max > 0 ? (double)r->probe.max : NAN;
	probe_cpus(r, jget(pr, PK_NAME(PER_CPU)));
	r->met_pct = fig_met_pct(r->probe_met, r->probe_deadlines);
}

int
rs_parse_run(struct rset *rs, const struct jnode *o, unsigned long lineno,
    const char *file, struct rrun *r, uint32_t build)
{
	if (rs_parse_id(rs, o, r) < 0)
		return -1;
	rs_parse_rest(rs, o, lineno, file, r, build);
	return 0;
}

void
rs_free_run(struct rrun *r)
{
	free(r->pcpu);
	free(r->c);
	free(r->lat.pair);
	free(r->probe.pair);
}
