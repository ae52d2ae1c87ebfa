/* SPDX-License-Identifier: GPL-2.0-or-later */
/* scripts/bench/forkloop.c: the bare fork loop the benches put fork_load beside:
 * fork, _exit, waitpid for SECS seconds, then forks a second.  -DRAW makes
 * the child with the fork system call itself, clone(SIGCHLD), as fork_load
 * does; without it, with libc's fork(). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
	double secs = atof(argv[1]), t0, now;
	struct timespec ts;
	unsigned long n = 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t0 = ts.tv_sec + ts.tv_nsec / 1e9;
	do {
#ifdef RAW
		pid_t p = syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
#else
		pid_t p = fork();
#endif
		if (p == 0) _exit(0);
		if (p > 0 && waitpid(p, NULL, 0) == p) n++;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		now = ts.tv_sec + ts.tv_nsec / 1e9;
	} while (now - t0 < secs);
	printf("%.1f\n", n / (now - t0));
	return 0;
}
