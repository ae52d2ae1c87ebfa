/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The system helpers every program here shares (contest, forkbomb,
 * forktime, the loads): one clock, one way to close inherited
 * descriptors, one way to become the reaper of orphans.
 */
#ifndef CONTEST_SYS_H
#define CONTEST_SYS_H

#include <stddef.h>

/* CLOCK_MONOTONIC in seconds: the one clock deadlines and runs are
 * measured with. */
double	mono_now(void);
/* The same clock in nanoseconds, for latencies. */
unsigned long long mono_ns(void);

/* Close every descriptor from lo up, below hi (hi < 0: no bound),
 * except keep (-1: none). */
void	close_fds(int lo, int hi, int keep);

/* Make orphaned descendants come back to this process (Linux's child
 * subreaper, FreeBSD's reaper); 0, or -1 where neither exists. */
int	subreaper_acquire(void);

/* Reap every child that has already exited, without waiting. */
void	reap_orphans(void);

/* Where the helper program NAME is: beside this program when it is
 * there (the build tree), else in dir (where it is installed).  Into
 * buf; -1 if it does not fit. */
int	helper_path(const char *name, const char *dir, char *buf, size_t len);

/* A descriptor of size bytes of zeroed memory that outlives exec and
 * that nothing else can open (memfd, SHM_ANON, an unlinked file);
 * close-on-exec.  -1 with errno set. */
int	anon_shm(size_t size);

/* Arm SIGKILL-on-parent-death in this new process (not inherited across
 * fork: every generation arms its own; kept across execve); 0, or -1 if
 * the parent (parent_pid) is already gone or the guard could not be
 * armed (the process must then _exit). */
int	die_with_parent(int parent_pid);

/* Fds 0 to 2 open, on /dev/null where they were closed, before anything
 * else is opened: else the first file opened (a results file) takes one
 * of them, and what is printed to it lands in that file.  0, or -1 with
 * errno. */
int	std_fds_open(void);

/* Ask the OOM killer to take this process (and its children) first:
 * under memory pressure a load goes, not the job or the driver.  Best
 * effort: not every system has oom_score_adj. */
void	oom_first(void);

#endif
