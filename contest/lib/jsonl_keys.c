/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sets of top-level members a reader of JSON lines wants built,
 * each with its id. */
#include "config.h"

#include <string.h>

#include "jsonl.h"

/* Key name with its id into the set: 0, or -1 when it is full. */
static int
jkeys_add(struct jkeys *k, const char *name, unsigned id, size_t *n)
{
	struct jkwords w = jsonl_key_words(name);
	unsigned h = jk_hash(w), i = h & JKEYS_MASK;

	if (jkeys_find(k, name, w, h) >= 0)
		return 0;
	if (++*n > JKEYS_MASK / 2 || w.n > 0xffff)
		return -1;	/* keep the table sparse */
	while (k->hash[i])
		i = (i + 1) & JKEYS_MASK;
	k->key[i] = name;
	k->hash[i] = h;
	k->len[i] = (unsigned short)w.n;
	k->head[i] = w.head;
	k->tail[i] = w.tail;
	k->id[i] = (unsigned short)id;
	if (id >= k->nid)
		k->nid = id + 1;
	return 0;
}

int
jkeys_init(struct jkeys *k, const char *const *list)
{
	size_t n = 0;

	memset(k, 0, sizeof *k);
	for (unsigned id = 0; list[id]; id++)
		if (jkeys_add(k, list[id], id, &n) < 0)
			return -1;
	return 0;
}

int
jkeys_init_ids(struct jkeys *k, const char *const *names, size_t count,
    const unsigned char *want)
{
	size_t n = 0;

	memset(k, 0, sizeof *k);
	for (size_t id = 0; id < count; id++)
		if (want[id] && jkeys_add(k, names[id], (unsigned)id, &n) < 0)
			return -1;
	return 0;
}
