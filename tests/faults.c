/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Preloaded by tests to make a system call fail on purpose:
 * CONTEST_FAULT=pselect makes every pselect(2) fail with EINVAL, so the
 * tests can show that a failing wait ends a session loudly;
 * CONTEST_FAULT=sched_setaffinity fails that with EINVAL (a CPU set a
 * cgroup's cpuset refuses); CONTEST_FAULT=killwrite:N stops the Nth
 * write to results.jsonl half way and SIGKILLs the writer;
 * CONTEST_FAULT=cgenter refuses a child's move into its cgroup (EBUSY);
 * CONTEST_FAULT=dup2 refuses a child its stdout (EBADF), in every
 * process but the first that loaded this (the driver).
 * And to show
 * contest a system it cannot have here (CONTEST_FAKE_SCX, below), or to
 * change the world at a chosen moment (CONTEST_FAULT_AT, below).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/select.h>
#include <unistd.h>
#include <sys/types.h>

int
pselect(int n, fd_set *r, fd_set *w, fd_set *e, const struct timespec *t,
    const sigset_t *mask)
{
	static int (*real)(int, fd_set *, fd_set *, fd_set *,
	    const struct timespec *, const sigset_t *);
	const char *f = getenv("CONTEST_FAULT");

	if (f && strcmp(f, "pselect") == 0) {
		errno = EINVAL;
		return -1;
	}
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "pselect");
	return real(n, r, w, e, t, mask);
}

/*
 * CONTEST_FAKE_SCX=DIR: /sys/kernel/sched_ext/X is read from DIR/X, so a
 * test can load and unload a "BPF scheduler" by writing files.
 */
static const char *
fake_scx(const char *path, char *buf, size_t len)
{
	static const char prefix[] = "/sys/kernel/sched_ext/";
	const char *dir = getenv("CONTEST_FAKE_SCX");

	if (dir == NULL || strncmp(path, prefix, sizeof prefix - 1) != 0)
		return path;
	snprintf(buf, len, "%s/%s", dir, path + sizeof prefix - 1);
	return buf;
}

/*
 * CONTEST_FAULT_AT=NAME with CONTEST_FAULT_RUN=CMD: just before the
 * first open of a file called NAME (any directory), run CMD, once: a test
 * swaps a directory between contest's check of it and its use.  NAME@K:
 * before the Kth open instead (K in 1..9).
 */
static void
at_open(const char *path)
{
	const char *at = getenv("CONTEST_FAULT_AT"), *cmd = getenv("CONTEST_FAULT_RUN");
	const char *base = strrchr(path, '/');
	static int seen;

	if (at == NULL || cmd == NULL)
		return;
	size_t n = strcspn(at, "@");
	base = base ? base + 1 : path;
	if (strlen(base) != n || strncmp(base, at, n) != 0)
		return;
	if (++seen < (at[n] == '@' ? at[n + 1] - '0' : 1))
		return;
	unsetenv("CONTEST_FAULT_AT");
	if (system(cmd) != 0)
		fprintf(stderr, "faults.so: '%s' failed\n", cmd);
}

/* Every open goes through here: the hook, then the path as faked. */
static int
open_real(int dfd, const char *path, int flags, mode_t mode)
{
	static int (*real)(int, const char *, int, ...);
	char buf[4096];

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "openat");
	at_open(path);
	return real(dfd, fake_scx(path, buf, sizeof buf), flags, mode);
}

#define MODE_ARG(mode, flags) do {					\
	va_list ap;							\
	va_start(ap, flags);						\
	if (flags & O_CREAT)						\
		mode = va_arg(ap, mode_t);				\
	va_end(ap);							\
} while (0)

#define OPEN_LIKE(name)							\
int									\
name(const char *path, int flags, ...)					\
{									\
	mode_t mode = 0;						\
	MODE_ARG(mode, flags);						\
	return open_real(AT_FDCWD, path, flags, mode);			\
}
#define OPENAT_LIKE(name)						\
int									\
name(int dfd, const char *path, int flags, ...)				\
{									\
	mode_t mode = 0;						\
	MODE_ARG(mode, flags);						\
	return open_real(dfd, path, flags, mode);			\
}
OPEN_LIKE(open)
OPEN_LIKE(open64)
OPENAT_LIKE(openat)
OPENAT_LIKE(openat64)

/* libc's fopen opens by its own inner calls: the hook sees it here. */
#define FOPEN_LIKE(name)						\
FILE *									\
name(const char *path, const char *mode)				\
{									\
	static FILE *(*real)(const char *, const char *);		\
									\
	if (real == NULL)						\
		*(void **)&real = dlsym(RTLD_NEXT, #name);		\
	at_open(path);							\
	return real(path, mode);					\
}
FOPEN_LIKE(fopen)
FOPEN_LIKE(fopen64)

int
sched_setaffinity(pid_t pid, size_t len, const cpu_set_t *set)
{
	static int (*real)(pid_t, size_t, const cpu_set_t *);
	const char *f = getenv("CONTEST_FAULT");

	if (f && strcmp(f, "sched_setaffinity") == 0) {
		errno = EINVAL;
		return -1;
	}
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "sched_setaffinity");
	return real(pid, len, set);
}

/* 1 when fd is open on a file called name */
static int
is_file(int fd, const char *name)
{
	char link[64], path[4096];
	ssize_t n;

	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	if ((n = readlink(link, path, sizeof path - 1)) <= 0)
		return 0;
	path[n] = '\0';
	const char *base = strrchr(path, '/');
	return base && strcmp(base + 1, name) == 0;
}

static int
is_results(int fd)
{
	return is_file(fd, "results.jsonl");
}

ssize_t
write(int fd, const void *buf, size_t len)
{
	static ssize_t (*real)(int, const void *, size_t);
	static long nth;
	const char *f = getenv("CONTEST_FAULT");

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "write");
	if (f && strncmp(f, "killwrite:", 10) == 0 && len > 1 && is_results(fd) &&
	    ++nth == atol(f + 10)) {
		/* half a line reaches the file, then the writer is gone */
		(void)real(fd, buf, len / 2);
		kill(getpid(), SIGKILL);
	}
	/* a child's move into its cgroup refused, as a cgroup that is being
	 * removed, or one at its pids cap, refuses it */
	if (f && strcmp(f, "cgenter") == 0 && len == 1 && *(const char *)buf == '0' &&
	    is_file(fd, "cgroup.procs")) {
		errno = EBUSY;
		return -1;
	}
	return real(fd, buf, len);
}

static pid_t first_pid;

__attribute__((constructor)) static void
note_first(void)
{
	first_pid = getpid();
}

int
dup2(int old, int new)
{
	static int (*real)(int, int);
	const char *f = getenv("CONTEST_FAULT");

	/* getpid: a system call each time (glibc 2.25 on), so a child that
	 * shares the driver's memory is told apart from it */
	if (f && strcmp(f, "dup2") == 0 && new == 1 && getpid() != first_pid) {
		errno = EBADF;
		return -1;
	}
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "dup2");
	return real(old, new);
}
