/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the cgroups are, read from /proc: the v2 mount and our place in
 * it, the v1 pids hierarchy and ours, whether systemd delegated a cgroup
 * to us and whether only our processes are in it; and one file written.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cgroup_find.h"
#include "util.h"

int
cg_write_file(const char *dir, const char *file, const char *text)
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
int
cg_v2_mount(const char *line, char *out, size_t len)
{
	const char *dash = strstr(line, " - ");
	char mnt[1024];

	return dash && strncmp(dash + 3, "cgroup2 ", 8) == 0 &&
	    sscanf(line, "%*s %*s %*s %*s %1023s", mnt) == 1 &&
	    (size_t)snprintf(out, len, "%s", mnt) < len;
}

/* Our own cgroup v2 path, from a /proc/self/cgroup line ("0::/path"). */
int
cg_v2_self(const char *line, char *out, size_t len)
{
	return strncmp(line, "0::", 3) == 0 &&
	    (size_t)snprintf(out, len, "%.*s", (int)strcspn(line + 3, "\n"),
	    line + 3) < len;
}

/* 0 when some line of file made match() fill out; else -1. */
int
cg_find_line(const char *file, int (*match)(const char *, char *, size_t),
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

/* A v1 hierarchy of the pids controller, from a mountinfo line. */
int
cg_v1_pids_mount(const char *line, char *out, size_t len)
{
	const char *dash = strstr(line, " - ");
	char mnt[1024], opts[1024];

	if (dash == NULL || strncmp(dash + 3, "cgroup ", 7) != 0 ||
	    sscanf(dash + 3, "%*s %*s %1023s", opts) != 1 ||
	    sscanf(line, "%*s %*s %*s %*s %1023s", mnt) != 1)
		return 0;
	for (char *o = strtok(opts, ","); o; o = strtok(NULL, ","))
		if (strcmp(o, "pids") == 0)
			return (size_t)snprintf(out, len, "%s", mnt) < len;
	return 0;
}

/* Our path in the v1 pids hierarchy ("N:pids:/path"). */
int
cg_v1_pids_self(const char *line, char *out, size_t len)
{
	const char *c = strchr(line, ':');

	if (c == NULL || strncmp(c + 1, "pids:", 5) != 0)
		return 0;
	return (size_t)snprintf(out, len, "%.*s", (int)strcspn(c + 6, "\n"),
	    c + 6) < len;
}

/* systemd 253+ marks a cgroup it hands over (Delegate=yes) with an
 * xattr; a scope contest made itself (scope.c) is one, xattr or not;
 * and one handed to a user is chowned to the user. */
int
cg_delegated(const char *dir)
{
	const char *base = strrchr(dir, '/'), *ours = getenv("CONTEST_SCOPE");
	char v[8];
	struct stat st;

	return (geteuid() != 0 && stat(dir, &st) == 0 && st.st_uid == geteuid()) ||
	    getxattr(dir, "trusted.delegate", v, sizeof v) > 0 ||
	    getxattr(dir, "user.delegate", v, sizeof v) > 0 ||
	    (base && ours && strcmp(base + 1, ours) == 0);
}

/* 1 when the space-separated list in file holds word. */
int
cg_has_word(const char *dir, const char *file, const char *word)
{
	char path[4200], buf[512];
	size_t n = strlen(word);

	snprintf(path, sizeof path, "%s/%s", dir, file);
	if (read_small(path, buf, sizeof buf) < 0)
		return 0;
	for (char *p = buf; (p = strstr(p, word)) != NULL; p += n)
		if ((p == buf || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n' ||
		    p[n] == '\0'))
			return 1;
	return 0;
}

/* The parent of pid, or -1. */
static long
cg_ppid_of(long pid)
{
	char path[64], buf[512], *p;
	long pp;

	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if (read_small(path, buf, sizeof buf) < 0 || (p = strrchr(buf, ')')) == NULL ||
	    sscanf(p + 1, " %*c %ld", &pp) != 1)
		return -1;
	return pp;
}

/* The processes in the cgroup dir into pids (n of them) when they are
 * no one but us and our children (the watchdog); else -1. */
int
cg_only_ours(const char *dir, long *pids, int max)
{
	char path[4200], buf[4096];
	long me = (long)getpid();
	int n = 0;

	snprintf(path, sizeof path, "%s/cgroup.procs", dir);
	if (read_small(path, buf, sizeof buf) < 0)
		return -1;
	for (char *p = strtok(buf, "\n"); p; p = strtok(NULL, "\n")) {
		long pid = strtol(p, NULL, 10);
		if (n == max || (pid != me && cg_ppid_of(pid) != me))
			return -1;
		pids[n++] = pid;
	}
	return n;
}

/* Move us and our children from dir into dir/to: 0, or -1 when others
 * are in dir too (nothing moved then). */
int
cg_move_ours(const char *dir, const char *to)
{
	long pids[64];
	int n = cg_only_ours(dir, pids, 64);

	if (n < 0 || (mkdir(to, 0755) < 0 && errno != EEXIST))
		return -1;
	for (int i = 0; i < n; i++) {
		char v[32];
		snprintf(v, sizeof v, "%ld", pids[i]);
		if (cg_write_file(to, "cgroup.procs", v) < 0 && errno != ESRCH)
			return -1;
	}
	return 0;
}

