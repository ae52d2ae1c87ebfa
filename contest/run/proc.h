/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Processes the driver starts: each in its own process group, registered
 * here until every process of the group has been reaped, so that any exit
 * path can kill them all.
 */
#ifndef CONTEST_PROC_H
#define CONTEST_PROC_H

#include <sys/types.h>

#include "proc_reap.h"

/*
 * Fork a process into process group pgid (0: a new group led by itself).
 * In the child: default signals, SIGKILL on driver death, stdin from
 * /dev/null, stdout and stderr to outfd (-1: /dev/null); returns 0.
 * In the driver: returns the pid; the group is registered.  A fork refused
 * with EAGAIN or ENOMEM is retried with backoff for up to 10 s.
 */
pid_t	proc_fork(pid_t pgid, int outfd);

/*
 * The children forked next are made in this cgroup (NULL: none), and in
 * its v1 pids group where it has one: by clone3(CLONE_INTO_CGROUP) where
 * the kernel takes it, so that no cgroup move (an RCU grace period) falls
 * inside a timed window; else forked and moved by the child itself.
 */
struct cgroup;
void	proc_cgroup_next(const struct cgroup *);

/* How the last child was made: "clone3" (straight into its cgroup),
 * "fork+move" (forked, then moved by itself), or "fork" (no cgroup). */
const char *proc_spawned_how(void);


/* Why a child did not become its command: errno, the step that failed
 * (0: the exec; an EXEC_STEP_*; else a SCHED_STEP_*), and why[] when a
 * step before the exec failed (empty when the exec itself did), written
 * by the parent: the child formats nothing. */
struct exec_fail {
	int	err;
	int	step;
	char	why[200];
};
#define EXEC_STEP_DIR	(-1)
#define EXEC_STEP_GROUP	(-2)	/* its own process group */
#define EXEC_STEP_CGROUP (-3)	/* into the job's cgroup or pids group */
#define EXEC_STEP_GUARD	(-4)	/* killed with the driver: the driver is gone */
#define EXEC_STEP_FDS	(-5)	/* /dev/null or its output on fds 0-2 */

/*
 * Start argv (PATH search) as a new process group, in the directory
 * dirfd (-1: ours).  Returns the pid once the exec has happened; on
 * failure in the child returns -1 with *f set (the child is already
 * reaped); -2 with f->err if it could not even fork.  *t0, when not
 * NULL, gets CLOCK_MONOTONIC just after the fork returned.
 */
struct sched_set;
pid_t	proc_exec(char *const argv[], int outfd, int dirfd,
	    const struct sched_set *sched, struct exec_fail *f, double *t0);

#endif
