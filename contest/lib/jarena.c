/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>

#include "jarena.h"

void *
jalloc_chunk(struct jarena *a, size_t n)
{
	size_t cap = n > 65536 ? n : 65536;
	struct jchunk *c = malloc(sizeof *c + cap);

	if (c == NULL)
		return NULL;
	c->used = n;
	c->cap = cap;
	c->next = a->head;
	a->head = c;
	return c->data;
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
