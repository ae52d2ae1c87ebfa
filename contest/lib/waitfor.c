/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/select.h>
#include <time.h>

#include "sys.h"
#include "waitfor.h"

static sigset_t open_mask;	/* the mask to sleep with: ours, less nothing */
static int blocked;

void
waitfor_block(const int *sigs, size_t n)
{
	sigset_t add, old;

	sigemptyset(&add);
	for (size_t i = 0; i < n; i++)
		sigaddset(&add, sigs[i]);
	sigprocmask(SIG_BLOCK, &add, &old);
	if (!blocked)
		open_mask = old;
	blocked = 1;
	for (size_t i = 0; i < n; i++)
		sigdelset(&open_mask, sigs[i]);
}

enum waitfor_result
waitfor(int fd, enum waitfor_on on, double deadline)
{
	fd_set set;
	struct timespec ts, *tp = NULL;
	sigset_t cur;

	if (fd >= FD_SETSIZE) {
		errno = EBADF;
		return WAITFOR_ERROR;
	}
	if (!blocked)	/* no one called waitfor_block: sleep with the mask we have */
		sigprocmask(SIG_SETMASK, NULL, &cur);
	for (;;) {
		if (deadline >= 0) {
			double left = deadline - mono_now();
			if (left <= 0)
				return WAITFOR_TIMEOUT;
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
			tp = &ts;
		}
		FD_ZERO(&set);
		if (fd >= 0)
			FD_SET(fd, &set);
		int r = pselect(fd + 1, on == WAITFOR_READ && fd >= 0 ? &set : NULL,
		    NULL, on == WAITFOR_EVENT && fd >= 0 ? &set : NULL, tp,
		    blocked ? &open_mask : &cur);
		if (r > 0)
			return WAITFOR_READY;
		if (r < 0)
			return errno == EINTR ? WAITFOR_SIGNAL : WAITFOR_ERROR;
		/* r == 0: the timeout, or a rounding short of it */
	}
}

void
waitfor_poll(void)
{
	struct timespec zero = { 0, 0 };

	if (blocked)
		pselect(0, NULL, NULL, NULL, &zero, &open_mask);
}

void
waitfor_catch(void (*on_stop)(int), void (*on_child)(int), int child_flags)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGCHLD };
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_child;
	sa.sa_flags = child_flags;
	sigaction(SIGCHLD, &sa, NULL);
	waitfor_block(sigs, sizeof sigs / sizeof sigs[0]);
}
