/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One run of one unit (onerun.c). */
#ifndef CONTEST_ONERUN_H
#define CONTEST_ONERUN_H

#include <stddef.h>

#include "session.h"

/* Run rec's unit once: 0 with *rec filled (its status says how it went),
 * or 1 if interrupted (nothing recorded: an interrupted run is no
 * measurement). */
int	run_one(struct session *, struct run_record *rec);
/* What ran and under which cgroup controllers, read as a run ends, so
 * that its line's writer only writes. */
void	run_ended(const struct session *, struct run_record *rec);

/* "fork_load" or "fork_load j=2": what the messages call a unit. */
const char *unit_name(const struct session *, const struct run_record *,
	    char *buf, size_t len);

#endif
