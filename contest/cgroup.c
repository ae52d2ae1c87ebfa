#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "proc.h"
#include "util.h"

static char session[4096];
static pid_t owner;

const char *
cg_session_path(void)
{
	return session[0] ? session : NULL;
}

static int
write_file(const char *dir, const char *file, const char *text)
{
	char path[4200];
	int fd;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) < 0)
		return -1;
	ssize_t n = write(fd, text, strlen(text));
	int e = errno;
	close(fd);
	errno = e;
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* The cgroup2 mount point, from a mountinfo line. */
static int
v2_mount(const char *line, char *out, size_t len)
{
	const char *dash = strstr(line, " - ");
	char mnt[1024];

	return dash && strncmp(dash + 3, "cgroup2 ", 8) == 0 &&
	    sscanf(line, "%*s %*s %*s %*s %1023s", mnt) == 1 &&
	    (size_t)snprintf(out, len, "%s", mnt) < len;
}

/* Our own cgroup v2 path, from a /proc/self/cgroup line ("0::/path"). */
static int
v2_self(const char *line, char *out, size_t len)
{
	return strncmp(line, "0::", 3) == 0 &&
	    (size_t)snprintf(out, len, "%.*s", (int)strcspn(line + 3, "\n"),
	    line + 3) < len;
}

/* 0 when some line of file made match() fill out; else -1. */
static int
find_line(const char *file, int (*match)(const char *, char *, size_t),
    char *out, size_t len)
{
	char line[1024];
	FILE *f = fopen(file, "re");
	int found = -1;

	if (f == NULL)
		return -1;
	while (found < 0 && fgets(line, sizeof line, f))
		if (match(line, out, len))
			found = 0;
	fclose(f);
	return found;
}

static void
session_remove(void)
{
	if (session[0] && getpid() == owner)
		rmdir(session);
}

int
cg_session_init(char *why, size_t whylen)
{
	char mnt[1024], self[1024];

	if (find_line("/proc/self/mountinfo", v2_mount, mnt, sizeof mnt) < 0 ||
	    find_line("/proc/self/cgroup", v2_self, self, sizeof self) < 0) {
		snprintf(why, whylen, "no cgroup v2 hierarchy");
		return -1;
	}
	snprintf(session, sizeof session, "%s%s%scontest-%ld", mnt, self,
	    self[strlen(self) - 1] == '/' ? "" : "/", (long)getpid());
	if (mkdir(session, 0755) < 0) {
		snprintf(why, whylen, "cannot make a cgroup in %s%s: %s", mnt,
		    self, strerror(errno));
		session[0] = '\0';
		return -1;
	}
	char probe[4200];
	snprintf(probe, sizeof probe, "%s/cgroup.kill", session);
	if (access(probe, W_OK) < 0) {
		snprintf(why, whylen, "no cgroup.kill (Linux 5.14+)");
		rmdir(session);
		session[0] = '\0';
		return -1;
	}
	owner = getpid();
	atexit(session_remove);
	return 0;
}

int
cg_create(struct cgroup *cg, const char *name, long long pids_max)
{
	char path[4200];

	cg->procs_fd = -1;
	cg->has_pids_max = 0;
	if (session[0] == '\0')
		return -1;
	if ((size_t)snprintf(cg->path, sizeof cg->path, "%s/%s", session, name)
	    >= sizeof cg->path || mkdir(cg->path, 0755) < 0)
		return -1;
	if (pids_max > 0) {
		char v[32];
		snprintf(v, sizeof v, "%lld", pids_max);
		cg->has_pids_max = write_file(cg->path, "pids.max", v) == 0;
	}
	snprintf(path, sizeof path, "%s/cgroup.procs", cg->path);
	if ((cg->procs_fd = open(path, O_WRONLY | O_CLOEXEC)) < 0) {
		rmdir(cg->path);
		return -1;
	}
	return 0;
}

void
cg_enter(int procs_fd)
{
	char pid[32];
	int n = snprintf(pid, sizeof pid, "%ld", (long)getpid());

	if (procs_fd >= 0 && write(procs_fd, pid, (size_t)n) != n)
		_exit(126);	/* outside the cgroup, it could escape it */
}

double
cg_cpu_seconds(const struct cgroup *cg)
{
	char path[4200], buf[1024];
	unsigned long long usec;

	snprintf(path, sizeof path, "%s/cpu.stat", cg->path);
	if (read_small(path, buf, sizeof buf) < 0 ||
	    sscanf(buf, "usage_usec %llu", &usec) != 1)
		return -1;
	return (double)usec / 1e6;
}

static int
populated(const struct cgroup *cg)
{
	char path[4200], buf[256];

	snprintf(path, sizeof path, "%s/cgroup.events", cg->path);
	if (read_small(path, buf, sizeof buf) < 0)
		return 0;
	return strstr(buf, "populated 1") != NULL;
}

void
cg_destroy(struct cgroup *cg)
{
	if (cg->procs_fd < 0)
		return;
	close(cg->procs_fd);
	cg->procs_fd = -1;
	write_file(cg->path, "cgroup.kill", "1");
	/* The dead come back to us (subreaper) to be reaped; a few ms. */
	for (int i = 0; i < 2000 && populated(cg); i++) {
		proc_reap_orphans();
		struct timespec ts = { 0, 1000000L };
		nanosleep(&ts, NULL);
	}
	proc_reap_orphans();
	if (rmdir(cg->path) < 0)
		warnmsg("cannot remove %s: %s", cg->path, strerror(errno));
}

void
cg_session_kill(const char *path)
{
	struct cgroup top;
	char sub[4200];
	DIR *d;
	struct dirent *de;

	snprintf(top.path, sizeof top.path, "%s", path);
	write_file(path, "cgroup.kill", "1");
	/* Not our children: init reaps them; just wait for them to go. */
	for (int i = 0; i < 200 && populated(&top); i++) {
		struct timespec ts = { 0, 10000000L };
		nanosleep(&ts, NULL);
	}
	if ((d = opendir(path)) != NULL) {
		while ((de = readdir(d)) != NULL)
			if (de->d_name[0] != '.' &&
			    (size_t)snprintf(sub, sizeof sub, "%s/%s", path,
			    de->d_name) < sizeof sub)
				rmdir(sub);	/* the run cgroups; files refuse */
		closedir(d);
	}
	rmdir(path);
}
