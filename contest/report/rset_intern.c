/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Strings stored once and compared by pointer, and keys of several of
 * them numbered: what lets a report over a million lines compare rows,
 * cells and sessions without building a string.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "rset_impl.h"
#include "util.h"

/*
 * Interned strings: a report over 100000 lines holds a handful of
 * labels, hosts and counter names, so each is stored once and compared
 * by pointer.
 */
struct rpool {
	char	**slot;
	uint64_t *hash;		/* each slot's, compared before its string */
	size_t	  n, cap;
};

/* A word at a time: a line interns a dozen strings, a kernel's uname -v
 * among them, and a byte at a time was a twentieth of a report. */
static uint64_t
hash(const char *s, size_t n)
{
	uint64_t h = n * 0x9e3779b97f4a7c15ull, w;

	for (; n >= 8; n -= 8, s += 8) {
		memcpy(&w, s, sizeof w);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	for (w = 0; n > 0; n--)
		w = w << 8 | (unsigned char)s[n - 1];
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	return h ^ h >> 29;
}

const char *
rs_intern(struct rset *rs, const char *s)
{
	if (s == NULL)
		return NULL;
	if (rs->pool == NULL)
		rs->pool = xcalloc(1, sizeof *rs->pool);
	struct rpool *p = rs->pool;
	if (p->n * 2 >= p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 256;
		char **slot = xcalloc(cap, sizeof *slot);
		uint64_t *hs = xcalloc(cap, sizeof *hs);
		for (size_t i = 0; i < p->cap; i++) {
			if (p->slot[i] == NULL)
				continue;
			size_t j = p->hash[i] & (cap - 1);
			while (slot[j])
				j = (j + 1) & (cap - 1);
			slot[j] = p->slot[i];
			hs[j] = p->hash[i];
		}
		free(p->slot);
		free(p->hash);
		p->slot = slot;
		p->hash = hs;
		p->cap = cap;
	}
	size_t n = strlen(s);
	uint64_t h = hash(s, n);
	size_t j = h & (p->cap - 1);
	while (p->slot[j]) {
		if (p->hash[j] == h && strcmp(p->slot[j], s) == 0)
			return p->slot[j];
		j = (j + 1) & (p->cap - 1);
	}
	p->n++;
	p->hash[j] = h;
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

uint32_t
rs_tuple(struct rset *rs, const void *a, const void *b, const void *c)
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

void
rs_label_seen(struct rset *rs, const char *label)
{
	static const char tag;	/* a tuple of its own kind */
	size_t before = rs->tup ? rs->tup->n : 0;

	if (label == NULL || (rs->nlabs && rs->labs[rs->nlabs - 1] == label))
		return;
	rs_tuple(rs, &tag, label, NULL);
	if (rs->tup->n == before)
		return;
	xgrow(&rs->labs, &rs->caplabs, rs->nlabs + 1, sizeof *rs->labs, 16);
	rs->labs[rs->nlabs++] = label;
}

void
rs_intern_free(struct rset *rs)
{
	if (rs->pool) {
		for (size_t i = 0; i < rs->pool->cap; i++)
			free(rs->pool->slot[i]);
		free(rs->pool->slot);
		free(rs->pool->hash);
		free(rs->pool);
	}
	free(rs->labs);
	if (rs->tup) {
		free(rs->tup->key);
		free(rs->tup->id);
		free(rs->tup);
	}
}
