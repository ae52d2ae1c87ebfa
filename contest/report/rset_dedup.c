/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A run read twice, found as its second copy is read: a file given
 * twice, or copied within the results directory, is every one of its runs
 * again.  mark_suspects() finds copies after the reading and takes each
 * out of its cell by reading its line a third time and removing its
 * values from the middle of the cell's, which made a 100,000-line file
 * read twice cost 4.5 times one reading.  A copy that would be the one
 * taken out (it sorts after its first in timed_order) is instead never
 * added: marked dup here, it is counted and named as before.  The table
 * is built once a second file is read, so a single file's report pays
 * nothing; then 8 to 16 bytes a run (at most 16 MB at a million).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "rset_impl.h"
#include "util.h"

struct rdedup {
	uint32_t	*slot;		/* rs->timed index + 1; 0: empty */
	size_t		 n, cap;
};

/* What makes a run one run (same_run_order's key). */
static uint64_t
key_hash(const struct timed_run *t)
{
	uint64_t h = (uint64_t)(uintptr_t)t->session * 0x9e3779b97f4a7c15ull;

	h = (h ^ t->cell) * 0xff51afd7ed558ccdull;
	h = (h ^ ((uint64_t)t->runno << 1 | t->measured)) * 0xc4ceb9fe1a85ec53ull;
	return h ^ h >> 31;
}

static int
same_run(const struct timed_run *a, const struct timed_run *b)
{
	return a->session == b->session && a->cell == b->cell &&
	    a->measured == b->measured && a->runno == b->runno;
}

/* The slot of t's run: its first's, or the empty one it would take. */
static size_t
find(const struct rset *rs, const struct rdedup *d, const struct timed_run *t)
{
	size_t j = key_hash(t) & (d->cap - 1);

	while (d->slot[j] && !same_run(&rs->timed[d->slot[j] - 1], t))
		j = (j + 1) & (d->cap - 1);
	return j;
}

static void
table_grow(const struct rset *rs, struct rdedup *d)
{
	uint32_t *old = d->slot;
	size_t oldcap = d->cap;

	d->cap = d->cap ? d->cap * 2 : 1024;
	d->slot = xcalloc(d->cap, sizeof *d->slot);
	for (size_t i = 0; i < oldcap; i++)
		if (old[i])
			d->slot[find(rs, d, &rs->timed[old[i] - 1])] = old[i];
	free(old);
}

/* Whether t sorts after e in timed_order (same session): the copy
 * mark_dups() would take out.  A tie (one file's one line, read twice)
 * is taken as after: its lines are the same. */
static int
sorts_after(const struct rset *rs, const struct timed_run *e,
    const struct timed_run *t)
{
	if (e->file == t->file)
		return t->line >= e->line;
	int c = strcmp(rs->fname[t->file], rs->fname[e->file]);
	return c > 0 || (c == 0 && t->line > e->line);
}

/* Timed run i, just read: 1 where it is a copy never to be added. */
int
rs_dedup_run(struct rset *rs, size_t i)
{
	struct rdedup *d = rs->dedup;
	struct timed_run *t = &rs->timed[i];

	if (d == NULL || t->runno == 0 || i >= UINT32_MAX - 1)
		return 0;
	if ((d->n + 1) * 2 > d->cap)
		table_grow(rs, d);
	size_t j = find(rs, d, t);
	if (d->slot[j] == 0) {
		d->slot[j] = (uint32_t)i + 1;
		d->n++;
		return 0;
	}
	if (!sorts_after(rs, &rs->timed[d->slot[j] - 1], t))
		return 0;	/* the one kept: mark_dups takes the first out */
	t->dup = 1;
	return 1;
}

/* A file's reading begins: from the second on, the runs so far keyed. */
void
rs_dedup_file(struct rset *rs)
{
	if (rs->files == 0 || rs->dedup != NULL || rs->ntimed >= UINT32_MAX)
		return;
	rs->dedup = xcalloc(1, sizeof *rs->dedup);
	for (size_t i = 0; i < rs->ntimed; i++)
		(void)rs_dedup_run(rs, i);
}

void
rs_dedup_free(struct rset *rs)
{
	if (rs->dedup)
		free(rs->dedup->slot);
	free(rs->dedup);
	rs->dedup = NULL;
}
