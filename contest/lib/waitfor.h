/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one way contest, forkbomb's supervisor and forktime sleep.  The
 * signals a program acts on stay blocked everywhere else and are let in
 * only inside waitfor(), atomically with the sleep (pselect with the
 * mask from before waitfor_block()), so a signal can never land between
 * a check of its flag and the sleep, to be seen only when the sleep ends.
 */
#ifndef CONTEST_WAITFOR_H
#define CONTEST_WAITFOR_H

#include <stddef.h>

/* Block sigs[0..n-1] from now on; waitfor() lets them in. */
void	waitfor_block(const int *sigs, size_t n);

/* The usual four: on_stop for SIGINT, SIGTERM and SIGHUP, on_child (with
 * sa_flags child_flags) for SIGCHLD, flag-only handlers all, then blocked
 * as waitfor_block() does. */
void	waitfor_catch(void (*on_stop)(int), void (*on_child)(int), int child_flags);

enum waitfor_on {
	WAITFOR_READ,		/* fd readable, or at end of file */
	WAITFOR_EVENT,		/* an exceptional condition: a cgroup.events change */
};

enum waitfor_result {
	WAITFOR_READY,		/* the fd is ready */
	WAITFOR_TIMEOUT,	/* the deadline passed */
	WAITFOR_SIGNAL,		/* a handler ran: check the flags it sets */
	WAITFOR_ERROR,		/* errno says why */
};

/*
 * Sleep until fd (-1: none) is ready as on says, a blocked signal's
 * handler has run, or the CLOCK_MONOTONIC deadline (seconds, as
 * mono_now() of sys.h; negative: none) has passed.
 */
enum waitfor_result waitfor(int fd, enum waitfor_on on, double deadline);

/* Let in the signals that are pending, without sleeping: their handlers
 * run now.  For loops whose waits are all short and bounded. */
void	waitfor_poll(void);

#endif
