/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Nodes and strings of one line live in an arena reset for the next. */
#ifndef CONTEST_JARENA_H
#define CONTEST_JARENA_H

#include <stddef.h>

struct jarena {
	struct jchunk	*head;
};

void	jarena_reset(struct jarena *);	/* frees all but the first chunk */
void	jarena_free(struct jarena *);
/* n bytes of the arena, aligned for anything; NULL out of memory. */
void	*jalloc(struct jarena *, size_t n);
/* The last jalloc(), at start, cut to its first used bytes. */
void	jshrink(struct jarena *, const void *start, size_t used);

#endif
