/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

int
helper_path(const char *name, const char *dir, char *buf, size_t len)
{
	char self[4096];
	ssize_t n;

	/* Linux names the running image; elsewhere only dir is looked in. */
	if ((n = readlink("/proc/self/exe", self, sizeof self - 1)) > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			if ((size_t)snprintf(buf, len, "%s/%s", self, name) < len &&
			    access(buf, X_OK) == 0)
				return 0;
		}
	}
	return (size_t)snprintf(buf, len, "%s/%s", dir, name) < len ? 0 : -1;
}

int
anon_shm(size_t size)
{
	int fd;

#ifdef HAVE_MEMFD_CREATE
	fd = memfd_create("contest-shm", MFD_CLOEXEC);
#elif defined(SHM_ANON)
	fd = shm_open(SHM_ANON, O_RDWR | O_CLOEXEC, 0600);
#else
	char path[] = "/tmp/.contest-shm-XXXXXX";
	if ((fd = mkstemp(path)) >= 0) {
		unlink(path);
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	}
#endif
	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)size) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int
die_with_parent(int parent_pid)
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

int
std_fds_open(void)
{
	int fd;

	/* each open takes the lowest closed fd: until one lands above 2 */
	while ((fd = open("/dev/null", O_RDWR)) >= 0 && fd <= 2)
		;
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

void
oom_first(void)
{
	int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		ssize_t w = write(fd, "1000", 4);
		(void)w;
		close(fd);
	}
}
