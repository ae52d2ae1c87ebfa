/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ends of the processes the driver starts (proc_reap.c): each
 * process group registered until every process of it has been reaped,
 * so that any exit path can kill them all; the waits, asleep.
 */
#ifndef CONTEST_PROC_REAP_H
#define CONTEST_PROC_REAP_H

#include <signal.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

/* The terminating signal we caught (SIGINT, SIGTERM, SIGHUP), or 0. */
extern volatile sig_atomic_t proc_signal;

/*
 * Become a child subreaper and install flag-only handlers for SIGINT,
 * SIGTERM, SIGHUP and SIGCHLD, blocked from then on but inside waitfor():
 * every wait of the driver goes through it.
 */
void	proc_init(void);

/* The driver: what proc_init() ran in, which its children die with. */
extern pid_t proc_driver_pid;

/* A process group made, kept on the list proc_kill_all() empties: 0, or
 * -1 (ENOMEM) when it cannot be kept, and the caller kills it rather
 * than let it outlive us. */
int	proc_group_add(pid_t pgid);

/* wait4 for pid, asleep in waitfor(); returns -1 with errno EINTR when
 * a signal flag got set, or -1 with another errno when waiting failed. */
int	proc_wait(pid_t pid, int *status, struct rusage *ru);
/*
 * proc_wait, and tick(arg) at the CLOCK_MONOTONIC deadlines first,
 * first + period, ... while the child lives: the same sleep, woken by a
 * deadline as well as by SIGCHLD.  Ticks missed while busy are skipped.
 */
int	proc_wait_ticking(pid_t pid, int *status, struct rusage *ru, double first,
	    double period, void (*tick)(void *), void *arg);

/* SIGKILL the whole group and reap every process of it; rusage of the
 * reaped processes listed in pids[0..npids-1] is added to *ru. */
void	proc_kill_group(pid_t pgid, const pid_t *pids, size_t npids,
	    struct rusage *ru);

/* Kill and reap every registered group: for exits on error. */
void	proc_kill_all(void);

/* Shell-style exit code of a wait status: n, or 128+signal. */
int	proc_exit_code(int status);

#endif
