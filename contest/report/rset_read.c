/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading results into a struct rset: files and directories, each line
 * checked against the filter, found its row (label, host, command, job,
 * sweep values, kernel build) and block (load spec), decoded
 * (rset_decode.c) and added to its cell (rset_accum.c); and freeing it.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rset_impl.h"
#include "util.h"

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

/* A label filter names the label, or one row of it (LABEL@HOST, LABEL#N;
 * a variant's runs are labelled LABEL/NAME). */
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

/* A run belongs to the row of its keys and its own build ID: a run that
 * says none (results from before build IDs) never joins runs that say
 * one, which may be another build of the same uname -v. */
static int
row_is(const struct rrow *w, const struct rrun *r)
{
	return w->label == r->label && w->host == r->host &&
	    w->command == r->command && w->job == r->job && w->sweep == r->sweep &&
	    w->build == r->build && w->build_id == r->build_id;
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
		if (row_is(&rs->row[ix->slot[j] - 1], r))
			return ix->slot[j] - 1;
	size_t i = rs->nrow;
	xgrow(&rs->row, &rs->caprow, i + 1, sizeof *rs->row, 8);
	xgrow(&ix->cells, &ix->capcells, i + 1, sizeof *ix->cells, 8);
	rs->row[i] = (struct rrow){ r->label, r->host, r->command, r->job, r->sweep,
	    r->build, r->build_id, NULL, NULL, NULL, 0 };
	ix->cells[i].acc = NULL;
	ix->cells[i].n = ix->cells[i].cap = 0;
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
	xgrow(&rs->blk, &rs->capblk, i + 1, sizeof *rs->blk, 8);
	rs->blk[i] = (struct rblock){ r->block, r->load };
	rs->nblk++;
	return i;
}

/*
 * Every run of a session is timed here, whatever the filters: which runs
 * may have done no work (of the ok ones), and which were read twice, is
 * judged on the session's own lines, the same however a report views them.  Its place in rs->timed, or SIZE_MAX;
 * *build: its kernel build's key.
 */
static size_t
time_run(struct addctx *x, const struct jnode *o, unsigned long lineno,
    const struct rrun *r, int warmup, uint32_t *build)
{
	struct rset *rs = x->rs;

	if (r->session == NULL)
		return SIZE_MAX;
	*build = rs_build_key(rs, o);
	/* the cells the no-work check compares within; a variant's runs are
	 * held only against its own, and a hand-made file's session id that
	 * two hosts, labels or commands share does not make their runs one */
	static const char who_tag;
	const void *who = (const void *)(uintptr_t)rs_tuple(rs, &who_tag,
	    (const void *)(uintptr_t)rs_tuple(rs, r->host, r->label,
	    rs_intern(rs, LSTR(o, RK_COMMAND))), NULL);
	const void *b = (const void *)(uintptr_t)rs_tuple(rs, r->variant,
	    (const void *)(uintptr_t)*build, who);
	xgrow(&rs->timed, &rs->captimed, rs->ntimed + 1, sizeof *rs->timed, 8);
	rs->timed[rs->ntimed] = (struct timed_run){ r->session,
	    rs_tuple(rs, r->block, r->sweep, b), rs_tuple(rs, NULL, r->sweep, b),
	    rrun_fig(r, FIG_WALL), x->fileno, (uint32_t)lineno, UINT32_MAX,
	    (uint32_t)(r->runno < (1L << 28) ? r->runno : 0), !warmup, !r->ok, 0, 0 };
	(void)rs_dedup_run(rs, rs->ntimed);
	return rs->ntimed++;
}

/* A boot a row's run ran in, counted once. */
static void
row_boot(struct rrow *row, const char *boot)
{
	if (boot == NULL)
		return;
	for (size_t i = 0; i < row->nboots && i < RSET_BOOTS; i++)
		if (row->boots[i] == boot)
			return;
	if (row->boots == NULL)
		row->boots = xcalloc(RSET_BOOTS, sizeof *row->boots);
	if (row->nboots < RSET_BOOTS)
		row->boots[row->nboots] = boot;
	row->nboots++;
}

/* Whether the filters leave a line out (its identity in r). */
static int
filtered(const struct rfilter *f, const struct jnode *o, const struct rrun *r)
{
	const char *host = LSTR(o, RK_HOST), *when = LSTR(o, RK_TIMESTAMP);

	/* a label names its variants' rows too (LABEL/NAME) */
	if (f->nlabels && !label_listed(r->label, f->labels, f->nlabels) &&
	    !(r->variant && label_listed(LSTR(o, RK_LABEL), f->labels, f->nlabels)))
		return 1;
	if (f->host && (host == NULL || strcmp(host, f->host) != 0))
		return 1;
	if (f->since && (when == NULL || strcmp(when, f->since) < 0))
		return 1;
	return f->nloads && !listed(r->block, f->loads, f->nloads) &&
	    !listed(r->load, f->loads, f->nloads);
}

static int
add_line(const struct jnode *o, unsigned long lineno, void *arg)
{
	struct addctx *x = arg;
	struct rset *rs = x->rs;
	const struct rfilter *f = x->f;
	struct rrun run, *r = &run;

	if (rs_parse_id(rs, o, r) < 0) {
		warnmsg("%s:%lu: not a contest result, skipped", x->file, lineno);
		rs->skipped++;
		return 0;
	}
	rs_label_seen(rs, r->label);	/* for a label asked for and not there */
	int warmup = LNUM(o, RK_WARMUP, 0) != 0;
	uint32_t build = 0;
	size_t timed = time_run(x, o, lineno, r, warmup, &build);
	if (filtered(f, o, r))
		return 0;
	if (warmup) {	/* counted as the table's runs are: past the filters */
		rs->warmups++;
		return 0;
	}
	if (timed != SIZE_MAX && rs->timed[timed].dup)
		return 0;	/* a copy of a run read before: counted once */

	rs_parse_rest(rs, o, lineno, x->file, r, build);
	size_t nrow = rs->nrow;
	r->row = find_row(rs, r);
	r->blk = find_block(rs, r);
	row_boot(&rs->row[r->row], r->boot);
	if (r->row == nrow) {	/* a new row: the environment it shows */
		struct rrun *env = xcalloc(1, sizeof *env);
		rs_environment(rs, r, o);
		*env = *r;
		env->c = NULL, env->nc = 0;
		env->pcpu = NULL, env->npcpu = 0;
		env->lat.pair = env->probe.pair = NULL;
		r->config = NULL, r->nconfig = 0;	/* the env's now */
		rs->row[r->row].env = env;
	}
	uint32_t a = rs_acc_for(rs, r->row, r->blk);
	if (timed != SIZE_MAX)
		rs->timed[timed].acc = a;
	rs_accumulate(rs, &rs->acc[a], r, o, x->fileno, timed != SIZE_MAX, 1);
	rs_free_run(r);
	if (f->series && r->ok) {
		rs_series(r, LGET(o, RK_FIG(SERIES)));
		if (r->series) {
			r->c = NULL, r->nc = 0;
			r->pcpu = NULL, r->npcpu = 0;
			r->lat.pair = r->probe.pair = NULL;
			xgrow(&rs->srun, &rs->capsrun, rs->nsrun + 1, sizeof *rs->srun, 8);
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
	void *const all[] = { &rs->fname, &rs->fmem, &rs->fmemlen, &rs->fid };
	const size_t sz[] = { sizeof *rs->fname, sizeof *rs->fmem,
	    sizeof *rs->fmemlen, sizeof *rs->fid };
	xgrow_each(&rs->capfname, rs->nfname + 1, 8, 4, all, sz);
	memset(&rs->fid[rs->nfname], 0, sizeof *rs->fid);
	rs->fname[rs->nfname] = name;
	rs->fmem[rs->nfname] = buf;
	rs->fmemlen[rs->nfname] = len;
	return (uint32_t)rs->nfname++;
}

static void
keep_filter(struct rset *rs, const struct rfilter *f)
{
	rs->keep_suspect |= f->keep_suspect;
	rs->pairs |= f->pairs;
	rs->per_host |= f->per_host;
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
	rs_dedup_file(rs);
	x.file = rs_intern(rs, name);
	x.fileno = file_id(rs, x.file, buf, len);
	if (len == 0)
		return 0;
	if ((in = fmemopen((void *)buf, len, "r")) == NULL ||
	    jsonl_read_stream_marks(in, name, rs_keys_for(f), add_line, bad_line, &x,
	    &skipped, &rs->fid[x.fileno].marks) < 0) {
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
	struct addctx x = { rs, f, rs_intern(rs, path), 0 };
	unsigned long skipped;
	struct stat st;

	rs_dedup_file(rs);
	x.fileno = file_id(rs, x.file, NULL, 0);
	FILE *in = fopen(path, "re");
	if (in == NULL || jsonl_read_stream_marks(in, path, rs_keys_for(f), add_line,
	    bad_line, &x, &skipped, &rs->fid[x.fileno].marks) < 0) {
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
	size_t n = 0, cap = 0;
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
		xgrow(&names, &cap, n + 1, sizeof *names, 8);
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
		struct cell_acc *a = &rs->acc[i];
		for (int k = 0; k < NFIG; k++)
			free(a->fig[k].v);
		free(a->c);
		free(a->lat.count);
		free(a->probe.count);
		free(a->loc);
		free(a->tel);
		for (size_t k = 0; a->pair && k < a->npair; k++)
			free(a->pair[k].jm);
		free(a->pair);
		free(a->boot);
		free(a->jm);
		free(a->jm2);
		free(a->pcpu);
	}
	if (rs->cell)
		for (size_t i = 0; i < rs->nrow * rs->nblk; i++) {
			free(rs->cell[i].lat.count);
			free(rs->cell[i].probe.count);
			free(rs->cell[i].wall);
			free(rs->cell[i].c);
			free(rs->cell[i].suspect);
			for (size_t k = 0; k < rs->cell[i].npair; k++)
				free(rs->cell[i].pair[k].jm);
			free(rs->cell[i].pair);
			free(rs->cell[i].boot);
			free(rs->cell[i].jm);
			free(rs->cell[i].pcpu);
		}
	for (size_t i = 0; i < rs->nrow; i++) {
		free(rs->row[i].name);
		free(rs->row[i].boots);
		if (rs->row[i].env)
			free(rs->row[i].env->config);
		free((void *)rs->row[i].env);
	}
	rs_intern_free(rs);
	rs_dedup_free(rs);
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
	for (size_t i = 0; i < rs->nfname; i++)
		free(rs->fid[i].marks.off);
	free(rs->fid);
	free(rs->row);
	free(rs->blk);
	free(rs->cell);
	free(rs->order);
	free(rs->warm);
	free(rs->figs);
	memset(rs, 0, sizeof *rs);
}
