/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A cgroup v2 per run for the load, where a writable hierarchy exists:
 * cgroup.kill ends every process in it, even one that left the load's
 * process group (setsid), and cpu.stat gives the load's exact CPU time.
 * pids.max caps it where the pids controller is enabled for us.
 * Without one, process groups and the watchdog do the work alone.
 */
#ifndef CONTEST_CGROUP_H
#define CONTEST_CGROUP_H

#include <stddef.h>

/* Make the session's cgroup; 0, or -1 with why (no cgroup v2, no
 * permission...).  Removed at exit. */
int	cg_session_init(char *why, size_t whylen);
/* The session's cgroup directory, or NULL when there is none. */
const char *cg_session_path(void);
/* Where the session's cgroup was made: "our own cgroup", "a cgroup
 * delegated to us" (a unit with Delegate=yes), or NULL without one. */
const char *cg_where(void);
/* 1 when cgroup v2 is mounted, our own cgroup (its path into self) is
 * not ours to enable pids in, and no v1 pids hierarchy stands in. */
int	cg_pids_needs_scope(char *self, size_t len);

struct cgroup {
	char	 path[4096];
	int	 procs_fd;	/* cgroup.procs, for a child to join */
	int	 dir_fd;	/* the directory, for clone3(CLONE_INTO_CGROUP) */
	long long pids_max;	/* in force, or -1 */
	char	 pids_path[4096];	/* where pids.max is: path, a v1 dir, "" */
	int	 pids_fd;	/* the v1 pids group's cgroup.procs, or -1 */
};

/* The controllers in effect for the job's and the loads' cgroups (the
 * session's subtree_control, and a v1 pids group for the loads), as
 * space-separated names ("" for none); -1 without a session cgroup. */
int	cg_controllers(char *job, size_t jlen, char *loads, size_t llen);

/* Where pids.max is written ("cgroup v2", "cgroup v1 pids hierarchy"),
 * or NULL; then cg_pids_none() says why not. */
const char *cg_pids_where(void);
const char *cg_pids_none(void);
/* The session's directory in a v1 pids hierarchy, or NULL. */
const char *cg_pids_session(void);

/* A fresh cgroup under the session's, capped at pids_max processes
 * where a pids controller is ours; 0 or -1. */
int	cg_create(struct cgroup *, const char *name, long long pids_max);
/* pids.peak of the cgroup (v2 only), or -1. */
long long cg_pids_peak(const struct cgroup *);
/* In a new child: move it into the cgroup and its pids group (before it
 * forks anything); -1 fd: not that one.  Only system calls, formatting
 * nothing, so that a vfork child may call it: 0, or -1 with errno. */
int	cg_enter(int procs_fd, int pids_fd);
/* usr+sys seconds of everything that ran in it, or -1. */
double	cg_cpu_seconds(const struct cgroup *);
/* Kill all in it, wait until it is empty (reaping what comes back to us
 * as subreaper), remove it. */
void	cg_destroy(struct cgroup *);

/* From the watchdog, once the driver is gone: kill everything under the
 * session's cgroup, wait for it to empty (2 s at most), remove it all. */
void	cg_session_kill(const char *session_path, const char *pids_path);

#endif
