#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#elif defined(HAVE_SYS_PROCCTL_H)
#include <sys/procctl.h>
#endif

#include "load.h"

void
load_ready(struct load_ctx *c)
{
	char b = 'r';

	if (c->ready_fd < 0)
		return;
	while (write(c->ready_fd, &b, 1) < 0 && errno == EINTR)
		;
	close(c->ready_fd);
	c->ready_fd = -1;
}

int
load_fail(struct load_ctx *c, const char *fmt, ...)
{
	va_list ap;
	int expected = 0;

	/* First failure wins: later ones are usually its echoes. */
	if (atomic_compare_exchange_strong(&c->shm->failed, &expected, 1)) {
		va_start(ap, fmt);
		vsnprintf(c->shm->why, sizeof c->shm->why, fmt, ap);
		va_end(ap);
	}
	return -1;
}

void
load_backoff(unsigned *step)
{
	/* 1 ms doubling to 64 ms: enough for reaping to catch up without
	 * turning a refused fork into a busy loop. */
	unsigned ms = 1u << (*step < 6 ? *step : 6);
	struct timespec ts = { 0, (long)ms * 1000000L };

	if (*step < 6)
		(*step)++;
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int
load_child_guard(int parent_pid)
{
#if defined(HAVE_SYS_PRCTL_H) && defined(PR_SET_PDEATHSIG)
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		return -1;
#elif defined(HAVE_SYS_PROCCTL_H) && defined(PROC_PDEATHSIG_CTL)
	int sig = SIGKILL;
	if (procctl(P_PID, 0, PROC_PDEATHSIG_CTL, &sig) < 0)
		return -1;
#endif
	/* The parent may have died before the guard was armed. */
	return getppid() == parent_pid ? 0 : -1;
}

unsigned
load_hist_bucket(unsigned long long ns)
{
	unsigned e = 0;

	if (ns < 4)
		return (unsigned)ns;
	for (unsigned long long v = ns; v > 1; v >>= 1)
		e++;			/* floor(log2(ns)), >= 2 */
	unsigned b = 4 * (e - 1) + (unsigned)((ns >> (e - 2)) & 3);
	return b < LOAD_HIST_BUCKETS ? b : LOAD_HIST_BUCKETS - 1;
}

unsigned long long
load_hist_floor(unsigned b)
{
	if (b < 4)
		return b;
	return (4ULL + b % 4) << (b / 4 - 1);
}

void
load_hist_floors(unsigned long long floor[LOAD_HIST_BUCKETS])
{
	for (unsigned b = 0; b < LOAD_HIST_BUCKETS; b++)
		floor[b] = load_hist_floor(b);
}

unsigned long long
load_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}
