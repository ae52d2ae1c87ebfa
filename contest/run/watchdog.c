/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The watchdog: a process of its own, told through a pipe of every
 * process group the driver makes and kills, that kills whatever is left
 * when the pipe ends, as it does however the driver went (kill -9, a
 * crash).  It outlives what PR_SET_PDEATHSIG covers, one parent each.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup.h"
#include "pidset.h"
#include "sys.h"
#include "util.h"
#include "watchdog.h"

static int watch_fd = -1;
static pid_t watch_pid;

static pid_t driver_pid;	/* who may stop it: not a forked child */

/*
 * The watchdog's whole life: a list of process groups, kept up to date
 * through a pipe ("+PGID" / "-PGID" lines); at end of file, which comes
 * when the driver is gone however it went, SIGKILL every group still on
 * it.  PR_SET_PDEATHSIG covers only each process's own parent; this
 * covers the job's children (make's cc) and a load's commands too.
 */
static void __attribute__((noreturn))
watchdog(int rfd)
{
	struct pidset live = { NULL, 0, 0 };
	char buf[512], line[4200], cg[4200] = "", pcg[4200] = "";
	size_t ll = 0;
	ssize_t r;

	/* Its own group, deaf to the terminal: only EOF ends it. */
	setpgid(0, 0);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	close_fds(0, -1, rfd);
	if (chdir("/") < 0)
		_exit(1);
	while ((r = read(rfd, buf, sizeof buf)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (ssize_t i = 0; i < r; i++) {
			if (buf[i] != '\n') {
				if (ll < sizeof line - 1)
					line[ll++] = buf[i];
				continue;
			}
			line[ll] = '\0';
			ll = 0;
			if (line[0] == 'c') {	/* the session's cgroup */
				snprintf(cg, sizeof cg, "%s", line + 1);
				continue;
			}
			if (line[0] == 'p') {	/* its v1 pids directory */
				snprintf(pcg, sizeof pcg, "%s", line + 1);
				continue;
			}
			long pg = strtol(line + 1, NULL, 10);
			if (pg <= 1)
				continue;
			/* out of memory, the group is killed now, not forgotten */
			if (line[0] == '+' && pidset_add(&live, (pid_t)pg) < 0)
				kill(-(pid_t)pg, SIGKILL);
			if (line[0] == '-')
				pidset_del(&live, (pid_t)pg);
		}
	}
	for (size_t k = 0; k < live.n; k++)
		kill(-live.v[k], SIGKILL);
	if (cg[0])
		cg_session_kill(cg, pcg);
	_exit(0);
}

void
proc_watch_cgroup(const char *path, const char *pids_path)
{
	char msg[4200];
	int n = snprintf(msg, sizeof msg, "c%s\n", path);

	if (watch_fd >= 0 && n < (int)sizeof msg && write(watch_fd, msg, (size_t)n) != n)
		warnmsg("watchdog: %s", strerror(errno));
	n = pids_path ? snprintf(msg, sizeof msg, "p%s\n", pids_path) : 0;
	if (watch_fd >= 0 && n > 0 && n < (int)sizeof msg &&
	    write(watch_fd, msg, (size_t)n) != n)
		warnmsg("watchdog: %s", strerror(errno));
}

void
watch_tell(char op, pid_t pgid)
{
	char msg[32];
	int n = snprintf(msg, sizeof msg, "%c%ld\n", op, (long)pgid);

	/* One write under PIPE_BUF is atomic; a lost watchdog only loses
	 * the backstop, the driver still kills its groups itself. */
	if (watch_fd >= 0 && write(watch_fd, msg, (size_t)n) != n)
		warnmsg("watchdog: %s", strerror(errno));
}

/* At exit: close the pipe (nothing is left on the list) and reap it. */
static void
watch_stop(void)
{
	if (watch_fd < 0 || getpid() != driver_pid)
		return;
	close(watch_fd);
	watch_fd = -1;
	while (waitpid(watch_pid, NULL, 0) < 0 && errno == EINTR)
		;
}

void
watch_start(void)
{
	int fds[2];

	driver_pid = getpid();
	if (pipe2(fds, O_CLOEXEC) < 0)
		fatal(1, "watchdog pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0)
		fatal(1, "cannot fork the watchdog: %s", strerror(errno));
	if (pid == 0)
		watchdog(fds[0]);
	close(fds[0]);
	watch_fd = fds[1];
	watch_pid = pid;
	atexit(watch_stop);
}
