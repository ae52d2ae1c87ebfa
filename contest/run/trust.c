/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trust.h"

/* Parents are only passed through: O_PATH needs no read permission on
 * them (a home dir of mode 0711), where the system has it. */
#ifdef O_PATH
#define WALK_FLAGS	(O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#else
#define WALK_FLAGS	(O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#endif
#define LAST_FLAGS	(O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#define MAX_LINKS	40

static int
ours(uid_t uid)
{
	return uid == geteuid() || uid == 0;
}

/* The results dir, a file in it, or a tree to run: ours, and writable by
 * nobody else at all. */
static int
check_owner_mode(const char *path, const struct stat *st, char *err, size_t len)
{
	if (!ours(st->st_uid)) {
		snprintf(err, len, "%s is owned by uid %ld, not by you (uid %ld) or "
		    "root: chown %ld '%s', or give -o DIR", path, (long)st->st_uid,
		    (long)geteuid(), (long)geteuid(), path);
		return -1;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(err, len, "%s is writable by %s (mode %04o): chmod go-w '%s', "
		    "or give -o DIR", path, st->st_mode & S_IWOTH ? "others" : "its group",
		    (unsigned)(st->st_mode & 07777), path);
		return -1;
	}
	return 0;
}

/* A directory on the way: ours, and if others may write it, sticky (as
 * /tmp), so that nobody else can rename what is in it.  As ssh's
 * StrictModes: whoever owns or may write a parent can swap what is below. */
static int
check_parent(const char *path, const struct stat *st, char *err, size_t len)
{
	const char *fix = "or give -o DIR under directories only you and root "
	    "can write (such as /var/lib/contest)";

	if (!ours(st->st_uid)) {
		snprintf(err, len, "%s, a parent of the results dir, is owned by uid "
		    "%ld, not by you (uid %ld) or root: chown it, %s", path,
		    (long)st->st_uid, (long)geteuid(), fix);
		return -1;
	}
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX)) {
		int o = (st->st_mode & S_IWOTH) != 0;
		snprintf(err, len, "%s, a parent of the results dir, is writable by %s "
		    "without the sticky bit: chmod %s '%s' (or +t), %s", path,
		    o ? "others" : "its group", o ? "o-w" : "g-w", path, fix);
		return -1;
	}
	return 0;
}

/* shown + "/" + name, as a message names it */
static void
shown_add(char *shown, size_t len, const char *name)
{
	size_t n = strlen(shown);

	if (n && shown[n - 1] != '/' && n + 1 < len)
		shown[n++] = '/';
	snprintf(shown + n, len - n, "%s", name);
}

/* A step that failed for the system's reason: "results dir TOP: what" */
static void
sys_err(char *err, size_t len, const char *top, const char *shown, int e)
{
	if (strcmp(top, shown) == 0)
		snprintf(err, len, "results dir %s: %s", top, strerror(e));
	else
		snprintf(err, len, "results dir %s: %s: %s", top, shown, strerror(e));
}

/*
 * One step of the walk: name below the directory fd, which is checked.
 * A symlink ours to follow comes back as 1 with its target in link[];
 * a directory as 0 with *next open on it.
 */
static int
step(int fd, const char *name, const char *top, const char *shown, int last,
    int make, int *next, char *link, size_t linklen, char *err, size_t len)
{
	struct stat st, got;

	if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT || !make) {
			sys_err(err, len, top, shown, errno);
			return -1;
		}
		/* made by us under parents already checked: only ours */
		if ((mkdirat(fd, name, 0755) < 0 && errno != EEXIST) ||
		    fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			sys_err(err, len, top, shown, errno);
			return -1;
		}
	}
	if (S_ISLNK(st.st_mode)) {
		if (!ours(st.st_uid)) {
			snprintf(err, len, "%s is a symlink owned by uid %ld: contest does "
			    "not follow it; remove it, or give -o DIR", shown,
			    (long)st.st_uid);
			return -1;
		}
		ssize_t n = readlinkat(fd, name, link, linklen - 1);
		if (n < 0 || (size_t)n >= linklen - 1) {
			sys_err(err, len, top, shown, n < 0 ? errno : ENAMETOOLONG);
			return -1;
		}
		link[n] = '\0';
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		sys_err(err, len, top, shown, ENOTDIR);
		return -1;
	}
	*next = openat(fd, name, last ? LAST_FLAGS : WALK_FLAGS);
	/* what was opened is what was looked at: nothing swapped between */
	if (*next < 0 || fstat(*next, &got) < 0 || got.st_dev != st.st_dev ||
	    got.st_ino != st.st_ino) {
		snprintf(err, len, "%s changed while contest checked it: refusing it",
		    shown);
		if (*next >= 0)
			close(*next);
		return -1;
	}
	if ((last ? check_owner_mode : check_parent)(shown, &got, err, len) < 0) {
		close(*next);
		return -1;
	}
	return 0;
}

/*
 * Walk path's components from the directory fd: each one checked on the
 * descriptor that was opened.  Returns the last one's descriptor (fd
 * itself, a new one, when path has nothing to walk).  fd is consumed.
 */
static int
walk(int fd, const char *path, const char *top, char *shown, size_t shownlen,
    int lastcheck, int make, char *err, size_t len)
{
	char rest[PATH_MAX * 2], name[NAME_MAX + 1], link[PATH_MAX];
	unsigned links = 0;

	if (snprintf(rest, sizeof rest, "%s", path) >= (int)sizeof rest) {
		snprintf(err, len, "%.200s...: path too long", path);
		close(fd);
		return -1;
	}
	for (char *p = rest;;) {
		while (*p == '/')
			p++;
		if (*p == '\0')
			return fd;
		size_t n = strcspn(p, "/");
		if (n > NAME_MAX) {
			snprintf(err, len, "%.200s...: name too long", p);
			close(fd);
			return -1;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		p += n;
		while (*p == '/')
			p++;
		if (strcmp(name, ".") == 0)
			continue;
		int last = lastcheck && *p == '\0';
		char prev[sizeof link];
		snprintf(prev, sizeof prev, "%s", shown);
		shown_add(shown, shownlen, name);
		int next = -1;
		int r = step(fd, name, top, shown, last, make, &next, link, sizeof link,
		    err, len);
		if (r < 0) {
			close(fd);
			return -1;
		}
		if (r == 0) {
			close(fd);
			fd = next;
			continue;
		}
		/* a symlink of ours: its target, then what was after it */
		if (++links > MAX_LINKS) {
			sys_err(err, len, top, shown, ELOOP);
			close(fd);
			return -1;
		}
		char after[sizeof rest];
		snprintf(after, sizeof after, "%s", p);
		if (snprintf(rest, sizeof rest, "%s/%s", link, after) >= (int)sizeof rest) {
			snprintf(err, len, "%s: path too long", shown);
			close(fd);
			return -1;
		}
		p = rest;
		if (link[0] == '/') {
			close(fd);
			if ((fd = open("/", WALK_FLAGS)) < 0) {
				snprintf(err, len, "/: %s", strerror(errno));
				return -1;
			}
			snprintf(shown, shownlen, "/");
		} else
			snprintf(shown, shownlen, "%s", prev);
	}
}

int
trust_walk(const char *path, int make, char *err, size_t len)
{
	char shown[PATH_MAX], cwd[PATH_MAX];
	struct stat st;

	err[0] = '\0';
	if (path[0] == '\0') {
		snprintf(err, len, "results dir: empty name");
		return -1;
	}
	int fd = open("/", WALK_FLAGS);
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, len, "/: %s", strerror(errno));
		return -1;
	}
	if (check_parent("/", &st, err, len) < 0) {
		close(fd);
		return -1;
	}
	snprintf(shown, sizeof shown, "/");
	if (path[0] != '/') {
		/* where we are, as it really is: its parents count too */
		if (getcwd(cwd, sizeof cwd) == NULL || cwd[0] != '/') {
			snprintf(err, len, "the current directory: %s", strerror(errno));
			close(fd);
			return -1;
		}
		if ((fd = walk(fd, cwd, path, shown, sizeof shown, 0, 0, err, len)) < 0)
			return -1;
		shown[0] = '\0';
	}
	int r = walk(fd, path, path, shown, sizeof shown, 1, make, err, len);
	if (r < 0)
		return -1;
	/* a path naming only what was walked as a parent ("/", ".") is
	 * judged as the last; and opened to be read, not only passed */
	int d = openat(r, ".", LAST_FLAGS);
	close(r);
	if (d < 0 || fstat(d, &st) < 0) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		if (d >= 0)
			close(d);
		return -1;
	}
	if (check_owner_mode(path, &st, err, len) < 0) {
		close(d);
		return -1;
	}
	return d;
}

int
trust_subdir(int dirfd, const char *shown, const char *name, int make,
    char *err, size_t len)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof buf, "%s", shown);
	int fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 3);
	if (fd < 0) {
		snprintf(err, len, "%s: %s", shown, strerror(errno));
		return -1;
	}
	char top[PATH_MAX];
	snprintf(top, sizeof top, "%s/%s", shown, name);
	return walk(fd, name, top, buf, sizeof buf, 1, make, err, len);
}

int
trust_openat(int dirfd, const char *shown, const char *name, int flags,
    char *err, size_t len)
{
	struct stat st;

	/* non-blocking: a FIFO planted there must not hang us */
	int fd = openat(dirfd, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	if (fd < 0) {
		if (errno == ELOOP || errno == EMLINK)	/* EMLINK: the BSDs */
			snprintf(err, len, "%s is a symlink: contest does not follow it; "
			    "remove it, or give -o DIR", shown);
		else
			snprintf(err, len, "%s: %s", shown, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, len, "%s: not a regular file: refusing it", shown);
		close(fd);
		return -1;
	}
	if (check_owner_mode(shown, &st, err, len) < 0 ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		if (!err[0])
			snprintf(err, len, "%s: %s", shown, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}
