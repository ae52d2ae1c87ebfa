/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "pidset.h"
#include "util.h"

int
pidset_add(struct pidset *ps, pid_t p)
{
	for (size_t i = 0; i < ps->n; i++)
		if (ps->v[i] == p)
			return 0;
	if (grow(&ps->v, &ps->cap, ps->n + 1, sizeof *ps->v, 16) < 0)
		return -1;
	ps->v[ps->n++] = p;
	return 0;
}

int
pidset_del(struct pidset *ps, pid_t p)
{
	for (size_t i = 0; i < ps->n; i++)
		if (ps->v[i] == p) {
			ps->v[i] = ps->v[--ps->n];
			return 1;
		}
	return 0;
}

void
pidset_free(struct pidset *ps)
{
	free(ps->v);
	ps->v = NULL;
	ps->n = ps->cap = 0;
}
