/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a command name runs, found as execvp finds it: checked before any
 * load starts, and given to the job's child, which may not search. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "command.h"

static int
runnable(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return errno == ENOTDIR ? ENOENT : errno;
	if (S_ISDIR(st.st_mode))
		return EISDIR;
	return access(path, X_OK) < 0 ? EACCES : 0;
}

int
command_find(const char *name, char *found, size_t len)
{
	const char *path = getenv("PATH");
	int seen = ENOENT;

	if (found && len)
		snprintf(found, len, "%s", strchr(name, '/') ? name : "");
	if (strchr(name, '/'))
		return runnable(name);
	if (path == NULL)
		path = "/bin:/usr/bin";
	/* As execvp searches: the first runnable entry wins; one found but
	 * not runnable makes the failure "permission denied". */
	for (const char *p = path;; p++) {
		const char *end = strchr(p, ':');
		size_t dlen = end ? (size_t)(end - p) : strlen(p);
		char full[4096];
		if (snprintf(full, sizeof full, "%.*s%s%s", (int)dlen, p,
		    dlen ? "/" : "", name) < (int)sizeof full) {
			int e = runnable(full);
			if (e == 0) {
				if (found && len)
					snprintf(found, len, "%s", full);
				return 0;
			}
			if (e != ENOENT && seen == ENOENT && found && len)
				snprintf(found, len, "%s", full);
			if (e != ENOENT)
				seen = e;
		}
		if (end == NULL)
			return seen;
		p = end;
	}
}
