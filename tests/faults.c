/*
 * Preloaded by tests to make a system call fail on purpose:
 * CONTEST_FAULT=pselect makes every pselect(2) fail with EINVAL, so the
 * tests can show that a failing wait ends a session loudly; and to show
 * contest a system it cannot have here (CONTEST_FAKE_SCX, below).
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
#include <sys/select.h>
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

#define OPEN_LIKE(name)							\
int									\
name(const char *path, int flags, ...)					\
{									\
	static int (*real)(const char *, int, ...);			\
	char buf[4096];							\
	mode_t mode = 0;						\
	va_list ap;							\
									\
	va_start(ap, flags);						\
	if (flags & O_CREAT)						\
		mode = va_arg(ap, mode_t);				\
	va_end(ap);							\
	if (real == NULL)						\
		*(void **)&real = dlsym(RTLD_NEXT, #name);		\
	return real(fake_scx(path, buf, sizeof buf), flags, mode);	\
}
OPEN_LIKE(open)
OPEN_LIKE(open64)
