/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Nodes and strings of one line live in an arena reset for the next. */
#ifndef CONTEST_JARENA_H
#define CONTEST_JARENA_H

#include <stddef.h>

/* Arena chunks: a line's tree is freed in one go. */
struct jchunk {
	struct jchunk	*next;
	size_t		 used, cap;
	max_align_t	 data[];
};

struct jarena {
	struct jchunk	*head;
};

void	jarena_reset(struct jarena *);	/* frees all but the first chunk */
void	jarena_free(struct jarena *);
/* n bytes (rounded up) in a new chunk; NULL out of memory. */
void	*jalloc_chunk(struct jarena *, size_t n);

/* n bytes of the arena, aligned for anything; NULL out of memory.
 * Inline: a results line allocates a hundred nodes. */
static inline void *
jalloc(struct jarena *a, size_t n)
{
	struct jchunk *c = a->head;

	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	if (c == NULL || c->cap - c->used < n)
		return jalloc_chunk(a, n);
	void *p = (char *)c->data + c->used;
	c->used += n;
	return p;
}

#endif
