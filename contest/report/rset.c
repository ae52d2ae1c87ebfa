#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "jsonl.h"
#include "rset.h"
#include "util.h"

/*
 * Interned strings: a report over 100000 lines holds a handful of
 * labels, hosts and counter names, so each is stored once and compared
 * by pointer.
 */
struct rpool {
	char	**slot;
	size_t	  n, cap;
};

static uint64_t
hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static const char *
intern(struct rset *rs, const char *s)
{
	struct rpool *p = rs->pool;

	if (s == NULL)
		return NULL;
	if (p->n * 2 >= p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 256;
		char **slot = xcalloc(cap, sizeof *slot);
		for (size_t i = 0; i < p->cap; i++) {
			if (p->slot[i] == NULL)
				continue;
			size_t j = hash(p->slot[i]) & (cap - 1);
			while (slot[j])
				j = (j + 1) & (cap - 1);
			slot[j] = p->slot[i];
		}
		free(p->slot);
		p->slot = slot;
		p->cap = cap;
	}
	size_t j = hash(s) & (p->cap - 1);
	while (p->slot[j]) {
		if (strcmp(p->slot[j], s) == 0)
			return p->slot[j];
		j = (j + 1) & (p->cap - 1);
	}
	p->n++;
	return p->slot[j] = xstrdup(s);
}

const char *const rset_telemetry[RSET_NTEL] = {
	"pgfault", "pgmajfault", "pgpgin", "pgpgout", "workingset_refault_file",
	"job majflt", "job nivcsw",
};

struct addctx {
	struct rset		*rs;
	const struct rfilter	*f;
	const char		*file;
};

static int
listed(const char *s, const char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(s, list[i]) == 0)
			return 1;
	return 0;
}

/* A label filter names the label, or one row of it (LABEL@HOST, LABEL#N). */
static int
label_listed(const char *label, const char **list, size_t n)
{
	size_t len = strlen(label);

	for (size_t i = 0; i < n; i++)
		if (strncmp(list[i], label, len) == 0 && (list[i][len] == '\0' ||
		    list[i][len] == '@' || list[i][len] == '#'))
			return 1;
	return 0;
}

static size_t
find_row(struct rset *rs, const struct rrun *r)
{
	size_t i;

	for (i = 0; i < rs->nrow; i++)
		if (rs->row[i].label == r->label && rs->row[i].host == r->host &&
		    rs->row[i].command == r->command && rs->row[i].job == r->job &&
		    rs->row[i].sweep == r->sweep)
			return i;
	rs->row = realloc(rs->row, (i + 1) * sizeof *rs->row);
	if (rs->row == NULL)
		fatal(1, "out of memory");
	rs->row[i] = (struct rrow){ r->label, r->host, r->command, r->job, r->sweep,
	    NULL, NULL };
	rs->nrow++;
	return i;
}

static size_t
find_block(struct rset *rs, const struct rrun *r)
{
	size_t i;

	for (i = 0; i < rs->nblk; i++)
		if (rs->blk[i].name == r->block)
			return i;
	rs->blk = realloc(rs->blk, (i + 1) * sizeof *rs->blk);
	if (rs->blk == NULL)
		fatal(1, "out of memory");
	rs->blk[i] = (struct rblock){ r->block, r->load };
	rs->nblk++;
	return i;
}

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
		struct rcount *c = &r->c[r->nc++];
		c->name = intern(rs, v->key);
		c->unit = intern(rs, jget_str(units, v->key));
		c->val = v->num;
		c->rate = jget_num(rates, v->key, NAN);
		c->label = intern(rs, jget_str(labels, v->key) ? jget_str(labels,
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
static const char *
sweep_key(struct rset *rs, const struct jnode *sw)
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
	return used ? intern(rs, buf) : NULL;
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

static void
series(struct rrun *r, const struct jnode *o)
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
run_p99(const struct rlat *l)
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
	struct hist h = { l->sub, count, l->min, l->max };
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
latency(struct rset *rs, struct rlat *l, const struct jnode *o, const char *key,
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
	l->what = intern(rs, what);
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
	r->cmdline = intern(rs, jget_str(p, "cmdline"));
	r->sched_ext = intern(rs, jget_str(p, "sched_ext"));
	r->preempt = intern(rs, jget_str(p, "preempt"));
	r->config_sha256 = intern(rs, jget_str(p, "config_sha256"));
	r->mitigations = intern(rs, jget_str(p, "mitigations"));
	r->thp = intern(rs, jget_str(p, "thp"));
	r->git_head = intern(rs, jget_str(id, "git_head"));
	r->cc = intern(rs, jget_str(id, "cc"));
	r->ld = intern(rs, jget_str(id, "ld"));
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
		return intern(rs, buf);
	}
	if (id && jget_str(id, "path")) {
		snprintf(buf, sizeof buf, "%.4000s %.0f %.0f", jget_str(id, "path"),
		    jget_num(id, "size", -1), jget_num(id, "mtime", -1));
		return intern(rs, buf);
	}
	return NULL;
}

static int
add_line(const struct jnode *o, unsigned long lineno, void *arg)
{
	struct addctx *x = arg;
	struct rset *rs = x->rs;
	const struct rfilter *f = x->f;
	const char *label = jget_str(o, "label"), *load = jget_str(o, "load");
	const char *status = jget_str(o, "status"), *when = jget_str(o, "timestamp");
	double wall = jget_num(o, "wall_s", NAN);

	if (label == NULL || load == NULL || status == NULL || isnan(wall)) {
		warnmsg("%s:%lu: not a contest result, skipped", x->file, lineno);
		rs->skipped++;
		return 0;
	}
	const char *block = jget_str(o, "load_spec");
	const char *host = jget_str(o, "host");
	if (block == NULL)
		block = load;
	int warmup = jget_num(o, "warmup", 0) != 0;
	if (warmup)
		rs->warmups++;
	if (f->nlabels && !label_listed(label, f->labels, f->nlabels))
		return 0;
	if (f->host && (host == NULL || strcmp(host, f->host) != 0))
		return 0;
	if (f->since && (when == NULL || strcmp(when, f->since) < 0))
		return 0;
	struct rtimed *t = NULL;
	if (strcmp(status, "ok") == 0 && jget_str(o, "session")) {
		if (rs->ntimed == rs->captimed) {
			rs->captimed = rs->captimed ? rs->captimed * 2 : 64;
			rs->timed = realloc(rs->timed, rs->captimed * sizeof *rs->timed);
			if (rs->timed == NULL)
				fatal(1, "out of memory");
		}
		t = &rs->timed[rs->ntimed++];
		*t = (struct rtimed){ intern(rs, jget_str(o, "session")), x->file,
		    intern(rs, block), lineno, wall, !warmup, SIZE_MAX };
	}
	if (warmup)
		return 0;
	if (f->nloads && !listed(block, f->loads, f->nloads) &&
	    !listed(load, f->loads, f->nloads))
		return 0;

	if (rs->nrun == rs->caprun) {
		rs->caprun = rs->caprun ? rs->caprun * 2 : 64;
		rs->run = realloc(rs->run, rs->caprun * sizeof *rs->run);
		if (rs->run == NULL)
			fatal(1, "out of memory");
	}
	if (t)
		t->run = rs->nrun;
	struct rrun *r = &rs->run[rs->nrun++];
	memset(r, 0, sizeof *r);
	r->session = intern(rs, jget_str(o, "session"));
	r->job = job_key(rs, o);
	r->prepare = intern(rs, jget_str(o, "prepare"));
	r->prepare_inferred = jget(o, "prepare_inferred") &&
	    jget(o, "prepare_inferred")->type == J_BOOL ?
	    (int)jget_int(o, "prepare_inferred", 0, 0, 1) : -1;
	r->label = intern(rs, label);
	r->host = intern(rs, host ? host : "?");
	r->command = intern(rs, jget_str(o, "command") ? jget_str(o, "command") : "?");
	r->block = intern(rs, block);
	r->load = intern(rs, load);
	r->timestamp = intern(rs, when);
	r->kernel = intern(rs, jget_str(o, "kernel"));
	r->cpu_model = intern(rs, jget_str(o, "cpu_model"));
	r->version = intern(rs, jget_str(o, "contest_version"));
	r->signal = intern(rs, jget_str(o, "signal"));
	const char *head = jget_str(o, "headline");
	r->headline = head && *head ? intern(rs, head) : NULL;
	r->sched = intern(rs, jget_str(o, "sched"));
	r->file = x->file;
	r->line = lineno;
	r->nproc = (long)jget_int(o, "nproc", 0, 0, 1L << 30);
	r->cpus_online = (long)jget_int(o, "cpus_online", r->nproc, 0, 1L << 30);
	r->runno = (long)jget_int(o, "run", 0, 0, 1L << 30);
	r->governor = intern(rs, jget_str(o, "cpufreq_governor"));
	r->clocksource = intern(rs, jget_str(o, "clocksource"));
	r->freq_max_khz = jget_int(o, "cpufreq_max_khz", -1, 0, 1LL << 40);
	r->smt = jget(o, "smt") && jget(o, "smt")->type == J_BOOL ?
	    (int)jget_int(o, "smt", 0, 0, 1) : -1;
	const struct jnode *vm = jget(o, "vmstat");
	for (int i = 0; i < RSET_NTEL - 2; i++)
		r->tel[i] = jget_num(vm, rset_telemetry[i], NAN);
	r->tel[RSET_NTEL - 2] = jget_num(o, "majflt", NAN);
	r->tel[RSET_NTEL - 1] = jget_num(o, "nivcsw", NAN);
	r->mem_kb = jget_int(o, "mem_total_kb", 0, 0, 1LL << 50);
	r->ok = strcmp(status, "ok") == 0;
	r->exit_code = (int)jget_int(o, "exit_code", 0, -255, 65535);
	r->wall = wall;
	r->cpu_pct = jget_num(o, "cpu_pct", NAN);
	r->lcpu_pct = jget_num(o, "lcpu_pct", NAN);
	r->wait_pct = jget_num(o, "wait_pct", NAN);
	r->steal_pct = jget_num(o, "steal_pct", NAN);
	provenance(rs, r, jget(o, "provenance"), jget(o, "job_identity"));
	r->load_pct = jget_num(o, "load_pct", NAN);
	counters(rs, r, o);
	latency(rs, &r->lat, o, "latency", jget_str(jget(o, "latency"), "what"));
	latency(rs, &r->probe, o, "probe", "Probe wake-up lateness");
	r->probe_periods = (unsigned long long)jget_int(jget(o, "probe"), "periods",
	    0, 0, 1LL << 50);
	r->probe_met = (unsigned long long)jget_int(jget(o, "probe"), "met", 0, 0,
	    1LL << 50);
	r->probe_p99 = run_p99(&r->probe);
	r->met_pct = r->probe_periods ? (double)r->probe_met /
	    (double)r->probe_periods * 100 : NAN;
	r->sweep = sweep_key(rs, jget(o, "sweep"));
	if (f->series)
		series(r, jget(o, "series"));
	r->position = (long)jget_int(o, "round_position", -1, 0, 1L << 30);
	r->row = find_row(rs, r);
	r->blk = find_block(rs, r);
	return 0;
}

int
rset_add_stream(struct rset *rs, const char *name, FILE *in,
    const struct rfilter *f)
{
	struct addctx x = { rs, f, NULL };
	unsigned long skipped;

	if (rs->pool == NULL)
		rs->pool = xcalloc(1, sizeof *rs->pool);
	x.file = intern(rs, name);
	if (jsonl_read_stream(in, name, add_line, &x, &skipped) < 0) {
		warnmsg("%s: %s", name, strerror(errno));
		return -1;
	}
	rs->skipped += skipped;
	rs->files++;
	return 0;
}

static int
add_file(struct rset *rs, const char *path, const struct rfilter *f)
{
	struct addctx x = { rs, f, intern(rs, path) };
	unsigned long skipped;

	if (jsonl_read(path, add_line, &x, &skipped) < 0) {
		warnmsg("%s: %s", path, strerror(errno));
		return -1;
	}
	rs->skipped += skipped;
	rs->files++;
	return 0;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
rset_add(struct rset *rs, const char *path, const struct rfilter *f)
{
	struct stat st;

	if (rs->pool == NULL)
		rs->pool = xcalloc(1, sizeof *rs->pool);
	if (stat(path, &st) != 0) {
		warnmsg("%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return add_file(rs, path, f);

	DIR *d = opendir(path);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;
	int rc = 0;

	if (d == NULL) {
		warnmsg("%s: %s", path, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		if (len < 7 || e->d_name[0] == '.' ||
		    strcmp(e->d_name + len - 6, ".jsonl") != 0)
			continue;
		names = realloc(names, (n + 1) * sizeof *names);
		if (names == NULL)
			fatal(1, "out of memory");
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n == 0) {
		warnmsg("%s: no *.jsonl results in this directory", path);
		rc = -1;
	}
	if (n)
		qsort(names, n, sizeof *names, by_name);
	for (size_t i = 0; i < n; i++) {
		char *full = xcalloc(strlen(path) + strlen(names[i]) + 2, 1);
		sprintf(full, "%s/%s", path, names[i]);
		if (add_file(rs, full, f) != 0)
			rc = -1;
		free(full);
		free(names[i]);
	}
	free(names);
	return rc;
}

struct rcell *
rset_cell(const struct rset *rs, size_t row, size_t blk)
{
	return &rs->cell[row * rs->nblk + blk];
}

/* Natural order: runs of digits compare by value, the rest bytewise. */
int
rset_labelcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			while (*a == '0')
				a++;
			while (*b == '0')
				b++;
			size_t la = 0, lb = 0;
			while (isdigit((unsigned char)a[la]))
				la++;
			while (isdigit((unsigned char)b[lb]))
				lb++;
			if (la != lb)
				return la < lb ? -1 : 1;
			int c = strncmp(a, b, la);
			if (c)
				return c;
			a += la;
			b += lb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return (*a != 0) - (*b != 0);
}

/* Names: the label, then "@host" and "#n" only where one label has several. */
static void
name_rows(struct rset *rs)
{
	for (size_t i = 0; i < rs->nrow; i++) {
		struct rrow *w = &rs->row[i];
		size_t hosts = 0, cmds = 0, cmdno = 0;
		for (size_t j = 0; j < rs->nrow; j++) {
			const struct rrow *o = &rs->row[j];
			/* one sweep's values are one command's rows, not several */
			if (o->label != w->label || o->sweep != w->sweep)
				continue;
			if (o->host != w->host)
				hosts++;
			else {
				cmds++;
				if (j <= i)
					cmdno++;
			}
		}
		int first = 1;
		for (size_t j = 0; j < i; j++)
			if (rs->row[j].label == w->label && rs->row[j].sweep == w->sweep)
				first = 0;
		if (first && hosts)
			warnmsg("warning: label '%s' was measured on %zu hosts; its rows "
			    "are named LABEL@HOST", w->label, hosts + 1);
		if (first && cmds > 1)
			warnmsg("warning: label '%s' was measured with %zu different "
			    "commands or jobs (command, job_sha256, job_identity); its "
			    "rows are named LABEL#N", w->label, cmds);
		size_t len = strlen(w->label) + strlen(w->host) +
		    (w->sweep ? strlen(w->sweep) : 0) + 34;
		w->name = xcalloc(len, 1);
		snprintf(w->name, len, "%s%s%s", w->label, hosts ? "@" : "",
		    hosts ? w->host : "");
		if (cmds > 1)
			snprintf(w->name + strlen(w->name), 32, "#%zu", cmdno);
		if (w->sweep)
			snprintf(w->name + strlen(w->name), strlen(w->sweep) + 2, " %s",
			    w->sweep);
	}
}

/*
 * The ok runs' latency histograms as one, in the coarsest layout among
 * them (a schema 1 run makes the cell coarse); the extremes exact only
 * when every run's are.  which: offsetof the rlat in struct rrun.
 */
static void
merge_latency(const struct rset *rs, const size_t *idx, size_t n, size_t which,
    struct rclat *c)
{
	unsigned sub = 0;
	int exact = 1;

#define RLAT(r) ((const struct rlat *)((const char *)(r) + which))
	for (size_t i = 0; i < n; i++) {
		const struct rrun *r = &rs->run[idx[i]];
		if (!r->ok || RLAT(r)->what == NULL)
			continue;
		if (sub == 0 || RLAT(r)->sub < sub)
			sub = RLAT(r)->sub;
		c->what = RLAT(r)->what;
	}
	if (sub == 0)
		return;
	c->count = xcalloc(hist_nbuckets(sub), sizeof *c->count);
	c->h = (struct hist){ sub, c->count, ~0ULL, 0 };
	for (size_t i = 0; i < n; i++) {
		const struct rrun *r = &rs->run[idx[i]];
		const struct rlat *l = RLAT(r);
		if (!r->ok || l->what == NULL)
			continue;
		for (size_t k = 0; k < l->n; k++)
			c->count[hist_index(l->pair[2 * k], sub)] += l->pair[2 * k + 1];
		if (l->max == 0 && l->n > 0)
			exact = 0;
		if (l->max && l->min < c->h.min)
			c->h.min = l->min;
		if (l->max > c->h.max)
			c->h.max = l->max;
	}
#undef RLAT
	if (!exact || c->h.max == 0)
		c->h.min = c->h.max = 0;
}

/* The cell's runs are idx[0..n), in file order. */
static void
summarise_cell(struct rset *rs, const size_t *idx, size_t n, struct rcell *c)
{
	double *cpu, *lcpu, *loads, *wait, *loadp, *rate, *p99, *metv;

	c->wall = xcalloc(n + 1, sizeof *c->wall);
	cpu = xcalloc(n + 1, sizeof *cpu);
	lcpu = xcalloc(n + 1, sizeof *lcpu);
	wait = xcalloc(n + 1, sizeof *wait);
	loadp = xcalloc(n + 1, sizeof *loadp);
	loads = xcalloc(n + 1, sizeof *loads);
	rate = xcalloc(n + 1, sizeof *rate);
	p99 = xcalloc(n + 1, sizeof *p99);
	metv = xcalloc(n + 1, sizeof *metv);
	size_t nlcpu = 0, nloads = 0, nwait = 0, nloadp = 0, nrate = 0, np99 = 0;
	size_t nmet = 0;
	for (size_t i = 0; i < n; i++) {
		const struct rrun *r = &rs->run[idx[i]];
		if (!r->ok) {
			c->failed++;
			c->last_exit = r->exit_code;
			c->last_signal = r->signal;
			continue;
		}
		if (r->suspect.why) {
			if (c->suspect == NULL)
				c->suspect = xcalloc(n, sizeof *c->suspect);
			c->suspect[c->nsuspect++] = (struct suspect){ r->runno, r->wall,
			    r->suspect };
		}
		cpu[c->ok] = r->cpu_pct;
		c->wall[c->ok++] = r->wall;
		if (!isnan(r->lcpu_pct))
			lcpu[nlcpu++] = r->lcpu_pct;
		if (!isnan(r->wait_pct))
			wait[nwait++] = r->wait_pct;
		if (!isnan(r->load_pct))
			loadp[nloadp++] = r->load_pct;
		if (!isnan(r->loads))
			loads[nloads++] = r->loads;
		if (!isnan(r->rate))
			rate[nrate++] = r->rate;
		if (!isnan(r->probe_p99))
			p99[np99++] = r->probe_p99;
		if (!isnan(r->met_pct))
			metv[nmet++] = r->met_pct;
		if (r->headline)
			c->headline = r->headline;
		for (size_t k = 0; k < r->nc; k++) {
			const struct rcount *rc = &r->c[k];
			size_t j;
			for (j = 0; j < c->nc && c->c[j].name != rc->name; j++)
				;
			if (j == c->nc) {
				c->c = realloc(c->c, (c->nc + 1) * sizeof *c->c);
				if (c->c == NULL)
					fatal(1, "out of memory");
				c->c[c->nc++] = (struct rcsum){ rc->name, rc->unit,
				    rc->label, 0, 0, 0, rc->shown };
			}
			c->c[j].mean += rc->val;
			c->c[j].rate += rc->rate;	/* NaN stays NaN: a gauge */
			c->c[j].n++;
		}
	}
	for (size_t j = 0; j < c->nc; j++) {
		c->c[j].mean /= (double)c->c[j].n;
		c->c[j].rate /= (double)c->c[j].n;
	}
	merge_latency(rs, idx, n, offsetof(struct rrun, lat), &c->lat);
	merge_latency(rs, idx, n, offsetof(struct rrun, probe), &c->probe);
	unsigned long long periods = 0, met = 0;
	for (size_t i = 0; i < n; i++)
		if (rs->run[idx[i]].ok) {
			periods += rs->run[idx[i]].probe_periods;
			met += rs->run[idx[i]].probe_met;
		}
	c->met_pct = periods ? (double)met / (double)periods * 100 : NAN;
	stats_compute(c->wall, c->ok, &c->time);
	stats_compute(cpu, c->ok, &c->cpu);
	stats_compute(lcpu, nlcpu, &c->lcpu);
	stats_compute(wait, nwait, &c->wait);
	stats_compute(loadp, nloadp, &c->loadp);
	stats_compute(loads, nloads, &c->loads);
	stats_compute(rate, nrate, &c->rate);
	stats_compute(p99, np99, &c->p99);
	stats_compute(metv, nmet, &c->met);
	/* BAmean-50: the faster half, rounded up (mmtests' best-50% mean) */
	memcpy(cpu, c->wall, c->ok * sizeof *cpu);
	stats_sort(cpu, c->ok);
	c->bamean = NAN;
	if (c->ok) {
		size_t half = (c->ok + 1) / 2;
		c->bamean = 0;
		for (size_t i = 0; i < half; i++)
			c->bamean += cpu[i] / (double)half;
	}
	c->noisy = c->ok > 0 && (c->ok < RSET_MIN_RUNS || c->time.cv > RSET_NOISY_CV ||
	    c->nsuspect > 0);
	free(cpu);
	free(lcpu);
	free(wait);
	free(loadp);
	free(loads);
	free(rate);
	free(p99);
	free(metv);
}

static const struct rset *sort_rs;
static size_t sort_blk;
static enum rsort sort_how;

static int
row_order(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = 0;

	if (sort_how == RSORT_LABEL)
		c = rset_labelcmp(sort_rs->row[a].name, sort_rs->row[b].name);
	else if (sort_how == RSORT_TIME) {
		const struct rcell *ca = rset_cell(sort_rs, a, sort_blk);
		const struct rcell *cb = rset_cell(sort_rs, b, sort_blk);
		/* rows without runs go last */
		double ta = ca->ok ? ca->time.mean : INFINITY;
		double tb = cb->ok ? cb->time.mean : INFINITY;
		c = (ta > tb) - (ta < tb);
	}
	return c ? c : (a > b) - (a < b);
}

static int
timed_order(const void *pa, const void *pb)
{
	const struct rtimed *a = pa, *b = pb;
	int c = strcmp(a->session, b->session);

	if (c == 0)
		c = strcmp(a->file, b->file);
	return c ? c : (a->line > b->line) - (a->line < b->line);
}

/* Each session's runs in the order they ran, through suspect_mark(). */
static void
mark_suspects(struct rset *rs)
{
	struct srun *sr = xcalloc(rs->ntimed + 1, sizeof *sr);
	struct sflag *sf = xcalloc(rs->ntimed + 1, sizeof *sf);

	if (rs->ntimed > 1)	/* qsort may not be handed NULL, even for none */
		qsort(rs->timed, rs->ntimed, sizeof *rs->timed, timed_order);
	for (size_t i = 0, j; i < rs->ntimed; i = j) {
		for (j = i; j < rs->ntimed && rs->timed[j].session == rs->timed[i].session; j++)
			sr[j - i] = (struct srun){ (size_t)(uintptr_t)rs->timed[j].block,
			    rs->timed[j].wall, rs->timed[j].measured };
		suspect_mark(sr, j - i, sf);
		for (size_t k = i; k < j; k++)
			if (rs->timed[k].run != SIZE_MAX)
				rs->run[rs->timed[k].run].suspect = sf[k - i];
	}
	free(sr);
	free(sf);
}

void
rset_summarise(struct rset *rs, enum rsort how)
{
	mark_suspects(rs);
	rs->base = rs->nblk;
	for (size_t b = 0; b < rs->nblk; b++)
		if (strcmp(rs->blk[b].name, "no_load") == 0)
			rs->base = b;
	/* no_load's block comes first, as in the run's table */
	if (rs->base < rs->nblk && rs->base > 0) {
		struct rblock t = rs->blk[rs->base];
		memmove(rs->blk + 1, rs->blk, rs->base * sizeof *rs->blk);
		rs->blk[0] = t;
		for (size_t i = 0; i < rs->nrun; i++)
			if (rs->run[i].blk == rs->base)
				rs->run[i].blk = 0;
			else if (rs->run[i].blk < rs->base)
				rs->run[i].blk++;
		rs->base = 0;
	}
	name_rows(rs);
	for (size_t i = 0; i < rs->nrun; i++)
		if (rs->row[rs->run[i].row].env == NULL)
			rs->row[rs->run[i].row].env = &rs->run[i];
	rs->cell = xcalloc(rs->nrow * rs->nblk + 1, sizeof *rs->cell);
	/* runs bucketed by cell once: one pass however many cells there are */
	size_t ncell = rs->nrow * rs->nblk;
	size_t *start = xcalloc(ncell + 1, sizeof *start);
	size_t *idx = xcalloc(rs->nrun + 1, sizeof *idx);
	for (size_t i = 0; i < rs->nrun; i++)
		start[rs->run[i].row * rs->nblk + rs->run[i].blk + 1]++;
	for (size_t k = 0; k < ncell; k++)
		start[k + 1] += start[k];
	size_t *fill = xcalloc(ncell + 1, sizeof *fill);
	for (size_t i = 0; i < rs->nrun; i++) {
		size_t k = rs->run[i].row * rs->nblk + rs->run[i].blk;
		idx[start[k] + fill[k]++] = i;
	}
	free(fill);
	for (size_t k = 0; k < ncell; k++)
		summarise_cell(rs, idx + start[k], start[k + 1] - start[k], &rs->cell[k]);
	free(start);
	free(idx);
	for (size_t r = 0; r < rs->nrow; r++)
		for (size_t b = 0; b < rs->nblk; b++) {
			struct rcell *c = rset_cell(rs, r, b);
			const struct rcell *base = rs->base < rs->nblk ?
			    rset_cell(rs, r, rs->base) : NULL;
			c->ratio = c->ratio_sd = c->ratio_ci95 = c->ratio_se =
			    c->ratio_df = NAN;
			if (base == NULL || base->ok == 0 || c->ok == 0)
				continue;
			if (b == rs->base) {
				c->ratio = 1;	/* by definition, with no spread */
				continue;
			}
			c->ratio = stats_ratio(&c->time, &base->time, &c->ratio_sd);
			c->ratio_se = stats_ratio_se(&c->time, &base->time, &c->ratio_df);
			c->ratio_ci95 = stats_ratio_ci95(&c->time, &base->time);
		}
	rs->order = xcalloc(rs->nrow * rs->nblk + 1, sizeof *rs->order);
	sort_rs = rs;
	sort_how = how;
	for (size_t b = 0; b < rs->nblk; b++) {
		size_t *o = rs->order + b * rs->nrow;
		for (size_t r = 0; r < rs->nrow; r++)
			o[r] = r;
		sort_blk = b;
		qsort(o, rs->nrow, sizeof *o, row_order);
	}
}

static double
median_of(double *v, size_t n)
{
	stats_sort(v, n);
	return n == 0 ? NAN : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

size_t
rset_outliers(const struct rset *rs, size_t row, size_t blk,
    struct routlier *out, size_t max)
{
	const struct rcell *c = rset_cell(rs, row, blk);
	size_t nout = 0, n = 0;

	if (c->ok < RSET_MIN_RUNS || c->time.cv <= RSET_NOISY_CV)
		return 0;
	const struct rrun **runs = xcalloc(c->ok, sizeof *runs);
	double *v = xcalloc(c->ok, sizeof *v);
	for (size_t i = 0; i < rs->nrun && n < c->ok; i++) {
		const struct rrun *r = &rs->run[i];
		if (r->row == row && r->blk == blk && r->ok)
			runs[n++] = r;
	}
	double med = c->time.median;
	for (size_t i = 0; i < n && nout < max; i++) {
		if (fabs(runs[i]->wall - med) <= RSET_NOISY_CV * med)
			continue;
		struct routlier *o = &out[nout++];
		memset(o, 0, sizeof *o);
		o->run = runs[i];
		o->median = med;
		double best[2] = { 0, 0 };
		for (int t = 0; t < RSET_NTEL; t++) {
			size_t m = 0;
			if (isnan(runs[i]->tel[t]))
				continue;
			for (size_t k = 0; k < n; k++)
				if (k != i && !isnan(runs[k]->tel[t]))
					v[m++] = runs[k]->tel[t];
			if (m == 0)
				continue;
			double others = median_of(v, m), mine = runs[i]->tel[t];
			/* a factor of 2 either way, and more than noise in counts */
			double lo = others < mine ? others : mine, hi = others < mine ? mine : others;
			if (hi - lo < 100 || hi < 2 * lo)
				continue;
			double score = (hi + 1) / (lo + 1);
			for (int s = 0; s < 2; s++)
				if (score > best[s]) {
					if (s == 0) {
						best[1] = best[0];
						o->tel[1] = o->tel[0];
						o->others[1] = o->others[0];
					}
					best[s] = score;
					o->tel[s] = t;
					o->others[s] = others;
					break;
				}
		}
		o->ntel = best[1] > 0 ? 2 : best[0] > 0 ? 1 : 0;
	}
	free(runs);
	free(v);
	return nout;
}

long
rset_find_row(const struct rset *rs, const char *label)
{
	long found = -1;
	size_t n = 0;

	for (size_t r = 0; r < rs->nrow; r++)
		if (strcmp(rs->row[r].label, label) == 0 ||
		    strcmp(rs->row[r].name, label) == 0) {
			if (strcmp(rs->row[r].name, label) == 0)
				return (long)r;
			found = (long)r;
			n++;
		}
	if (n == 0)
		warnmsg("no results for label '%s'", label);
	else if (n > 1)
		warnmsg("label '%s' was measured on more than one host or with more "
		    "than one command; name one row as the report does (LABEL@HOST, "
		    "LABEL#N)", label);
	return n == 1 ? found : -1;
}

const struct rrun *
rset_median_series(const struct rset *rs, size_t row, size_t blk)
{
	const struct rrun **v = NULL;
	size_t n = 0;

	for (size_t i = 0; i < rs->nrun; i++) {
		const struct rrun *r = &rs->run[i];
		if (r->row != row || r->blk != blk || !r->ok || r->series == NULL)
			continue;
		v = realloc(v, (n + 1) * sizeof *v);
		if (v == NULL)
			fatal(1, "out of memory");
		v[n++] = r;
	}
	/* insertion sort by Time: a cell holds few runs */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && v[j]->wall < v[j - 1]->wall; j--) {
			const struct rrun *x = v[j];
			v[j] = v[j - 1];
			v[j - 1] = x;
		}
	const struct rrun *m = n ? v[(n - 1) / 2] : NULL;
	free(v);
	return m;
}

long
rset_label_rows(const struct rset *rs, const char *label, size_t *out,
    size_t max)
{
	size_t n = 0;

	for (size_t r = 0; r < rs->nrow; r++) {
		const struct rrow *w = &rs->row[r];
		size_t len = strlen(w->name) - (w->sweep ? strlen(w->sweep) + 1 : 0);
		if (strcmp(w->label, label) != 0 && strcmp(w->name, label) != 0 &&
		    !(strncmp(w->name, label, len) == 0 && label[len] == '\0'))
			continue;
		for (size_t k = 0; k < n; k++)
			if (rs->row[out[k]].sweep == w->sweep) {
				warnmsg("label '%s' was measured on more than one host or "
				    "with more than one command; name one row as the report "
				    "does (LABEL@HOST, LABEL#N)", label);
				return -1;
			}
		if (n == max) {
			warnmsg("label '%s' has more than %zu sweep values", label, max);
			return -1;
		}
		out[n++] = r;
	}
	if (n == 0)
		warnmsg("no results for label '%s'", label);
	return n ? (long)n : -1;
}

void
rset_free(struct rset *rs)
{
	free(rs->timed);
	for (size_t i = 0; i < rs->nrun; i++) {
		free(rs->run[i].c);
		free(rs->run[i].lat.pair);
		free(rs->run[i].probe.pair);
		if (rs->run[i].series)
			free(rs->run[i].series->t);
		free(rs->run[i].series);
	}
	if (rs->cell)
		for (size_t i = 0; i < rs->nrow * rs->nblk; i++) {
			free(rs->cell[i].lat.count);
			free(rs->cell[i].probe.count);
			free(rs->cell[i].wall);
			free(rs->cell[i].c);
			free(rs->cell[i].suspect);
		}
	for (size_t i = 0; i < rs->nrow; i++)
		free(rs->row[i].name);
	if (rs->pool) {
		for (size_t i = 0; i < rs->pool->cap; i++)
			free(rs->pool->slot[i]);
		free(rs->pool->slot);
		free(rs->pool);
	}
	free(rs->run);
	free(rs->row);
	free(rs->blk);
	free(rs->cell);
	free(rs->order);
	memset(rs, 0, sizeof *rs);
}
