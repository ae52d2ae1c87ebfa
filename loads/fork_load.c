/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fork_load: Con Kolivas's 2002 trial module for contest.  Fork a child
 * that exits at once, reap it, repeat; the count of children shows how
 * much process creation the kernel allowed beside the job.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#include "load.h"

enum { OPT_PROCS, OPT_METHOD };
enum { M_FORK, M_VFORK };
enum { C_FORKED, C_FAILURES };

static const char *const methods[] = { "fork", "vfork", NULL };

static const struct load_opt opts[] = {
	[OPT_PROCS] = { "procs", LOAD_OPT_INT, 1, 1, 256, NULL,
	    "parallel forking processes" },
	[OPT_METHOD] = { "method", LOAD_OPT_ENUM, M_FORK, 0, 1, methods,
	    "how each child is created" },
	{ NULL, 0, 0, 0, 0, NULL, NULL },
};

static const struct load_counter counters[] = {
	[C_FORKED] = { "children_forked", "Children forked", "children",
	    "children created, exited and reaped" },
	[C_FAILURES] = { "fork_failures", "Fork failures", "failures",
	    "creations refused with EAGAIN or ENOMEM (backed off, retried)" },
	{ NULL, NULL, NULL, NULL },
};

/*
 * The fork system call, without libc's: on Linux clone(SIGCHLD), which is
 * what fork(2) asks of the kernel, but no fork handlers, no lock resets
 * and no thread-id bookkeeping, so a child that only exits touches no
 * libc state (glibc's fork cost each child two more page faults in this
 * image than in a bare loop's: doc/performance.md).
 */
static pid_t
bare_fork(void)
{
#if defined(__linux__) && defined(SYS_clone) && !defined(__s390__) && \
    !defined(__CRIS__)	/* there, a new stack comes before the flags */
	return (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
#else
	return fork();
#endif
}

static unsigned
fork_load_nworkers(const long long *opt)
{
	return (unsigned)opt[OPT_PROCS];
}

static int
fork_load_run(struct load_ctx *c)
{
	int use_vfork = c->opt[OPT_METHOD] == M_VFORK;
	unsigned step = 0;

	/* A vfork child shares our memory anyway; a forked one only exits. */
	if (!use_vfork)
		load_page_private(c);
	load_ready(c);
	for (;;) {
		unsigned long long t0 = mono_ns();
		pid_t pid = use_vfork ? vfork() : bare_fork();
		if (pid == 0)
			_exit(0);
		if (pid < 0) {
			if (errno != EAGAIN && errno != ENOMEM)
				return load_fail(c, "%s: %s",
				    use_vfork ? "vfork" : "fork", strerror(errno));
			load_count(c, C_FAILURES, 1);
			load_backoff(&step);
			continue;
		}
		step = 0;
		while (waitpid(pid, NULL, 0) < 0)
			if (errno != EINTR)
				return load_fail(c, "waitpid: %s", strerror(errno));
		load_latency(c, mono_ns() - t0);
		load_count(c, C_FORKED, 1);
		load_unit(c);
	}
}

const struct load load_fork_load = {
	.name = "fork_load",
	.summary = "fork a child that exits at once, reap it, repeat (contest 2002)",
	.opts = opts,
	.counters = counters,
	.latency = "Fork+exit+reap latency",
	.nworkers = fork_load_nworkers,
	.run = fork_load_run,
};
