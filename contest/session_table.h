/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The session's table and --until-ci's decision (session_table.c). */
#ifndef CONTEST_SESSION_TABLE_H
#define CONTEST_SESSION_TABLE_H

#include "session.h"

/* The table a session ends with: its lines as `contest report` prints
 * them, and the runs that may have done no work named. */
void	session_table(const struct session *);

/* --until-ci: is every cell's interval narrow enough to stop (each load's
 * Ratio CI95 within until_ci_pct percent of its Ratio; no_load's Time
 * CI95 when no load runs)? */
int	session_narrow(struct session *);

/* What --until-ci did, under the table. */
void	session_until_ci_line(struct session *);

#endif
