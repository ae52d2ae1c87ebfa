/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How a session contains its loads, decided once before the first run
 * and said in every results line and under the table: a cgroup v2 per
 * load run where contest may make one (its own, or a systemd scope it
 * asks for), always process groups and a watchdog.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "contain.h"
#include "proc.h"
#include "scope.h"
#include "watchdog.h"

void
contain_session(struct session *s)
{
	static char contained[1024], where[320];
	const char *nocg = getenv("CONTEST_CGROUP");
	char err[512], pids[320];

	if (nocg && strcmp(nocg, "0") == 0)
		snprintf(contained, sizeof contained, "process groups and a watchdog "
		    "(cgroups off: CONTEST_CGROUP=0)");
	else if (cg_session_init(err, sizeof err) == 0) {
		proc_watch_cgroup(cg_session_path(), cg_pids_session());
		if (scope_unit())
			snprintf(where, sizeof where, "%s, Delegate=yes, made by "
			    "contest", scope_unit());
		else
			snprintf(where, sizeof where, "%s", cg_where());
		if (cg_pids_where())
			snprintf(pids, sizeof pids, "pids.max in force (%s)",
			    cg_pids_where());
		else
			snprintf(pids, sizeof pids, "no pids.max (%s)", scope_why() ?
			    scope_why() : "no pids controller for us");
		snprintf(contained, sizeof contained, "a cgroup v2 per load run "
		    "(cgroup.kill) under %.300s (in %.300s), %.300s, process groups and a "
		    "watchdog", cg_session_path(), where, pids);
		s->cgroup_where = where;
	} else
		snprintf(contained, sizeof contained, "process groups and a watchdog "
		    "(no cgroup: %.300s)", err);
	s->containment = contained;
}
