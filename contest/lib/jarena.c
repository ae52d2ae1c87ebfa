/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>

#include "jarena.h"

/* Arena chunks: a line's tree is freed in one go. */
struct jchunk {
	struct jchunk	*next;
	size_t		 used, cap;
	max_align_t	 data[];
};

void *
jalloc(struct jarena *a, size_t n)
{
	struct jchunk *c = a->head;

	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	if (c == NULL || c->cap - c->used < n) {
		size_t cap = n > 65536 ? n : 65536;
		struct jchunk *nc = malloc(sizeof *nc + cap);
		if (nc == NULL)
			return NULL;
		nc->used = 0;
		nc->cap = cap;
		nc->next = c;
		a->head = c = nc;
	}
	void *p = (char *)c->data + c->used;
	c->used += n;
	return p;
}

void
jshrink(struct jarena *a, const void *start, size_t used)
{
	struct jchunk *h = a->head;

	used += sizeof(max_align_t) - 1;
	h->used = (size_t)((const char *)start - (char *)h->data) +
	    used / sizeof(max_align_t) * sizeof(max_align_t);
}

void
jarena_reset(struct jarena *a)
{
	while (a->head && a->head->next) {
		struct jchunk *c = a->head;
		a->head = c->next;
		free(c);
	}
	if (a->head)
		a->head->used = 0;
}

void
jarena_free(struct jarena *a)
{
	jarena_reset(a);
	free(a->head);
	a->head = NULL;
}
