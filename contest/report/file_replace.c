/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A file the report writes (a chart, a page of the site) written whole
 * beside its name and renamed over it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"
#include "util.h"

int
file_replace(const char *path, void (*drawfn)(FILE *, const void *), const void *arg)
{
	char tmp[4096];
	FILE *f;

	/* Written beside and renamed over: a reader never sees half a file.
	 * A new name of mkstemp's, never one someone could have planted a
	 * symlink at; the mode a plain create would give. */
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path + 1) : 0;
	if (snprintf(tmp, sizeof tmp, "%.*s.%s.XXXXXX", dirlen, path,
	    slash ? slash + 1 : path) >= (int)sizeof tmp) {
		warnmsg("%s: name too long", path);
		return -1;
	}
	int fd = mkstemp(tmp);
	if (fd < 0) {
		warnmsg("%s: %s", path, strerror(errno));
		return -1;
	}
	mode_t mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || (f = fdopen(fd, "w")) == NULL) {
		warnmsg("%s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return -1;
	}
	drawfn(f, arg);
	if (fflush(f) != 0 || ferror(f)) {
		int e = errno ? errno : EIO;
		fclose(f);
		unlink(tmp);
		warnmsg("%s: %s", path, strerror(e));
		return -1;
	}
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		int e = errno;
		unlink(tmp);
		warnmsg("%s: %s", path, strerror(e));
		return -1;
	}
	return 0;
}
