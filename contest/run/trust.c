#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trust.h"

static int
ours(uid_t uid)
{
	return uid == geteuid() || uid == 0;
}

/* Owner and mode of one thing we are about to trust. */
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

/* Every prefix of path as given: a symlink on the way must be ours. */
static int
check_links(const char *path, char *err, size_t len)
{
	char buf[PATH_MAX];
	struct stat st;

	if (strlen(path) >= sizeof buf) {
		snprintf(err, len, "%.200s...: path too long", path);
		return -1;
	}
	strcpy(buf, path);
	for (char *p = buf + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;
		*p = '\0';
		if (lstat(buf, &st) == 0 && S_ISLNK(st.st_mode) && !ours(st.st_uid)) {
			snprintf(err, len, "%s is a symlink owned by uid %ld: contest does not "
			    "follow it; remove it, or give -o DIR", buf, (long)st.st_uid);
			return -1;
		}
		*p = c;
		if (c == '\0')
			return 0;
	}
}

/* Each parent of the real directory: none writable by others unsticky. */
static int
check_parents(const char *real, char *err, size_t len)
{
	char buf[PATH_MAX];
	struct stat st;

	snprintf(buf, sizeof buf, "%s", real);
	for (char *slash = strrchr(buf, '/'); slash; slash = strrchr(buf, '/')) {
		if (slash == buf)
			slash[1] = '\0';	/* "/" itself */
		else
			*slash = '\0';
		if (stat(buf, &st) == 0 && (st.st_mode & S_IWOTH) &&
		    !(st.st_mode & S_ISVTX)) {
			snprintf(err, len, "%s, a parent of the results dir, is writable by "
			    "others without the sticky bit: chmod o-w '%s' (or +t), or give "
			    "-o DIR", buf, buf);
			return -1;
		}
		if (slash == buf)
			break;
	}
	return 0;
}

int
trust_dir(const char *path, char *err, size_t len)
{
	char real[PATH_MAX];
	struct stat st;

	if (check_links(path, err, len) < 0)
		return -1;
	if (stat(path, &st) < 0) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, len, "%s: not a directory", path);
		return -1;
	}
	if (check_owner_mode(path, &st, err, len) < 0)
		return -1;
	if (realpath(path, real) == NULL) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	return check_parents(real, err, len);
}

int
trust_file(const char *path, char *err, size_t len)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : (snprintf(err, len, "%s: %s", path,
		    strerror(errno)), -1);
	if (S_ISLNK(st.st_mode)) {
		snprintf(err, len, "%s is a symlink: contest does not follow it; "
		    "remove it, or give -o DIR", path);
		return -1;
	}
	return check_owner_mode(path, &st, err, len);
}

int
trust_new(const char *path, char *err, size_t len)
{
	char buf[PATH_MAX], real[PATH_MAX];
	struct stat st;

	if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
		snprintf(err, len, "%.200s...: path too long", path);
		return -1;
	}
	/* the nearest ancestor that exists: where the new directories go */
	while (stat(buf, &st) < 0) {
		char *slash = strrchr(buf, '/');
		if (slash == NULL) {
			snprintf(buf, sizeof buf, ".");
			break;
		}
		if (slash == buf) {
			buf[1] = '\0';
			break;
		}
		*slash = '\0';
	}
	if (check_links(buf, err, len) < 0)
		return -1;
	if (realpath(buf, real) == NULL || strlen(real) + 3 > sizeof real) {
		snprintf(err, len, "%s: %s", buf, strerror(errno));
		return -1;
	}
	strcat(real, strcmp(real, "/") == 0 ? "x" : "/x");
	return check_parents(real, err, len);
}
