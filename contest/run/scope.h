/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * On a systemd host, a process sits in a unit's cgroup (a service, a
 * login scope, cron's service) that systemd owns: contest may not enable
 * the pids controller there, so its loads would run without pids.max.
 * As root, contest moves itself into a transient scope of its own with
 * Delegate=yes (systemd-run --scope, which execs us again with the same
 * pid), bound to the unit it came from, before it touches anything.
 */
#ifndef CONTEST_SCOPE_H
#define CONTEST_SCOPE_H

#include "runopt.h"

/* Exec "contest run" again, asking for c and COMMAND's ncmd words,
 * inside a delegated scope where that is needed and possible; returns
 * when it is not (scope_why() says why). */
void	scope_enter(const struct run_config *c, char *const cmd[], int ncmd);
/* The scope's unit name when we run in one we made, else NULL. */
const char *scope_unit(void);
/* Why no scope was made, or NULL when it was not needed or was made. */
const char *scope_why(void);

#endif
