/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Running a session: every round, every run. */
#ifndef CONTEST_ROUNDS_H
#define CONTEST_ROUNDS_H

#include "session.h"

/* Run every round; returns contest's exit status. */
int	session_run(struct session *);

#endif
