/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Variants of one boot measured in one session (--variant): a sched
 * feature, a sysctl, a cgroup knob, the loads' nice or policy, a
 * sched_ext scheduler.  Each is switched to before each of its runs, and
 * the variants take turns within every round in a balanced order, so
 * that what the machine drifts falls on all of them alike.
 */
#ifndef CONTEST_VARIANT_H
#define CONTEST_VARIANT_H

#include <stddef.h>
#include <sys/types.h>

#include "cgroup.h"
#include "keys.h"
#include "schedopt.h"

#define VARIANT_MAX		16
#define VARIANT_NAME_MAX	64

/* enum variant_kind, keys.h's VARIANT_KINDS: VK_NONE, no command (the
 * machine as it is); VK_COMMAND, CMD run before each of its runs;
 * VK_PROGRAM, CMD kept running during its runs (keep); VK_SCHED_EXT, and
 * a sched_ext scheduler (sched-ext). */

struct variant {
	char		 name[VARIANT_NAME_MAX + 1];
	enum variant_kind kind;
	const char	*cmd;		/* NULL for VK_NONE */
	/* the loads' nice and policy where the variant sets them (over the
	 * session's), and the knobs in force as the results say them */
	int		 has_nice, nice, has_policy, policy;
	struct sched_opts sched;
	char		 sched_text[200];
	/* a kept program while it runs: its group and cgroup; the
	 * scheduler it brought (VK_SCHED_EXT), as sched_ext says it */
	pid_t		 pgid;
	struct cgroup	 cg;
	char		 scx[160];
};

/* "NAME[:key=val,...][=CMD]" (keys: load-nice, load-policy, keep,
 * sched-ext): 0, or -1 with a one-line reason. */
int	variant_parse(const char *spec, struct variant *, char *err, size_t len);

/*
 * The variants' order in a round, by a Williams design: each variant
 * first as often as last, and (for carry-over) after each other variant
 * equally often, over variant_rows(n) rounds: n rows for an even n, 2n
 * for an odd one.  out[0..n) gets row row's order (row taken mod rows).
 */
size_t	variant_rows(size_t n);
void	variant_order(size_t n, unsigned row, size_t *out);

/* The loads' knobs of each variant: the session's, then the variant's
 * own; 0, or -1 with the reason. */
int	variant_sched(struct variant *, const struct sched_opts *session,
	    char *err, size_t len);

/*
 * Before a run of v: its command run (untimed, its output to log_fd), or
 * its program started if it is not running (a sched_ext scheduler: until
 * sched_ext says it is enabled, and which), and the scheduler in force
 * checked to be the variant's (scx0: what sched_ext said when the session
 * began).  0; 1 if interrupted; -1 with why.
 */
int	variant_enter(struct variant *, int log_fd, const char *scx0, char *why,
	    size_t len);
/* After a run that saw sched_ext say before, then after: that it was the
 * variant's, and its program still runs; -1 with why where not. */
int	variant_check(const struct variant *, const char *scx0, const char *before,
	    const char *after, char *why, size_t len);
/* Its program stopped (TERM, then KILL), its cgroup removed, and a
 * sched_ext scheduler seen gone; nothing for a variant without one. */
void	variant_leave(struct variant *, const char *scx0);

#endif
