/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The driver's children made: a load's or the job's, each in a process
 * group and cgroup of its own before it runs anything, the job by
 * clone3 where it can be (proc_reap.c: their ends).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__) && defined(HAVE_LINUX_SCHED_H)
#include <linux/sched.h>	/* struct clone_args, CLONE_INTO_CGROUP */
#include <sys/syscall.h>
#endif
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#elif defined(HAVE_SYS_PROCCTL_H)
#include <sys/procctl.h>		/* FreeBSD's equivalent */
#endif

#include "cgroup.h"
#include "command.h"
#include "proc.h"
#include "proc_reap.h"
#include "schedopt.h"
#include "util.h"
#include "waitfor.h"

extern char **environ;

#define FORK_PATIENCE_MS 10000
static int next_cg_fd = -1;	/* cgroup.procs the next child joins */
static int next_cg_dir = -1;	/* its directory, for clone3 */
static int next_pids_fd = -1;	/* and the v1 pids group's */
static int clone3_refused;	/* the kernel said no once (or CONTEST_CLONE3=0):
				 * fork+move from then on */
static const char *spawned_how = "fork";
/* in_cgroup: made there by clone3, only the v1 pids group to join.  0,
 * or the EXEC_STEP_* that failed with errno: the child must not run.
 * The job's child runs this on the driver's memory (spawn_shared):
 * system calls only, each failure a step returned with errno for the
 * caller to send down the pipe; no stdio, snprintf or malloc, whose
 * state is the driver's (tests/childcalls.awk holds every function the
 * child runs to that). */
static int
child_setup(pid_t pgid, int outfd, int in_cgroup)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGALRM, SIGPIPE,
	    SIGCHLD, SIGQUIT };
	sigset_t none;

	/* Outside its group, kill(-pgid) would miss it: better not to run. */
	if (setpgid(0, pgid) < 0)
		return EXEC_STEP_GROUP;
	/* outside either cgroup, it could escape the kill or the cap */
	if (cg_enter(in_cgroup ? -1 : next_cg_fd, next_pids_fd) < 0)
		return EXEC_STEP_CGROUP;
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		signal(sigs[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* Killed with the driver; gone at once if it died before this. */
	if (die_with_parent(proc_driver_pid) < 0) {
		errno = errno ? errno : ESRCH;
		return EXEC_STEP_GUARD;
	}

	/* Where its output was asked to go, or nowhere: never on to the
	 * driver's own stdout. */
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0 || dup2(null, 0) < 0 || dup2(outfd >= 0 ? outfd : null, 1) < 0 ||
	    dup2(outfd >= 0 ? outfd : null, 2) < 0)
		return EXEC_STEP_FDS;
	if (null > 2)
		close(null);
	return 0;
}

/* CONTEST_CLONE3=0: never clone3, for a kernel that misbehaves with it
 * (and to measure what it saves). */
static int
clone3_allowed(void)
{
	static int allowed = -1;

	if (allowed < 0) {
		const char *e = getenv("CONTEST_CLONE3");
		allowed = !(e && strcmp(e, "0") == 0);
	}
	return allowed && !clone3_refused;
}

/* What a try at making a child needs: the fork's or the job's. */
struct spawn;
typedef pid_t (*spawn_fn)(struct spawn *, int *in_cgroup);

/*
 * One fork: with a cgroup to go to, clone3(CLONE_INTO_CGROUP), the child
 * born in it (Linux 5.7 on); where the kernel refuses that for good
 * (no clone3, no CLONE_INTO_CGROUP, a cgroup it will not take a process
 * into that way), a plain fork, the child moving itself.  EAGAIN and
 * ENOMEM are for the caller to retry either way.
 */
static pid_t
one_fork(struct spawn *sp, int *in_cgroup)
{
	(void)sp;
	*in_cgroup = 0;
#if defined(SYS_clone3) && defined(CLONE_INTO_CGROUP)
	if (next_cg_dir >= 0 && clone3_allowed()) {
		struct clone_args a;
		memset(&a, 0, sizeof a);
		a.flags = CLONE_INTO_CGROUP;
		a.exit_signal = SIGCHLD;
		a.cgroup = (unsigned long long)next_cg_dir;
		long pid = syscall(SYS_clone3, &a, sizeof a);
		if (pid >= 0) {
			*in_cgroup = 1;
			return (pid_t)pid;
		}
		if (errno == EAGAIN || errno == ENOMEM)
			return -1;
		clone3_refused = 1;
	}
#endif
	return fork();
}

/* fork (try), and when the kernel refuses for now, try again for a
 * while; *t0 gets the clock just before the attempt that counted. */
static pid_t
fork_patiently(double *t0, int *in_cgroup, spawn_fn try, struct spawn *sp)
{
	unsigned ms = 1;
	double start = mono_now();
	pid_t pid;

	/*
	 * A fork load may hold the user's last process slots; wait for one
	 * rather than fail the run, but not forever: FORK_PATIENCE_MS on the
	 * clock (counting the pauses alone, a busy host's bursts of tries
	 * stretched a wait of 10 s to minutes).
	 */
	for (;;) {
		if (t0)
			*t0 = mono_now();
		pid = try(sp, in_cgroup);
		/* A fork load frees a slot for a moment after each reap and
		 * takes it back at its next fork: a burst of tries, each
		 * yielding the CPU, catches that moment where a sleep between
		 * tries would keep missing it. */
		for (int k = 0; pid < 0 && errno == EAGAIN && k < 200 && !proc_signal; k++) {
			sched_yield();
			if (t0)
				*t0 = mono_now();
			pid = try(sp, in_cgroup);
		}
		if (pid >= 0 || (errno != EAGAIN && errno != ENOMEM) ||
		    (mono_now() - start) * 1000 >= FORK_PATIENCE_MS || proc_signal)
			return pid;
		/* a signal ends the pause early, and the loop sees it */
		waitfor(-1, WAITFOR_READ, mono_now() + ms / 1000.0);
		if (ms < 64)
			ms *= 2;
	}
}

/* The parent's side of a new child: its group, from this side too (so
 * kill(-pgid) works before the child runs), on the watchdog's list. */
static int
parent_setup(pid_t pid, pid_t pgid, int in_cgroup)
{
	spawned_how = in_cgroup ? "clone3" : next_cg_fd >= 0 ? "fork+move" : "fork";
	setpgid(pid, pgid ? pgid : pid);
	if (proc_group_add(pgid ? pgid : pid) == 0)
		return 0;
	int e = errno;
	kill(-(pgid ? pgid : pid), SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	errno = e;
	return -1;
}

static pid_t
fork_into(pid_t pgid, int outfd, double *t0)
{
	int in_cgroup;
	pid_t pid = fork_patiently(t0, &in_cgroup, one_fork, NULL);

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int step = child_setup(pgid, outfd, in_cgroup);
		if (step != 0)	/* a load's worker, forked: no one to tell */
			_exit(step == EXEC_STEP_CGROUP ? 126 : 127);
		return 0;
	}
	if (parent_setup(pid, pgid, in_cgroup) < 0)
		return -1;
	return pid;
}

/* The job's child: set up, then exec; on failure the step and errno to
 * errfd.  The parent found the program on PATH (command_find) and
 * made the shell's arguments for a script without #!, as execvp would:
 * the child, on the driver's memory and a stack of its own, only makes
 * system calls. */
struct spawn {
	char *const	*argv;
	const char	*path;		/* argv[0] found, or "" */
	char *const	*sh_argv;	/* /bin/sh, path, argv[1]...: for ENOEXEC */
	const struct sched_set *sched;
	int		 outfd, errfd, in_cgroup, dirfd;
};

/* Why the child did not exec, in one write (under PIPE_BUF): system
 * calls only, as child_setup. */
static void __attribute__((noreturn))
exec_child(struct spawn *sp)
{
	struct exec_fail f = { 0, 0, "" };

	errno = 0;
	if ((f.step = child_setup(0, sp->outfd, sp->in_cgroup)) != 0) {
		f.err = errno;
	} else if (sp->dirfd >= 0 && fchdir(sp->dirfd) < 0) {
		f.err = errno;
		f.step = EXEC_STEP_DIR;
	} else if (sp->sched && (f.step = sched_apply_step(sp->sched)) != 0) {
		f.err = errno ? errno : EPERM;
	} else {
		execve(sp->path, sp->argv, environ);
		if (errno == ENOEXEC && sp->sh_argv)
			execve("/bin/sh", sp->sh_argv, environ);
		f.err = errno;
	}
	ssize_t w = write(sp->errfd, &f, sizeof f);
	(void)w;
	_exit(f.err == ENOENT && f.step == 0 ? 127 : 126);
}

/*
 * The job's fork, done as posix_spawn does it where contest knows how
 * (x86-64, no sanitizer): clone3(CLONE_VM | CLONE_VFORK), the child on a
 * stack of its own in the driver's memory until it execs, the driver
 * waiting.  No page table of the driver is copied for a child that only
 * execs, and none torn down at its exec: a fork of the driver's 6 MB
 * cost the job 0.15 ms (scripts/bench/overhead), about a quarter of a
 * static exec.  Born in its cgroup where there is one.  The child only
 * makes system calls and writes its own stack, and errno: the driver's
 * own (one thread's TLS), which is put back once the child is gone from
 * the driver's memory; every signal the driver handles is
 * blocked until child_setup() sets them back to default.
 */
#if defined(__has_feature)	/* clang says so here, gcc by __SANITIZE_ADDRESS__ */
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || \
    __has_feature(thread_sanitizer)
#define CONTEST_SANITIZED	1
#endif
#endif
#if defined(__x86_64__) && defined(SYS_clone3) && defined(CLONE_INTO_CGROUP) && \
    !defined(__SANITIZE_ADDRESS__) && !defined(CONTEST_SANITIZED)
#define SPAWN_SHARED	1
#define SPAWN_STACK	(256 * 1024)

static pid_t
spawn_shared(struct spawn *sp, int *in_cgroup)
{
	static unsigned char *stack;
	struct clone_args a;
	long pid;
	int saved = errno;

	if (stack == NULL) {
		stack = mmap(NULL, SPAWN_STACK, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
		if (stack == MAP_FAILED) {
			stack = NULL;
			return -1;
		}
	}
	memset(&a, 0, sizeof a);
	a.flags = CLONE_VM | CLONE_VFORK;
	a.exit_signal = SIGCHLD;
	a.stack = (unsigned long long)(uintptr_t)stack;
	a.stack_size = SPAWN_STACK;
	*in_cgroup = sp->in_cgroup = next_cg_dir >= 0;
	if (*in_cgroup) {
		a.flags |= CLONE_INTO_CGROUP;
		a.cgroup = (unsigned long long)next_cg_dir;
	}
	/* The child returns from the syscall on its new stack: it calls
	 * exec_child(sp) at once, and that never returns.  The callee-saved
	 * registers carry it there. */
	register void (*fn)(struct spawn *) __asm__("r12") = exec_child;
	register struct spawn *arg __asm__("r13") = sp;
	__asm__ volatile(
	    "syscall\n\t"
	    "test %%rax, %%rax\n\t"
	    "jnz 1f\n\t"
	    "xor %%ebp, %%ebp\n\t"
	    "mov %%r13, %%rdi\n\t"
	    "call *%%r12\n\t"
	    "hlt\n"
	    "1:"
	    : "=a"(pid)
	    : "0"((long)SYS_clone3), "D"(&a), "S"(sizeof a), "r"(fn), "r"(arg)
	    : "rcx", "r11", "memory");
	if (pid < 0) {
		errno = (int)-pid;
		return -1;
	}
	errno = saved;	/* whatever the child's failed calls left there */
	return (pid_t)pid;
}
#endif

/* The job's try: shared where it can be, else a fork whose child execs. */
static pid_t
spawn_try(struct spawn *sp, int *in_cgroup)
{
#ifdef SPAWN_SHARED
	if (clone3_allowed()) {
		pid_t pid = spawn_shared(sp, in_cgroup);
		if (pid >= 0 || errno == EAGAIN || errno == ENOMEM)
			return pid;
		clone3_refused = 1;	/* and the fork below says the rest */
	}
#endif
	pid_t pid = one_fork(sp, in_cgroup);
	if (pid == 0) {
		sp->in_cgroup = *in_cgroup;
		exec_child(sp);
	}
	return pid;
}

void
proc_cgroup_next(const struct cgroup *cg)
{
	next_cg_fd = cg ? cg->procs_fd : -1;
	next_cg_dir = cg && cg->procs_fd >= 0 ? cg->dir_fd : -1;
	next_pids_fd = cg ? cg->pids_fd : -1;
}

const char *
proc_spawned_how(void)
{
	return spawned_how;
}

pid_t
proc_fork(pid_t pgid, int outfd)
{
	return fork_into(pgid, outfd, NULL);
}

/* What the child's step and errno mean, in the parent's words. */
static void
exec_fail_text(struct exec_fail *f, const struct sched_set *sched)
{
	char why[160];

	if (f->step == EXEC_STEP_DIR) {
		snprintf(f->why, sizeof f->why, "cannot enter the job's directory: %s",
		    strerror(f->err));
	} else if (f->step == EXEC_STEP_GROUP) {
		snprintf(f->why, sizeof f->why, "cannot give the job its own process "
		    "group: %s", strerror(f->err));
	} else if (f->step == EXEC_STEP_CGROUP) {
		snprintf(f->why, sizeof f->why, "cannot move the job into its cgroup: %s",
		    strerror(f->err));
	} else if (f->step == EXEC_STEP_FDS) {
		snprintf(f->why, sizeof f->why, "cannot give the job its stdin, "
		    "stdout and stderr: %s", strerror(f->err));
	} else if (f->step == EXEC_STEP_GUARD) {
		snprintf(f->why, sizeof f->why, "cannot tie the job to the driver's "
		    "life: %s", strerror(f->err));
	} else if (f->step != 0 && sched) {
		sched_step_text(sched, f->step, f->err, why, sizeof why);
		snprintf(f->why, sizeof f->why, "cannot set the job's policy: %s", why);
	} else {
		f->why[0] = '\0';
	}
}

pid_t
proc_exec(char *const argv[], int outfd, int dirfd, const struct sched_set *sched,
    struct exec_fail *f, double *t0)
{
	int fds[2];

	f->err = f->step = 0;
	f->why[0] = '\0';
	if (pipe2(fds, O_CLOEXEC) < 0) {
		f->err = errno;
		return -2;
	}
	char path[4096];
	size_t argc = 0;
	while (argv[argc])
		argc++;
	char **sh_argv = xcalloc(argc + 2, sizeof *sh_argv);
	command_find(argv[0], path, sizeof path);
	sh_argv[0] = (char *)"/bin/sh";
	sh_argv[1] = path;
	for (size_t i = 1; i < argc; i++)
		sh_argv[i + 1] = argv[i];
	/* The clock starts at the fork that made the job, not while we
	 * waited for a process slot. */
	struct spawn sp = { argv, path, sh_argv, sched, outfd, fds[1], 0, dirfd };
	int in_cgroup;
	pid_t pid = fork_patiently(t0, &in_cgroup, spawn_try, &sp);
	free(sh_argv);
	if (pid < 0) {
		f->err = errno;
		close(fds[0]);
		close(fds[1]);
		return -2;
	}
	if (parent_setup(pid, 0, in_cgroup) < 0) {
		f->err = errno;
		close(fds[0]);
		close(fds[1]);
		return -2;
	}
	close(fds[1]);
	/* EOF means the exec happened (the pipe was close-on-exec). */
	ssize_t n;
	while ((n = read(fds[0], f, sizeof *f)) < 0 && errno == EINTR)
		;
	close(fds[0]);
	if (n == (ssize_t)sizeof *f) {
		proc_kill_group(pid, NULL, 0, NULL);
		exec_fail_text(f, sched);
		return -1;
	}
	f->err = 0;
	return pid;
}
