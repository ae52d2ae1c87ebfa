/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The driver's side of its children's ends: the signals it lets in only
 * while it sleeps, the process groups it made and has not killed, the
 * wait for a child (asleep in waitfor, ticking where asked), and the
 * kill of a group or of all of them, reaping every generation.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pidset.h"
#include "proc_reap.h"
#include "sys.h"
#include "util.h"
#include "waitfor.h"
#include "watchdog.h"

volatile sig_atomic_t proc_signal;
pid_t proc_driver_pid;

/* The process groups we made and have not killed: as many as there are
 * (a table that silently filled would leave a group to outlive us). */
static struct pidset groups;

static void
on_term(int sig)
{
	proc_signal = sig;
}

static void
on_child(int sig)
{
	(void)sig;	/* only here so that waitfor() returns */
}

void
proc_init(void)
{
	struct sigaction sa;

	proc_driver_pid = getpid();
	watch_start();
	/* Orphaned grandchildren come back to us, so we can reap them. */
	(void)subreaper_acquire();
	util_on_fatal(proc_kill_all);
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	/*
	 * From here on they arrive only inside waitfor(): no read or write is
	 * cut short, and none lands between a check of proc_signal and a
	 * sleep.  Children get an empty mask back (child_setup).
	 */
	waitfor_catch(on_term, on_child, 0);
}

/* -1 (ENOMEM) when the group cannot be kept on our list: the caller
 * kills it rather than let it outlive us. */
int
proc_group_add(pid_t pgid)
{
	size_t n = groups.n;

	if (pidset_add(&groups, pgid) < 0)
		return -1;
	if (groups.n > n)
		watch_tell('+', pgid);
	return 0;
}

static void
group_del(pid_t pgid)
{
	if (pidset_del(&groups, pgid))
		watch_tell('-', pgid);
}

int
proc_wait(pid_t pid, int *status, struct rusage *ru)
{
	return proc_wait_ticking(pid, status, ru, -1, 0, NULL, NULL);
}

int
proc_wait_ticking(pid_t pid, int *status, struct rusage *ru, double first,
    double period, void (*tick)(void *), void *arg)
{
	double next = tick ? first : -1;

	/* Each wake-up (the job or an orphan exited, a signal, a tick's
	 * deadline) costs one non-blocking wait4. */
	for (;;) {
		pid_t r = wait4(pid, status, WNOHANG, ru);
		if (r == pid)
			return 0;
		if (r < 0)
			return -1;	/* not EINTR: nothing is let in here */
		if (proc_signal) {
			errno = EINTR;
			return -1;
		}
		enum waitfor_result w = waitfor(-1, WAITFOR_READ, next);
		if (w == WAITFOR_ERROR)
			return -1;
		if (w == WAITFOR_TIMEOUT) {
			tick(arg);
			double now = mono_now();
			do
				next += period;
			while (next <= now);
		}
	}
}

static void
ru_add(struct rusage *a, const struct rusage *b)
{
	timeradd(&a->ru_utime, &b->ru_utime, &a->ru_utime);
	timeradd(&a->ru_stime, &b->ru_stime, &a->ru_stime);
	a->ru_minflt += b->ru_minflt;
	a->ru_majflt += b->ru_majflt;
	a->ru_nvcsw += b->ru_nvcsw;
	a->ru_nivcsw += b->ru_nivcsw;
}

void
proc_kill_group(pid_t pgid, const pid_t *pids, size_t npids, struct rusage *ru)
{
	struct rusage r;
	int st;
	pid_t p;

	if (pgid <= 0)
		return;
	kill(-pgid, SIGKILL);
	/*
	 * A dying process hands its children to us (subreaper) before it
	 * becomes a zombie, so waiting on the group until ECHILD collects
	 * every generation.  A stray SIGINT must not cut this short.
	 */
	for (;;) {
		p = wait4(-pgid, &st, 0, &r);
		if (p < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (size_t i = 0; ru && i < npids; i++)
			if (pids[i] == p)
				ru_add(ru, &r);
	}
	group_del(pgid);
}

void
proc_kill_all(void)
{
	if (proc_driver_pid != getpid())
		return;		/* never from a child */
	while (groups.n)
		proc_kill_group(groups.v[groups.n - 1], NULL, 0, NULL);
	reap_orphans();
}

int
proc_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}
