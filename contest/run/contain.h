/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How a session contains its loads (contain.c). */
#ifndef CONTEST_CONTAIN_H
#define CONTEST_CONTAIN_H

#include "session.h"

/* The session's cgroup made where it can be, the watchdog told of it,
 * and s->containment (and s->cgroup_where) set to say how. */
void	contain_session(struct session *);

#endif
