/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#include "methods.h"
#include "sys.h"
#include "waitfor.h"

extern char **environ;

volatile sig_atomic_t ft_stop;

static void
sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR && !ft_stop)
		;
}

/* A created process's life: at once _exit, or a nap that ends with us. */
static void
child_life(const struct ft_opts *o)
{
	if (o->keep_ms) {
		/* the guard alone: a parent gone already is seen by the nap's end */
		(void)die_with_parent(getppid());
		sleep_ms(o->keep_ms);
	}
	_exit(0);
}

/*
 * Reap pid, asleep in waitfor() between tries; when stopping, a
 * kept-alive child is killed, not waited out.  0, or -1 with errno.
 */
static int
wait_child(pid_t pid, int *st, unsigned keep_ms)
{
	/* A child that exits at once is reaped by a plain blocking wait: no
	 * signal's worth of latency in a roundtrip, and no long gap either
	 * (run_method lets signals in between samples). */
	if (keep_ms == 0)
		return waitpid(pid, st, 0) == pid ? 0 : -1;
	for (int killed = 0;;) {
		pid_t r = waitpid(pid, st, WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0)
			return -1;
		if (ft_stop && !killed)
			killed = kill(pid, SIGKILL) == 0;
		if (waitfor(-1, WAITFOR_READ, -1) == WAITFOR_ERROR)
			return -1;
	}
}

/* The parent's side after a process was made at t0 and returned at t1. */
static int
parent_side(const struct ft_opts *o, pid_t pid, double t0, double t1,
    double *us, struct ft_child *c)
{
	if (o->time == FT_ROUNDTRIP) {
		int st = 0;
		if (wait_child(pid, &st, o->keep_ms) < 0)
			return errno;
		t1 = (mono_ns() / 1e3);
		/* a helper that could not run is no creation */
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			return ENOEXEC;
	} else
		c->pid = pid;
	*us = t1 - t0;
	return 0;
}

static int
m_fork(const struct ft_opts *o, double *us, struct ft_child *c)
{
	double t0 = (mono_ns() / 1e3);
	pid_t pid = fork();
	double t1 = (mono_ns() / 1e3);

	if (pid < 0)
		return errno;
	if (pid == 0)
		child_life(o);
	return parent_side(o, pid, t0, t1, us, c);
}

static int
m_vfork(const struct ft_opts *o, double *us, struct ft_child *c)
{
	double t0 = (mono_ns() / 1e3);
	pid_t pid = vfork();

	/* the parent runs again only once the child has exited */
	if (pid == 0)
		_exit(0);
	double t1 = (mono_ns() / 1e3);
	if (pid < 0)
		return errno;
	return parent_side(o, pid, t0, t1, us, c);
}

static const char *
vfork_unavailable(const struct ft_opts *o)
{
	return o->keep_ms ? "a vfork child cannot be kept alive: the parent "
	    "waits for it" : NULL;
}

#ifdef SYS_clone
static int
m_clone(const struct ft_opts *o, double *us, struct ft_child *c)
{
	/* the raw system call: no handlers, a copy of the stack, SIGCHLD only */
	double t0 = (mono_ns() / 1e3);
	long pid = syscall(SYS_clone, (unsigned long)SIGCHLD, NULL, NULL, NULL, 0UL);
	double t1 = (mono_ns() / 1e3);

	if (pid < 0)
		return errno;
	if (pid == 0)
		child_life(o);
	return parent_side(o, (pid_t)pid, t0, t1, us, c);
}

static const char *
clone_unavailable(const struct ft_opts *o)
{
	(void)o;
	return NULL;
}
#else
static int
m_clone(const struct ft_opts *o, double *us, struct ft_child *c)
{
	(void)o, (void)us, (void)c;
	return ENOSYS;
}

static const char *
clone_unavailable(const struct ft_opts *o)
{
	(void)o;
	return "raw clone(2) is Linux's";
}
#endif

/* The helper's argv: its name, and the keep-alive in ms when asked. */
static void
helper_argv(const struct ft_opts *o, const char *path, char *ms, size_t len,
    char *argv[3])
{
	argv[0] = (char *)path;
	argv[1] = NULL;
	argv[2] = NULL;
	if (o->keep_ms) {
		snprintf(ms, len, "%u", o->keep_ms);
		argv[1] = ms;
	}
}

static int
exec_helper(const struct ft_opts *o, const char *path, double *us,
    struct ft_child *c)
{
	char ms[16], *argv[3];

	helper_argv(o, path, ms, sizeof ms, argv);
	double t0 = (mono_ns() / 1e3);
	pid_t pid = fork();
	if (pid == 0) {
		if (o->keep_ms)		/* the guard is kept across execve */
			(void)die_with_parent(getppid());
		execve(path, argv, environ);
		_exit(127);
	}
	double t1 = (mono_ns() / 1e3);
	if (pid < 0)
		return errno;
	return parent_side(o, pid, t0, t1, us, c);
}

static int
m_exec_static(const struct ft_opts *o, double *us, struct ft_child *c)
{
	return exec_helper(o, o->nop_static, us, c);
}

static int
m_exec_dynamic(const struct ft_opts *o, double *us, struct ft_child *c)
{
	return exec_helper(o, o->nop_dynamic, us, c);
}

static int
m_spawn(const struct ft_opts *o, double *us, struct ft_child *c)
{
	char ms[16], *argv[3];
	pid_t pid;

	helper_argv(o, o->nop_static, ms, sizeof ms, argv);
	double t0 = (mono_ns() / 1e3);
	int e = posix_spawn(&pid, o->nop_static, NULL, NULL, argv, environ);
	double t1 = (mono_ns() / 1e3);
	if (e != 0)
		return e;
	return parent_side(o, pid, t0, t1, us, c);
}

static const char *
static_unavailable(const struct ft_opts *o)
{
	if (o->nop_static == NULL)
		return "no static helper (no static libc when forktime was built)";
	return access(o->nop_static, X_OK) == 0 ? NULL : "the static helper is missing";
}

static const char *
dynamic_unavailable(const struct ft_opts *o)
{
	if (o->nop_dynamic == NULL || access(o->nop_dynamic, X_OK) != 0)
		return "the dynamic helper is missing";
	return NULL;
}

/* Detached and kept-alive threads say they are done here, a byte each,
 * so that reaping them can sleep in waitfor() and still see a signal. */
static int thread_done[2] = { -1, -1 };
static pthread_once_t detached_once = PTHREAD_ONCE_INIT;

static void
detached_init(void)
{
	/* close-on-exec from birth: another thread may fork and exec */
	if (pipe2(thread_done, O_CLOEXEC) < 0)
		thread_done[0] = thread_done[1] = -1;
}

/* One thread's byte, or nothing when stopping: exiting ends the threads. */
static void
thread_wait_done(void)
{
	char b;

	while (!ft_stop) {
		enum waitfor_result r = waitfor(thread_done[0], WAITFOR_READ, -1);
		if (r == WAITFOR_ERROR)
			return;
		if (r == WAITFOR_READY && read(thread_done[0], &b, 1) == 1)
			return;
	}
}

struct thread_arg {
	unsigned	 keep_ms;
	int		 detached;
};

static void *
thread_life(void *p)
{
	const struct thread_arg *a = p;

	if (a->keep_ms)
		sleep_ms(a->keep_ms);
	if ((a->detached || a->keep_ms) && write(thread_done[1], "", 1) != 1)
		abort();	/* a reaper would wait for ever */
	return NULL;
}

static int
make_thread(const struct ft_opts *o, int detached, double *us, struct ft_child *c)
{
	static struct thread_arg args[2];
	pthread_attr_t attr;
	pthread_t t;

	args[detached] = (struct thread_arg){ o->keep_ms, detached };
	pthread_once(&detached_once, detached_init);
	pthread_attr_init(&attr);
	if (detached)
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	double t0 = (mono_ns() / 1e3);
	int e = pthread_create(&t, &attr, thread_life, &args[detached]);
	double t1 = (mono_ns() / 1e3);
	pthread_attr_destroy(&attr);
	if (e != 0)
		return e;
	c->pid = 0;
	c->thread = t;
	c->joinable = !detached;
	if (o->time == FT_ROUNDTRIP) {
		ft_reap(o, c, 1);
		t1 = (mono_ns() / 1e3);
		c->joinable = -1;	/* done with */
	}
	*us = t1 - t0;
	return 0;
}

static int
m_thread(const struct ft_opts *o, double *us, struct ft_child *c)
{
	return make_thread(o, 0, us, c);
}

static int
m_thread_detached(const struct ft_opts *o, double *us, struct ft_child *c)
{
	return make_thread(o, 1, us, c);
}

static const char *
always(const struct ft_opts *o)
{
	(void)o;
	return NULL;
}

const struct ft_method ft_methods[FT_NMETHODS + 1] = {
	{ "fork", "fork, the child _exits", 1, m_fork, always },
	{ "vfork", "vfork, the child _exits", 1, m_vfork, vfork_unavailable },
	{ "clone", "raw clone(SIGCHLD), the child _exits", 1, m_clone,
	    clone_unavailable },
	{ "spawn", "posix_spawn of the static do-nothing helper", 1, m_spawn,
	    static_unavailable },
	{ "exec-static", "fork and execve of the static do-nothing helper", 1,
	    m_exec_static, static_unavailable },
	{ "exec-dynamic", "fork and execve of the dynamic do-nothing helper", 1,
	    m_exec_dynamic, dynamic_unavailable },
	{ "thread", "pthread_create, then pthread_join", 0, m_thread, always },
	{ "thread-detached", "pthread_create of a detached thread", 0,
	    m_thread_detached, always },
	{ NULL, NULL, 0, NULL, NULL },
};

const struct ft_method *
ft_method_find(const char *name)
{
	for (const struct ft_method *m = ft_methods; m->name; m++)
		if (strcmp(m->name, name) == 0)
			return m;
	return NULL;
}

void
ft_reap(const struct ft_opts *o, struct ft_child *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (c[i].pid > 0 && o->reap == FT_REAP_WAIT) {
			/* stopping: a kept-alive child is killed, not waited for */
			wait_child(c[i].pid, NULL, o->keep_ms);
		} else if (c[i].pid == 0 && !ft_stop) {
			/* a thread; when stopping, exiting the process ends it */
			if (c[i].joinable == 0 || (c[i].joinable == 1 && o->keep_ms))
				thread_wait_done();
			if (c[i].joinable == 1 && !ft_stop)
				pthread_join(c[i].thread, NULL);
		}
		c[i].pid = 0;
		c[i].joinable = -1;
	}
}
