#include "config.h"

#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif
#ifdef HAVE_SYS_PROCCTL_H
#include <sys/procctl.h>
#endif

#include "sys.h"

double
mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

unsigned long long
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL +
	    (unsigned long long)ts.tv_nsec;
}

void
close_fds(int lo, int hi, int keep)
{
#ifdef HAVE_CLOSE_RANGE
	/* one call per side of keep, when the kernel has close_range */
	int ok = 1;
	if (keep >= lo && (hi < 0 || keep < hi)) {
		if (keep > lo)
			ok = close_range((unsigned)lo, (unsigned)keep - 1, 0) == 0;
		if (ok)
			ok = close_range((unsigned)keep + 1,
			    hi < 0 ? ~0U : (unsigned)hi - 1, 0) == 0;
	} else
		ok = close_range((unsigned)lo, hi < 0 ? ~0U : (unsigned)hi - 1, 0) == 0;
	if (ok)
		return;
#endif
	long max = sysconf(_SC_OPEN_MAX);
	if (max < 0 || max > 65536)
		max = 65536;
	for (int fd = lo; fd < (hi < 0 ? max : hi); fd++)
		if (fd != keep)
			close(fd);
}

int
subreaper_acquire(void)
{
#if defined(HAVE_SYS_PRCTL_H) && defined(PR_SET_CHILD_SUBREAPER)
	return prctl(PR_SET_CHILD_SUBREAPER, 1) == 0 ? 0 : -1;
#elif defined(HAVE_SYS_PROCCTL_H) && defined(PROC_REAP_ACQUIRE)
	return procctl(P_PID, getpid(), PROC_REAP_ACQUIRE, NULL) == 0 ? 0 : -1;
#else
	return -1;
#endif
}

void
reap_orphans(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}
