/*
 * Preloaded by tests to make a system call fail on purpose:
 * CONTEST_FAULT=pselect makes every pselect(2) fail with EINVAL, so the
 * tests can show that a failing wait ends a session loudly.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>

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
