/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The two parts of a results line: which run it is (resultline_who.c),
 * and what the run measured (resultline.c). */
#ifndef CONTEST_RESULTLINE_IMPL_H
#define CONTEST_RESULTLINE_IMPL_H

#include "json.h"
#include "session.h"

/* The session's members, up to the load's. */
void	line_who(struct json *, const struct session *, const struct run_record *);
/* The load, round, variant and run. */
void	line_run(struct json *, const struct session *, const struct run_record *);

#endif
