/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jsonl.h"
#include "quantile.h"
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

/*
 * Keys of several interned parts (a load, its sweep values and kernel
 * build), numbered from 1 by an open hash table of their pointers: a
 * report over a million lines compares them as one number, and never
 * builds a string for one.
 */
struct rtuples {
	const void	**key;	/* 3 a slot */
	uint32_t	 *id;	/* 0: empty */
	size_t		  cap, n;
};

static size_t
tuple_slot(const void *a, const void *b, const void *c, size_t cap)
{
	uint64_t h = ((uintptr_t)a * 0x9e3779b97f4a7c15ull) ^
	    ((uintptr_t)b * 0xc2b2ae3d27d4eb4full) ^ ((uintptr_t)c * 0x165667b19e3779f9ull);

	return (size_t)(h ^ h >> 31) & (cap - 1);
}

static uint32_t
tuple(struct rset *rs, const void *a, const void *b, const void *c)
{
	struct rtuples *t = rs->tup;

	if (t == NULL)
		t = rs->tup = xcalloc(1, sizeof *t);
	if (2 * (t->n + 1) > t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		const void **key = xcalloc(3 * cap, sizeof *key);
		uint32_t *id = xcalloc(cap, sizeof *id);
		for (size_t i = 0; i < t->cap; i++) {
			if (t->id[i] == 0)
				continue;
			size_t j = tuple_slot(t->key[3 * i], t->key[3 * i + 1],
			    t->key[3 * i + 2], cap);
			while (id[j])
				j = (j + 1) & (cap - 1);
			memcpy(key + 3 * j, t->key + 3 * i, 3 * sizeof *key);
			id[j] = t->id[i];
		}
		free(t->key);
		free(t->id);
		t->key = key;
		t->id = id;
		t->cap = cap;
	}
	size_t j = tuple_slot(a, b, c, t->cap);
	for (; t->id[j]; j = (j + 1) & (t->cap - 1))
		if (t->key[3 * j] == a && t->key[3 * j + 1] == b && t->key[3 * j + 2] == c)
			return t->id[j];
	t->key[3 * j] = a;
	t->key[3 * j + 1] = b;
	t->key[3 * j + 2] = c;
	return t->id[j] = (uint32_t)++t->n;
}

const char *const rset_telemetry[RSET_NTEL] = {
	"pgfault", "pgmajfault", "pgpgin", "pgpgout", "workingset_refault_file",
	"job majflt", "job nivcsw",
};

struct addctx {
	struct rset		*rs;
	const struct rfilter	*f;
	const char		*file;
	uint32_t		 fileno;
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

/*
 * Rows by their key (interned, so compared by pointer) in an open hash
 * table, and each row's cells by block: a year of a lab's nightly runs
 * has thousands of rows, and each line finds its own.
 */
struct rindex {
	size_t	*slot;		/* row + 1; 0: empty */
	size_t	 cap;
	struct { uint32_t *acc; size_t n; } *cells;	/* per row, by block */
	/* Every ok run's telemetry is kept as read while it fits in
	 * TEL_BUDGET bytes; past that the files' are dropped, and read again
	 * for the cells a report names runs of. */
	size_t	 tel_bytes;
	int	 spilled;
};

#define TEL_BUDGET	(24u << 20)	/* some 300,000 runs */

static size_t
row_hash(const struct rrun *r)
{
	uintptr_t k[6] = { (uintptr_t)r->label, (uintptr_t)r->host,
	    (uintptr_t)r->command, (uintptr_t)r->job, (uintptr_t)r->sweep,
	    r->build };
	uint64_t h = 1469598103934665603ull;

	for (int i = 0; i < 6; i++)
		h = (h ^ (uint64_t)k[i]) * 1099511628211ull;
	return (size_t)(h ^ h >> 29);
}

/* A run belongs to a row of its keys whose build ID is its own, or
 * where either does not say one (results from before build IDs). */
static int
row_is(const struct rrow *w, const struct rrun *r)
{
	return w->label == r->label && w->host == r->host &&
	    w->command == r->command && w->job == r->job && w->sweep == r->sweep &&
	    w->build == r->build && (w->build_id == r->build_id ||
	    w->build_id == NULL || r->build_id == NULL);
}

static size_t
find_row(struct rset *rs, const struct rrun *r)
{
	struct rindex *ix = rs->ix;

	if (ix == NULL)
		ix = rs->ix = xcalloc(1, sizeof *ix);
	if (2 * (rs->nrow + 1) > ix->cap) {	/* rehash at half full */
		size_t cap = ix->cap ? 2 * ix->cap : 64;
		size_t *slot = xcalloc(cap, sizeof *slot);
		for (size_t i = 0; i < rs->nrow; i++) {
			struct rrun k = { .label = rs->row[i].label, .host = rs->row[i].host,
			    .command = rs->row[i].command, .job = rs->row[i].job,
			    .sweep = rs->row[i].sweep, .build = rs->row[i].build };
			size_t j = row_hash(&k) & (cap - 1);
			while (slot[j])
				j = (j + 1) & (cap - 1);
			slot[j] = i + 1;
		}
		free(ix->slot);
		ix->slot = slot;
		ix->cap = cap;
	}
	size_t j = row_hash(r) & (ix->cap - 1);
	for (; ix->slot[j]; j = (j + 1) & (ix->cap - 1))
		if (row_is(&rs->row[ix->slot[j] - 1], r)) {
			struct rrow *w = &rs->row[ix->slot[j] - 1];
			if (w->build_id == NULL)
				w->build_id = r->build_id;	/* the first to say */
			return ix->slot[j] - 1;
		}
	size_t i = rs->nrow;
	rs->row = realloc(rs->row, (i + 1) * sizeof *rs->row);
	ix->cells = realloc(ix->cells, (i + 1) * sizeof *ix->cells);
	if (rs->row == NULL || ix->cells == NULL)
		fatal(1, "out of memory");
	rs->row[i] = (struct rrow){ r->label, r->host, r->command, r->job, r->sweep,
	    r->build, r->build_id, NULL, NULL };
	ix->cells[i].acc = NULL;
	ix->cells[i].n = 0;
	ix->slot[j] = i + 1;
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
	"sched_ext_changed", "session", "smt", "sweep", "timestamp", "warmup"
#define TEL_KEYS	"run", "wall_s", "vmstat", "majflt", "nivcsw"
static const char *const tel_list[] = { TEL_KEYS, NULL };
static struct jkeys tel_keys;	/* what a second look reads */

/* The key set for reading under filter f. */
static const struct jkeys *
keys_for(const struct rfilter *f)
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

/* The figures of a cell, one value per ok run that has it: the pooled
 * figures (figures.h, by fig_pool()) and the headline's count. */
enum { F_LOADS = FIG_NPOOL, NFIG };
/* Figures only tested and averaged, never shown by their median: kept as
 * running sums, not per run (rate, the probe's p99, Met%). */
enum { S_RATE, S_P99, S_MET, NSUM };

struct dvec {
	double	*v;
	size_t	 n, cap;
};

/* Where a run's line is: a file's number in rs->fname, and the line. */
struct place {
	uint32_t file, line;
};

/* An ok run the report may name as an outlier: read back on demand. */
struct rtel {
	struct place at;	/* first: place_order() sorts these */
	long	 runno;
	double	 wall, tel[RSET_NTEL];
};

struct racc {
	size_t		 row, blk;
	struct dvec	 fig[NFIG];
	struct stats	 sum[NSUM];
	double		 m2[NSUM];
	size_t		 failed;
	int		 last_exit;
	const char	*last_signal, *headline;
	struct rcsum	*c;
	size_t		 nc;
	struct rclat	 lat, probe;
	int		 lat_inexact, probe_inexact;
	unsigned long long periods, met;	/* periods: deadlines passed */
	unsigned long long skipped, nskipped;	/* and the runs that say */
	size_t		 scx_changed;
	/* ok runs with no session (no timed entry): where they are */
	struct place	*loc;
	size_t		 nloc, caploc;
	/* telemetry: the runs' as read, or after a spill when first asked */
	struct rtel	*tel;
	size_t		 ntel, captel;
	int		 tel_read;
};

/* Grow *v (of *cap elements of size sz) to hold n + 1. */
static void
grow(void *v, size_t *cap, size_t n, size_t sz)
{
	void **p = v;

	if (n < *cap)
		return;
	*cap = *cap ? *cap * 2 : 8;
	if ((*p = realloc(*p, *cap * sz)) == NULL)
		fatal(1, "out of memory");
}

/* Figures grow by half again, not double: they are most of what a
 * report over a million runs holds. */
static void
dgrow(struct dvec *d)
{
	if (d->n < d->cap)
		return;
	d->cap = d->cap ? d->cap + d->cap / 2 : 8;
	if ((d->v = realloc(d->v, d->cap * sizeof *d->v)) == NULL)
		fatal(1, "out of memory");
}

static void
dpush(struct dvec *d, double x)
{
	if (isnan(x))
		return;
	dgrow(d);
	d->v[d->n++] = x;
}

/* The accumulator of cell (row, blk), made when first needed. */
static uint32_t
acc_for(struct rset *rs, size_t row, size_t blk)
{
	struct rindex *ix = rs->ix;

	if (blk >= ix->cells[row].n) {
		size_t n = blk + 1;
		ix->cells[row].acc = realloc(ix->cells[row].acc, n * sizeof(uint32_t));
		if (ix->cells[row].acc == NULL)
			fatal(1, "out of memory");
		for (size_t i = ix->cells[row].n; i < n; i++)
			ix->cells[row].acc[i] = UINT32_MAX;
		ix->cells[row].n = n;
	}
	if (ix->cells[row].acc[blk] != UINT32_MAX)
		return ix->cells[row].acc[blk];
	grow(&rs->acc, &rs->capacc, rs->nacc, sizeof *rs->acc);
	struct racc *a = &rs->acc[rs->nacc];
	memset(a, 0, sizeof *a);
	a->row = row;
	a->blk = blk;
	ix->cells[row].acc[blk] = (uint32_t)rs->nacc;
	return (uint32_t)rs->nacc++;
}

/* count v into bucket i of a cell's histogram, its window grown to hold i */
static void
window_add(struct rclat *c, size_t i, unsigned long long v)
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
lat_merge(struct rclat *c, int *inexact, const struct rlat *l, int sign)
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
		struct rclat old = *c;
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

static void
rtel_of(struct rtel *t, const struct jnode *o, uint32_t file, uint32_t line)
{
	const struct jnode *vm = jget(o, "vmstat");

	t->at.file = file;
	t->at.line = line;
	t->runno = (long)jget_int(o, "run", 0, 0, 1L << 30);
	t->wall = jget_num(o, "wall_s", NAN);
	for (int i = 0; i < RSET_NTEL - 2; i++)
		t->tel[i] = jget_num(vm, rset_telemetry[i], NAN);
	t->tel[RSET_NTEL - 2] = jget_num(o, "majflt", NAN);
	t->tel[RSET_NTEL - 1] = jget_num(o, "nivcsw", NAN);
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
		struct racc *a = &rs->acc[i];
		free(a->tel);
		a->tel = NULL;
		a->ntel = a->captel = 0;
	}
}

/* Remove one x from d, the last equal to it (NaN matches NaN): a run
 * taken out of its cell keeps the others in file order. */
static void
dremove(struct dvec *d, double x)
{
	for (size_t i = d->n; i-- > 0;)
		if (d->v[i] == x || (isnan(x) && isnan(d->v[i]))) {
			memmove(d->v + i, d->v + i + 1, (d->n - i - 1) * sizeof *d->v);
			d->n--;
			return;
		}
}

/*
 * A kept run's figures, counters and histograms into its cell (sign 1),
 * or taken out of it again (sign -1: a run found to have done no work,
 * read a second time).  Both ways are this one function, so that what
 * goes in is what comes out.
 */
static void
accumulate(struct rset *rs, struct racc *a, const struct rrun *r,
    const struct jnode *o, uint32_t file, int timed, int sign)
{
	if (!r->ok) {
		a->failed++;
		a->last_exit = r->exit_code;
		a->last_signal = r->signal;
		return;
	}
	for (int i = 0; i < FIG_N; i++) {
		int k = fig_pool((enum fig_id)i);
		if (k < 0)
			continue;
		double v = r->fig[k];
		if (sign < 0)
			dremove(&a->fig[k], v);
		else if (figures[i].agg == A_EVERY) {
			/* one value per ok run, NaN or not */
			dgrow(&a->fig[k]);
			a->fig[k].v[a->fig[k].n++] = v;
		} else
			dpush(&a->fig[k], v);
	}
	if (sign < 0)
		dremove(&a->fig[F_LOADS], r->loads);
	else
		dpush(&a->fig[F_LOADS], r->loads);
	const double sv[NSUM] = { r->rate, r->probe_p99, r->met_pct };
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
	for (size_t k = 0; k < r->nc; k++) {
		const struct rcount *rc = &r->c[k];
		size_t j;
		for (j = 0; j < a->nc && a->c[j].name != rc->name; j++)
			;
		if (j == a->nc) {
			a->c = realloc(a->c, (a->nc + 1) * sizeof *a->c);
			if (a->c == NULL)
				fatal(1, "out of memory");
			a->c[a->nc++] = (struct rcsum){ rc->name, rc->unit, rc->label,
			    0, 0, 0, rc->shown };
		}
		a->c[j].mean += sign * rc->val;
		a->c[j].rate += sign * rc->rate;	/* NaN stays NaN: a gauge */
		a->c[j].n += (size_t)(ptrdiff_t)sign;
	}
	lat_merge(&a->lat, &a->lat_inexact, &r->lat, sign);
	lat_merge(&a->probe, &a->probe_inexact, &r->probe, sign);
	a->periods += (unsigned long long)(long long)sign * r->probe_deadlines;
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
		grow(&a->loc, &a->caploc, a->nloc, sizeof *a->loc);
		a->loc[a->nloc].file = file;
		a->loc[a->nloc++].line = (uint32_t)r->line;
	}
	if (!rs->ix->spilled) {
		grow(&a->tel, &a->captel, a->ntel, sizeof *a->tel);
		rtel_of(&a->tel[a->ntel++], o, file, (uint32_t)r->line);
		if ((rs->ix->tel_bytes += sizeof *a->tel) > tel_budget())
			spill_telemetry(rs);
	}
}

/* What the row's table and its environment lines say: its first run's. */
static void
environment(struct rset *rs, struct rrun *r, const struct jnode *o)
{
	r->prepare = intern(rs, jget_str(o, "prepare"));
	r->prepare_inferred = jget(o, "prepare_inferred") &&
	    jget(o, "prepare_inferred")->type == J_BOOL ?
	    (int)jget_int(o, "prepare_inferred", 0, 0, 1) : -1;
	r->kernel = intern(rs, jget_str(o, "kernel"));
	r->cpu_model = intern(rs, jget_str(o, "cpu_model"));
	r->version = intern(rs, jget_str(o, "contest_version"));
	r->sched = intern(rs, jget_str(o, "sched"));
	r->nproc = (long)jget_int(o, "nproc", 0, 0, 1L << 30);
	r->cpus_online = (long)jget_int(o, "cpus_online", r->nproc, 0, 1L << 30);
	r->governor = intern(rs, jget_str(o, "cpufreq_governor"));
	r->clocksource = intern(rs, jget_str(o, "clocksource"));
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
static uint32_t
build_key(struct rset *rs, const struct jnode *o)
{
	const struct jnode *p = jget(o, "provenance");

	return tuple(rs, intern(rs, jget_str(o, "kernel_version")),
	    intern(rs, jget_str(p, "config_sha256")),
	    intern(rs, jget_str(p, "sched_ext")));
}

/*
 * A line's run: its keys, figures, counters and histograms into *r (the
 * caller frees r->c and the histograms' pairs); 0, or -1 when the line
 * is no contest result.  Nothing is counted here: a line read a second
 * time parses to the same run.
 */
static int
parse_run(struct rset *rs, const struct jnode *o, unsigned long lineno,
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
	r->session = intern(rs, jget_str(o, "session"));
	r->job = job_key(rs, o);
	r->build = build ? build : build_key(rs, o);
	r->build_id = intern(rs, jget_str(o, "kernel_build_id"));
	r->label = intern(rs, label);
	r->host = intern(rs, host ? host : "?");
	r->command = intern(rs, jget_str(o, "command") ? jget_str(o, "command") : "?");
	r->block = intern(rs, block);
	r->load = intern(rs, load);
	r->signal = intern(rs, jget_str(o, "signal"));
	const char *head = jget_str(o, "headline");
	r->headline = head && *head ? intern(rs, head) : NULL;
	r->file = file;
	r->line = lineno;
	r->runno = (long)jget_int(o, "run", 0, 0, 1L << 30);
	r->ok = strcmp(status, "ok") == 0;
	r->exit_code = (int)jget_int(o, "exit_code", 0, -255, 65535);
	for (int i = 0; i < FIG_N; i++)
		if (fig_pool((enum fig_id)i) >= 0)
			r->fig[fig_pool((enum fig_id)i)] = jget_num(o, figures[i].key, NAN);
	r->sweep = sweep_key(rs, jget(o, "sweep"));
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
	r->met_pct = r->probe_deadlines ? (double)r->probe_met /
	    (double)r->probe_deadlines * 100 : NAN;
	return 0;
}

static void
free_run(struct rrun *r)
{
	free(r->c);
	free(r->lat.pair);
	free(r->probe.pair);
}

static int
add_line(const struct jnode *o, unsigned long lineno, void *arg)
{
	struct addctx *x = arg;
	struct rset *rs = x->rs;
	const struct rfilter *f = x->f;
	const char *label = jget_str(o, "label"), *load = jget_str(o, "load");
	const char *status = jget_str(o, "status"), *when = jget_str(o, "timestamp");
	const char *block = jget_str(o, "load_spec");
	const char *host = jget_str(o, "host");
	double wall = jget_num(o, "wall_s", NAN);

	if (label == NULL || load == NULL || status == NULL || isnan(wall)) {
		warnmsg("%s:%lu: not a contest result, skipped", x->file, lineno);
		rs->skipped++;
		return 0;
	}
	if (block == NULL)
		block = load;
	int warmup = jget_num(o, "warmup", 0) != 0;
	if (f->nlabels && !label_listed(label, f->labels, f->nlabels))
		return 0;
	if (f->host && (host == NULL || strcmp(host, f->host) != 0))
		return 0;
	if (f->since && (when == NULL || strcmp(when, f->since) < 0))
		return 0;
	size_t timed = SIZE_MAX;
	uint32_t build = 0;
	if (strcmp(status, "ok") == 0 && jget_str(o, "session")) {
		/* the cells the no-work check compares within */
		const char *sweep = sweep_key(rs, jget(o, "sweep"));
		build = build_key(rs, o);
		const void *b = (const void *)(uintptr_t)build;
		grow(&rs->timed, &rs->captimed, rs->ntimed, sizeof *rs->timed);
		timed = rs->ntimed++;
		rs->timed[timed] = (struct rtimed){ intern(rs, jget_str(o, "session")),
		    tuple(rs, intern(rs, block), sweep, b), tuple(rs, NULL, sweep, b),
		    wall, x->fileno, (uint32_t)lineno, UINT32_MAX,
		    (uint32_t)jget_int(o, "run", 0, 0, (1L << 30) - 1), !warmup, 0 };
	}
	if (f->nloads && !listed(block, f->loads, f->nloads) &&
	    !listed(load, f->loads, f->nloads))
		return 0;
	if (warmup) {	/* counted as the table's runs are: past the filters */
		rs->warmups++;
		return 0;
	}

	struct rrun run, *r = &run;
	parse_run(rs, o, lineno, x->file, r, build);
	size_t nrow = rs->nrow;
	r->row = find_row(rs, r);
	r->blk = find_block(rs, r);
	if (r->row == nrow) {	/* a new row: the environment it shows */
		struct rrun *env = xcalloc(1, sizeof *env);
		environment(rs, r, o);
		*env = *r;
		env->c = NULL, env->nc = 0;
		env->lat.pair = env->probe.pair = NULL;
		rs->row[r->row].env = env;
	}
	uint32_t a = acc_for(rs, r->row, r->blk);
	if (timed != SIZE_MAX)
		rs->timed[timed].acc = a;
	accumulate(rs, &rs->acc[a], r, o, x->fileno, timed != SIZE_MAX, 1);
	free_run(r);
	if (f->series && r->ok) {
		series(r, jget(o, "series"));
		if (r->series) {
			r->c = NULL, r->nc = 0;
			r->lat.pair = r->probe.pair = NULL;
			grow(&rs->srun, &rs->capsrun, rs->nsrun, sizeof *rs->srun);
			rs->srun[rs->nsrun++] = *r;
		}
	}
	rs->nrun++;
	return 0;
}

/* A file's number in rs->fname (buf: its text, held in memory). */
static uint32_t
file_id(struct rset *rs, const char *name, const char *buf, size_t len)
{
	for (size_t i = 0; buf == NULL && i < rs->nfname; i++)
		if (rs->fname[i] == name && rs->fmem[i] == NULL)
			return (uint32_t)i;
	rs->fname = realloc(rs->fname, (rs->nfname + 1) * sizeof *rs->fname);
	rs->fmem = realloc(rs->fmem, (rs->nfname + 1) * sizeof *rs->fmem);
	rs->fmemlen = realloc(rs->fmemlen, (rs->nfname + 1) * sizeof *rs->fmemlen);
	rs->fid = realloc(rs->fid, (rs->nfname + 1) * sizeof *rs->fid);
	if (rs->fname == NULL || rs->fmem == NULL || rs->fmemlen == NULL || rs->fid == NULL)
		fatal(1, "out of memory");
	memset(&rs->fid[rs->nfname], 0, sizeof *rs->fid);
	rs->fname[rs->nfname] = name;
	rs->fmem[rs->nfname] = buf;
	rs->fmemlen[rs->nfname] = len;
	return (uint32_t)rs->nfname++;
}

/*
 * File number i opened again for a second look at lines by number: only
 * while it is the file first read (device, inode, size), never a pipe.
 * NULL if it cannot be, said once a file, with what is left out.
 */
static FILE *
reopen(const struct rset *rs, uint32_t i, const char *lost)
{
	struct rfid *id = &rs->fid[i];
	const char *why = NULL;
	struct stat st;
	char buf[128];

	if (rs->fmem[i])
		return rs->fmemlen[i] ? fmemopen((void *)rs->fmem[i], rs->fmemlen[i],
		    "r") : NULL;
	/* never blocking: a FIFO named again must not hang the report */
	int fd = id->regular ? open(rs->fname[i], O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
	if (!id->regular)
		why = "not a regular file: what it gives a second time is other lines";
	else if (fd < 0)
		why = strerror(errno);
	else if (fstat(fd, &st) < 0 || st.st_dev != id->dev || st.st_ino != id->ino)
		why = "replaced since it was read";
	else if (st.st_size != id->size) {
		snprintf(buf, sizeof buf, "%s since it was read (%lld bytes, now %lld)",
		    st.st_size > id->size ? "appended to" : "cut",
		    (long long)id->size, (long long)st.st_size);
		why = buf;
	}
	FILE *f = why == NULL && fcntl(fd, F_SETFL, 0) == 0 ? fdopen(fd, "re") : NULL;
	if (f)
		return f;
	if (fd >= 0)
		close(fd);
	if (!id->warned)
		warnmsg("%s: %s; %s", rs->fname[i], why ? why : strerror(errno), lost);
	id->warned = 1;
	return NULL;
}

static void
keep_filter(struct rset *rs, const struct rfilter *f)
{
	if (rs->pool == NULL)
		rs->pool = xcalloc(1, sizeof *rs->pool);
	rs->keep_suspect |= f->keep_suspect;
}

/* A line that is no JSON object: said, and passed over. */
static void
bad_line(const char *path, unsigned long lineno, const char *why, void *arg)
{
	(void)arg;
	warnmsg("%s:%lu: %s, skipped", path, lineno, why);
}

int
rset_add_mem(struct rset *rs, const char *name, const char *buf, size_t len,
    const struct rfilter *f)
{
	struct addctx x = { rs, f, NULL, 0 };
	unsigned long skipped;
	FILE *in;

	keep_filter(rs, f);
	x.file = intern(rs, name);
	x.fileno = file_id(rs, x.file, buf, len);
	if (len == 0)
		return 0;
	if ((in = fmemopen((void *)buf, len, "r")) == NULL ||
	    jsonl_read_stream_keys(in, name, keys_for(f), add_line, bad_line, &x,
	    &skipped) < 0) {
		warnmsg("%s: %s", name, strerror(errno));
		if (in)
			fclose(in);
		return -1;
	}
	fclose(in);
	rs->skipped += skipped;
	rs->files++;
	return 0;
}

static int
add_file(struct rset *rs, const char *path, const struct rfilter *f)
{
	struct addctx x = { rs, f, intern(rs, path), 0 };
	unsigned long skipped;
	struct stat st;

	x.fileno = file_id(rs, x.file, NULL, 0);
	FILE *in = fopen(path, "re");
	if (in == NULL || jsonl_read_stream_keys(in, path, keys_for(f), add_line,
	    bad_line, &x, &skipped) < 0) {
		warnmsg("%s: %s", path, strerror(errno));
		if (in)
			fclose(in);
		return -1;
	}
	/* what was read, to know it again (read to its end by now) */
	struct rfid *id = &rs->fid[x.fileno];
	if (fstat(fileno(in), &st) == 0 && S_ISREG(st.st_mode)) {
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		id->size = st.st_size;
		id->regular = 1;
	}
	fclose(in);
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

	keep_filter(rs, f);
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

/* Whether rows[0..i) of label w's sweep value hold one like row i by f. */
static int
seen_before(const struct rset *rs, size_t i, int (*same)(const struct rrow *,
    const struct rrow *), int host_too)
{
	const struct rrow *w = &rs->row[i];

	for (size_t j = 0; j < i; j++) {
		const struct rrow *o = &rs->row[j];
		if (o->label == w->label && o->sweep == w->sweep &&
		    (!host_too || o->host == w->host) && same(o, w))
			return 1;
	}
	return 0;
}

static int
same_host(const struct rrow *a, const struct rrow *b)
{
	return a->host == b->host;
}

static int
same_job(const struct rrow *a, const struct rrow *b)
{
	return a->command == b->command && a->job == b->job;
}

static int
same_build(const struct rrow *a, const struct rrow *b)
{
	return a->build == b->build && a->build_id == b->build_id;
}

/*
 * Names: the label, then "@host" where one label was measured on
 * several hosts, and "#n" where one host ran it with several commands or
 * jobs, or on several kernel builds (a patched kernel rebuilt with the
 * same release, or another sched_ext scheduler): never one average.
 */
static void
name_rows(struct rset *rs)
{
	for (size_t i = 0; i < rs->nrow; i++) {
		struct rrow *w = &rs->row[i];
		size_t hosts = 0, rows = 0, rowno = 0, jobs = 0, builds = 0;
		int first = 1;
		for (size_t j = 0; j < rs->nrow; j++) {
			const struct rrow *o = &rs->row[j];
			/* one sweep's values are one command's rows, not several */
			if (o->label != w->label || o->sweep != w->sweep)
				continue;
			first &= j >= i;
			hosts += !seen_before(rs, j, same_host, 0);
			if (o->host != w->host)
				continue;
			rows++;
			rowno += j <= i;
			jobs += !seen_before(rs, j, same_job, 1);
			builds += !seen_before(rs, j, same_build, 1);
		}
		if (first && hosts > 1)
			warnmsg("warning: label '%s' was measured on %zu hosts; its rows "
			    "are named LABEL@HOST", w->label, hosts);
		if (first && jobs > 1)
			warnmsg("warning: label '%s' was measured with %zu different "
			    "commands or jobs (command, job_sha256, job_identity); its "
			    "rows are named LABEL#N", w->label, jobs);
		if (first && builds > 1)
			warnmsg("warning: label '%s' was measured on %zu different kernel "
			    "builds or schedulers (kernel_build_id, else kernel_version "
			    "and the config's hash; sched_ext); its rows are named "
			    "LABEL#N", w->label, builds);
		size_t len = strlen(w->label) + strlen(w->host) +
		    (w->sweep ? strlen(w->sweep) : 0) + 34;
		w->name = xcalloc(len, 1);
		snprintf(w->name, len, "%s%s%s", w->label, hosts > 1 ? "@" : "",
		    hosts > 1 ? w->host : "");
		if (rows > 1)
			snprintf(w->name + strlen(w->name), 32, "#%zu", rowno);
		if (w->sweep)
			snprintf(w->name + strlen(w->name), strlen(w->sweep) + 2, " %s",
			    w->sweep);
	}
}

/* A cell from what its runs left in the accumulator (NULL: no runs). */
static void
summarise_cell(struct racc *a, struct rcell *c)
{
	struct stats *to[NFIG];
	struct stats *sto[NSUM] = { &c->rate, &c->p99, &c->met };

	double none = 0;

	for (int k = 0; k < FIG_NPOOL; k++)
		to[k] = &c->fig[k];
	to[F_LOADS] = &c->loads;

	c->met_pct = c->bamean = c->skipped = NAN;
	if (a == NULL) {
		c->wall = xcalloc(1, sizeof *c->wall);
		for (int k = 0; k < NFIG; k++)
			stats_compute(&none, 0, to[k]);
		for (int k = 0; k < NSUM; k++)
			stats_compute(&none, 0, sto[k]);
		return;
	}
	int wall = fig_pool(FIG_WALL);
	c->ok = a->fig[wall].n;
	c->failed = a->failed;
	c->last_exit = a->last_exit;
	c->last_signal = a->last_signal;
	c->headline = a->headline;
	for (int k = 0; k < NFIG; k++)
		stats_compute(a->fig[k].v ? a->fig[k].v : &none, a->fig[k].n, to[k]);
	for (int k = 0; k < NSUM; k++) {
		*sto[k] = a->sum[k];
		stats_finish(sto[k], a->m2[k]);
	}
	/* the times stay, in file order: formats print them */
	c->wall = a->fig[wall].v ? a->fig[wall].v : xcalloc(1, sizeof *c->wall);
	a->fig[wall].v = NULL;
	c->c = a->c;
	c->nc = 0;
	a->c = NULL;
	c->scx_changed = a->scx_changed;
	for (size_t j = 0; j < a->nc; j++) {
		if (c->c[j].n == 0)
			continue;	/* only runs taken out again had it */
		c->c[c->nc] = c->c[j];
		c->c[c->nc].mean /= (double)c->c[j].n;
		c->c[c->nc++].rate /= (double)c->c[j].n;
	}
	c->lat = a->lat;
	c->probe = a->probe;
	a->lat.count = a->probe.count = NULL;
	if (a->lat_inexact || c->lat.h.max == 0)
		c->lat.h.min = c->lat.h.max = 0;
	if (a->probe_inexact || c->probe.h.max == 0)
		c->probe.h.min = c->probe.h.max = 0;
	c->met_pct = a->periods ? (double)a->met / (double)a->periods * 100 : NAN;
	c->skipped = a->nskipped ? (double)a->skipped / (double)a->nskipped : NAN;
	/* BAmean-50 as mmtests computes it: the mean of the int(n x 50 / 100)
	 * fastest runs, at least one (at n = 3, the fastest alone) */
	if (c->ok) {
		double *v = xcalloc(c->ok, sizeof *v);
		size_t half = c->ok * 50 / 100 ? c->ok * 50 / 100 : 1;
		memcpy(v, c->wall, c->ok * sizeof *v);
		stats_sort(v, c->ok);
		c->bamean = 0;
		for (size_t i = 0; i < half; i++)
			c->bamean += v[i] / (double)half;
		free(v);
	}
	for (int k = 0; k < NFIG; k++) {
		free(a->fig[k].v);
		a->fig[k].v = NULL;
	}
}

/* Structures that begin with a struct place, in the order read. */
static int
place_order(const void *pa, const void *pb)
{
	const struct place *a = pa, *b = pb;

	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	return (a->line > b->line) - (a->line < b->line);
}

/* A run to read again, and the cell it goes to. */
struct want {
	struct place	 at;
	uint32_t	 acc;
};

struct reread {
	const struct rset *rs;
	const struct want *w;	/* this file's, in line order */
	size_t		 n, k;
};

/*
 * The lines w[0..nw) name, read a second time (a file in one pass, its
 * lines in order) and handed to fn with a struct reread.  A file changed
 * since cannot say more: what it no longer holds is passed over.
 */
static void
read_again(const struct rset *rs, struct want *w, size_t nw,
    const struct jkeys *keys, jsonl_fn fn, const char *lost)
{
	if (nw > 1)
		qsort(w, nw, sizeof *w, place_order);
	unsigned long *lines = xcalloc(nw + 1, sizeof *lines);
	for (size_t i = 0, j; i < nw; i = j) {
		size_t n = 0;
		for (j = i; j < nw && w[j].at.file == w[i].at.file; j++)
			if (n == 0 || lines[n - 1] != w[j].at.line)
				lines[n++] = w[j].at.line;
		struct reread x = { rs, w + i, j - i, 0 };
		FILE *in = reopen(rs, w[i].at.file, lost);
		if (in == NULL)
			continue;
		(void)jsonl_read_only_stream(in, keys, lines, n, fn, &x);
		fclose(in);
	}
	free(lines);
}

static int
reread_line(const struct jnode *o, unsigned long lineno, void *arg)
{
	struct reread *x = arg;

	while (x->k < x->n && x->w[x->k].at.line < lineno)
		x->k++;
	for (; x->k < x->n && x->w[x->k].at.line == lineno; x->k++) {
		struct racc *a = &x->rs->acc[x->w[x->k].acc];
		grow(&a->tel, &a->captel, a->ntel, sizeof *a->tel);
		rtel_of(&a->tel[a->ntel++], o, x->w[x->k].at.file, (uint32_t)lineno);
	}
	return 0;
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
		double ta = ca->ok ? rcell_fig(ca, FIG_WALL)->mean : INFINITY;
		double tb = cb->ok ? rcell_fig(cb, FIG_WALL)->mean : INFINITY;
		c = (ta > tb) - (ta < tb);
	}
	return c ? c : (a > b) - (a < b);
}

static const struct rset *timed_rs;

static int
timed_order(const void *pa, const void *pb)
{
	const struct rtimed *a = pa, *b = pb;
	/* interned: one session is one pointer, and most pairs share it */
	int c = a->session == b->session ? 0 : strcmp(a->session, b->session);

	if (c == 0 && a->file != b->file)
		c = strcmp(timed_rs->fname[a->file], timed_rs->fname[b->file]);
	return c ? c : (a->line > b->line) - (a->line < b->line);
}

/* A flagged run on its way to its cell's note, in the order read. */
struct flagged {
	uint32_t	 acc, file, line;
	struct suspect	 s;
};

static int
flagged_order(const void *pa, const void *pb)
{
	const struct flagged *a = pa, *b = pb;

	if (a->acc != b->acc)
		return a->acc < b->acc ? -1 : 1;
	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	return (a->line > b->line) - (a->line < b->line);
}

/* A suspect run read a second time: out of its cell again. */
static int
unread_line(const struct jnode *o, unsigned long lineno, void *arg)
{
	struct reread *x = arg;
	struct rset *rs = (struct rset *)x->rs;

	while (x->k < x->n && x->w[x->k].at.line < lineno)
		x->k++;
	for (; x->k < x->n && x->w[x->k].at.line == lineno; x->k++) {
		struct racc *a = &rs->acc[x->w[x->k].acc];
		struct rrun r;
		if (parse_run(rs, o, lineno, rs->fname[x->w[x->k].at.file], &r, 0) == 0)
			accumulate(rs, a, &r, o, x->w[x->k].at.file, 1, -1);
		free_run(&r);
	}
	return 0;
}

/*
 * Each session's runs in the order they ran, through suspect_mark().
 * The flagged ones go to their cells' notes (sus[acc], nsus[acc]) and,
 * unless asked to keep them, out of their cells: read a second time and
 * taken out of every figure, as failed runs never went in.
 */
static void
mark_suspects(struct rset *rs, struct suspect **sus, size_t *nsus)
{
	struct srun *sr = xcalloc(rs->ntimed + 1, sizeof *sr);
	struct sflag *sf = xcalloc(rs->ntimed + 1, sizeof *sf);
	struct flagged *fl = NULL;
	struct want *w = NULL;
	size_t nfl = 0, capfl = 0, nw = 0, capw = 0;
	static const struct rfilter all;

	timed_rs = rs;
	if (rs->ntimed > 1)	/* qsort may not be handed NULL, even for none */
		qsort(rs->timed, rs->ntimed, sizeof *rs->timed, timed_order);
	for (size_t i = 0, j; i < rs->ntimed; i = j) {
		for (j = i; j < rs->ntimed && rs->timed[j].session == rs->timed[i].session; j++)
			sr[j - i] = (struct srun){ rs->timed[j].cell, rs->timed[j].sweep,
			    rs->timed[j].wall, rs->timed[j].measured };
		suspect_mark(sr, j - i, sf);
		for (size_t k = i; k < j; k++) {
			struct rtimed *t = &rs->timed[k];
			if (t->acc == UINT32_MAX || !sf[k - i].why)
				continue;
			grow(&fl, &capfl, nfl, sizeof *fl);
			fl[nfl++] = (struct flagged){ t->acc, t->file, t->line,
			    { (long)t->runno, t->wall, sf[k - i] } };
			if (rs->keep_suspect)
				continue;
			t->out = 1;
			grow(&w, &capw, nw, sizeof *w);
			w[nw++] = (struct want){ { t->file, t->line }, t->acc };
		}
	}
	read_again(rs, w, nw, keys_for(&all), unread_line,
	    "its runs that may have done no work stay in the means (as with --keep-suspect)");
	free(w);
	if (nfl > 1)
		qsort(fl, nfl, sizeof *fl, flagged_order);
	for (size_t i = 0; i < nfl; i++) {
		uint32_t a = fl[i].acc;
		sus[a] = realloc(sus[a], (nsus[a] + 1) * sizeof *sus[a]);
		if (sus[a] == NULL)
			fatal(1, "out of memory");
		sus[a][nsus[a]++] = fl[i].s;
	}
	free(fl);
	free(sr);
	free(sf);
}

void
rset_summarise(struct rset *rs, enum rsort how)
{
	rs->base = rs->nblk;
	for (size_t b = 0; b < rs->nblk; b++)
		if (strcmp(rs->blk[b].name, "no_load") == 0)
			rs->base = b;
	/* no_load's block comes first, as in the run's table */
	if (rs->base < rs->nblk && rs->base > 0) {
		struct rblock t = rs->blk[rs->base];
		memmove(rs->blk + 1, rs->blk, rs->base * sizeof *rs->blk);
		rs->blk[0] = t;
		for (size_t i = 0; i < rs->nacc; i++)
			if (rs->acc[i].blk == rs->base)
				rs->acc[i].blk = 0;
			else if (rs->acc[i].blk < rs->base)
				rs->acc[i].blk++;
		for (size_t i = 0; i < rs->nsrun; i++)
			if (rs->srun[i].blk == rs->base)
				rs->srun[i].blk = 0;
			else if (rs->srun[i].blk < rs->base)
				rs->srun[i].blk++;
		rs->base = 0;
	}
	name_rows(rs);
	struct suspect **sus = xcalloc(rs->nacc + 1, sizeof *sus);
	size_t *nsus = xcalloc(rs->nacc + 1, sizeof *nsus);
	mark_suspects(rs, sus, nsus);
	rs->cell = xcalloc(rs->nrow * rs->nblk + 1, sizeof *rs->cell);
	for (size_t i = 0; i < rs->nacc; i++) {
		struct rcell *c = rset_cell(rs, rs->acc[i].row, rs->acc[i].blk);
		summarise_cell(&rs->acc[i], c);
		c->suspect = sus[i];
		c->nsuspect = nsus[i];
	}
	free(sus);
	free(nsus);
	for (size_t k = 0; k < rs->nrow * rs->nblk; k++)
		if (rs->cell[k].wall == NULL)
			summarise_cell(NULL, &rs->cell[k]);
	for (size_t k = 0; k < rs->nrow * rs->nblk; k++) {
		struct rcell *c = &rs->cell[k];
		/* suspect runs left out are named under the table; kept in,
		 * they make the figures doubtful */
		c->noisy = c->ok > 0 && (c->ok < RSET_MIN_RUNS ||
		    rcell_fig(c, FIG_WALL)->cv > RSET_NOISY_CV || (c->nsuspect > 0 && rs->keep_suspect) ||
		    c->scx_changed > 0);
	}
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
			c->ratio = stats_ratio(rcell_fig(c, FIG_WALL), rcell_fig(base, FIG_WALL), &c->ratio_sd);
			c->ratio_se = stats_ratio_se(rcell_fig(c, FIG_WALL), rcell_fig(base, FIG_WALL), &c->ratio_df);
			c->ratio_ci95 = stats_ratio_ci95(rcell_fig(c, FIG_WALL), rcell_fig(base, FIG_WALL));
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

/* The median of sorted s[0..n) with one x among them left out. */
static double
median_without(const double *s, size_t n, double x)
{
	size_t lo = 0, hi = n;	/* the first element not below x */

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return stats_median_without(s, n, lo);
}

/* Whether a cell may have runs that stand out: rset_outliers' test. */
static int
outlier_cell(const struct rset *rs, const struct racc *a)
{
	const struct rcell *c = rset_cell(rs, a->row, a->blk);

	return c->ok >= RSET_MIN_RUNS && rcell_fig(c, FIG_WALL)->cv > RSET_NOISY_CV;
}

/*
 * The telemetry of every such cell's ok runs, read again from their
 * files in one pass over each, then put in file order.
 */
static void
read_telemetry(const struct rset *rs)
{
	struct want *w = NULL;
	size_t nw = 0, capw = 0;

	for (size_t i = 0; i < rs->nacc; i++)
		rs->acc[i].tel_read = 1;
	for (size_t i = 0; i < rs->ntimed; i++) {
		const struct rtimed *t = &rs->timed[i];
		if (t->acc == UINT32_MAX || t->out || !outlier_cell(rs, &rs->acc[t->acc]))
			continue;
		grow(&w, &capw, nw, sizeof *w);
		w[nw++] = (struct want){ { t->file, t->line }, t->acc };
	}
	for (size_t i = 0; i < rs->nacc; i++)
		for (size_t k = 0; k < rs->acc[i].nloc && outlier_cell(rs, &rs->acc[i]); k++) {
			grow(&w, &capw, nw, sizeof *w);
			w[nw++] = (struct want){ rs->acc[i].loc[k], (uint32_t)i };
		}
	read_again(rs, w, nw, &tel_keys, reread_line,
	    "the notes on its runs that stand out are left out");
	free(w);
	for (size_t i = 0; i < rs->nacc; i++)
		if (rs->acc[i].ntel > 1)
			qsort(rs->acc[i].tel, rs->acc[i].ntel, sizeof *rs->acc[i].tel,
			    place_order);
}

size_t
rset_outliers(const struct rset *rs, size_t row, size_t blk,
    struct routlier *out, size_t max)
{
	const struct rcell *c = rset_cell(rs, row, blk);
	struct racc *a = NULL;
	size_t nout = 0;

	if (c->ok < RSET_MIN_RUNS || rcell_fig(c, FIG_WALL)->cv <= RSET_NOISY_CV)
		return 0;
	for (size_t i = 0; i < rs->nacc && a == NULL; i++)
		if (rs->acc[i].row == row && rs->acc[i].blk == blk)
			a = &rs->acc[i];
	if (a == NULL)
		return 0;
	if (!a->tel_read && rs->ix->spilled)
		read_telemetry(rs);
	const struct rtel *runs = a->tel;
	size_t n = a->ntel;
	double med = rcell_fig(c, FIG_WALL)->median;
	/* each figure's values sorted once: the others' median of a run is
	 * read off them with its own value left out */
	double *sorted[RSET_NTEL];
	size_t m[RSET_NTEL];
	for (int t = 0; t < RSET_NTEL; t++) {
		sorted[t] = xcalloc(n + 1, sizeof *sorted[t]);
		m[t] = 0;
		for (size_t k = 0; k < n; k++)
			if (!isnan(runs[k].tel[t]))
				sorted[t][m[t]++] = runs[k].tel[t];
		stats_sort(sorted[t], m[t]);
	}
	for (size_t i = 0; i < n && nout < max; i++) {
		if (fabs(runs[i].wall - med) <= RSET_NOISY_CV * med)
			continue;
		struct routlier *o = &out[nout++];
		memset(o, 0, sizeof *o);
		o->runno = runs[i].runno;
		o->wall = runs[i].wall;
		memcpy(o->value, runs[i].tel, sizeof o->value);
		o->median = med;
		double best[2] = { 0, 0 };
		for (int t = 0; t < RSET_NTEL; t++) {
			if (isnan(runs[i].tel[t]) || m[t] < 2)
				continue;
			double mine = runs[i].tel[t];
			double others = median_without(sorted[t], m[t], mine);
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
	for (int t = 0; t < RSET_NTEL; t++)
		free(sorted[t]);
	return nout;
}

const struct rrun *
rset_median_series(const struct rset *rs, size_t row, size_t blk)
{
	const struct rrun **v = NULL;
	size_t n = 0;

	for (size_t i = 0; i < rs->nsrun; i++) {
		const struct rrun *r = &rs->srun[i];
		if (r->row != row || r->blk != blk || !r->ok || r->series == NULL)
			continue;
		v = realloc(v, (n + 1) * sizeof *v);
		if (v == NULL)
			fatal(1, "out of memory");
		v[n++] = r;
	}
	/* insertion sort by Time: a cell holds few runs */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && rrun_fig(v[j], FIG_WALL) <
		    rrun_fig(v[j - 1], FIG_WALL); j--) {
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
	for (size_t i = 0; i < rs->nsrun; i++) {
		if (rs->srun[i].series)
			free(rs->srun[i].series->t);
		free(rs->srun[i].series);
	}
	for (size_t i = 0; i < rs->nacc; i++) {
		struct racc *a = &rs->acc[i];
		for (int k = 0; k < NFIG; k++)
			free(a->fig[k].v);
		free(a->c);
		free(a->lat.count);
		free(a->probe.count);
		free(a->loc);
		free(a->tel);
	}
	if (rs->cell)
		for (size_t i = 0; i < rs->nrow * rs->nblk; i++) {
			free(rs->cell[i].lat.count);
			free(rs->cell[i].probe.count);
			free(rs->cell[i].wall);
			free(rs->cell[i].c);
			free(rs->cell[i].suspect);
		}
	for (size_t i = 0; i < rs->nrow; i++) {
		free(rs->row[i].name);
		free((void *)rs->row[i].env);
	}
	if (rs->pool) {
		for (size_t i = 0; i < rs->pool->cap; i++)
			free(rs->pool->slot[i]);
		free(rs->pool->slot);
		free(rs->pool);
	}
	if (rs->tup) {
		free(rs->tup->key);
		free(rs->tup->id);
		free(rs->tup);
	}
	if (rs->ix) {
		for (size_t i = 0; i < rs->nrow; i++)
			free(rs->ix->cells[i].acc);
		free(rs->ix->cells);
		free(rs->ix->slot);
		free(rs->ix);
	}
	free(rs->acc);
	free(rs->srun);
	free(rs->fname);
	free(rs->fmem);
	free(rs->fmemlen);
	free(rs->fid);
	free(rs->row);
	free(rs->blk);
	free(rs->cell);
	free(rs->order);
	memset(rs, 0, sizeof *rs);
}
