/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results.jsonl and the session's log, opened in a checked results dir;
 * each run's line appended whole under a lock (a cut last line mended
 * first, half a line taken back), and the session's lines kept for its
 * table.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "resultline.h"
#include "results.h"
#include "trust.h"
#include "util.h"

/* Room for a few result lines at least, or the first run would be lost. */
#define RESULTS_MIN_FREE	(16 * 1024)

/*
 * Under the lock: a last line cut short (a crash, a full disk, a session
 * killed in its write) is named and closed with a newline, so that ours
 * starts whole.  Readers skip the cut line with a warning, and read
 * every other.
 */
static int
results_mend(struct session *s)
{
	struct stat st;
	char last;

	if (fstat(s->results_fd, &st) < 0)
		return -1;
	if (st.st_size == 0 || pread(s->results_fd, &last, 1, st.st_size - 1) != 1 ||
	    last == '\n')
		return 0;
	/* Which line it is: one more than the newlines before it. */
	unsigned long long lines = 1;
	char buf[65536];
	ssize_t n;
	for (off_t at = 0; (n = pread(s->results_fd, buf, sizeof buf, at)) > 0; at += n)
		for (ssize_t i = 0; i < n; i++)
			lines += buf[i] == '\n';
	warnmsg("%s: line %llu is incomplete (a run cut short); readers skip it, "
	    "new lines follow it", s->results_path, lines);
	return write(s->results_fd, "\n", 1) == 1 ? 0 : -1;
}

/* One session at a time appends or takes back: a rollback never cuts
 * another's line, and a line cut by a killed writer is mended first. */
static int
results_lock(struct session *s, int op)
{
	while (flock(s->results_fd, op) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}


/* Where the job's output is caught for --job-metric: a file in logs/
 * unlinked at once, so no end of the driver's leaves it behind. */
static int
open_capture(struct session *s, int logs, char *err, size_t errlen)
{
	char path[4096], name[300];

	snprintf(name, sizeof name, "%s.capture", s->id);
	snprintf(path, sizeof path, "%s/logs/%s", s->dir, name);
	s->cap_fd = trust_openat(logs, path, name, O_RDWR | O_APPEND | O_CREAT |
	    O_EXCL, err, errlen);
	if (s->cap_fd < 0)
		return -1;
	if (unlinkat(logs, name, 0) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Before the first run: a full disk is an error now, not after an hour
 * of runs; a cut last line is mended. */
static int
results_check(struct session *s, char *err, size_t errlen)
{
	struct statvfs vfs;

	if (fstatvfs(s->results_fd, &vfs) == 0 &&
	    (unsigned long long)vfs.f_bavail * vfs.f_frsize < RESULTS_MIN_FREE) {
		snprintf(err, errlen, "results dir %s: no space left (%llu bytes free)",
		    s->dir, (unsigned long long)vfs.f_bavail * vfs.f_frsize);
		return -1;
	}
	int bad = results_lock(s, LOCK_EX) < 0 || results_mend(s) < 0;
	int e = errno;
	results_lock(s, LOCK_UN);
	if (bad) {
		snprintf(err, errlen, "%s: %s", s->results_path, strerror(e));
		return -1;
	}
	return 0;
}

int
results_open(struct session *s, char *err, size_t errlen)
{
	char path[4200];

	/* nothing is written where another uid could have planted it, and
	 * nothing by a path once it has been checked */
	if ((s->dir_fd = trust_walk(s->dir, 1, err, errlen)) < 0)
		return -1;
	snprintf(path, sizeof path, "%s/%s", s->dir, RESULTS_FILE);
	s->results_fd = trust_openat(s->dir_fd, path, RESULTS_FILE,
	    O_RDWR | O_APPEND | O_CREAT, err, errlen);
	if (s->results_fd < 0)
		return -1;
	s->results_path = xstrdup(path);
	if (results_check(s, err, errlen) < 0)
		return -1;

	int logs = trust_subdir(s->dir_fd, s->dir, "logs", 1, err, errlen);
	if (logs < 0)
		return -1;
	snprintf(path, sizeof path, "%s/logs/%s.log", s->dir, s->id);
	char name[300];
	snprintf(name, sizeof name, "%s.log", s->id);
	s->log_fd = trust_openat(logs, path, name, O_WRONLY | O_APPEND | O_CREAT |
	    O_EXCL, err, errlen);
	if (s->log_fd >= 0 && s->cfg.njm && open_capture(s, logs, err, errlen) < 0) {
		close(logs);
		return -1;
	}
	close(logs);
	if (s->log_fd < 0)
		return -1;
	s->log_path = xstrdup(path);
	return 0;
}

/* The session's lines, as written: what its table is made from. */
static void
keep_line(struct session *s, const char *line, size_t len)
{
	xgrow(&s->lines, &s->lines_cap, s->lines_len + len, 1, 4096);
	memcpy(s->lines + s->lines_len, line, len);
	s->lines_len += len;
}

int
results_append(struct session *s, const struct run_record *r)
{
	size_t len;
	/* One write of the whole line: O_APPEND keeps concurrent writers'
	 * lines whole, and a reader never sees half a line from us. */
	char *line = results_line(s, r, &len);

	if (line == NULL) {
		errno = ENOMEM;
		return -1;
	}
	ssize_t w;
	if (results_lock(s, LOCK_EX) < 0 || results_mend(s) < 0) {
		int e = errno;
		results_lock(s, LOCK_UN);
		free(line);
		errno = e;
		return -1;
	}
	while ((w = write(s->results_fd, line, len)) < 0 && errno == EINTR)
		;
	if (w >= 0 && (size_t)w != len) {
		/* Half a line: take it back.  Under the lock nobody else
		 * has written since, so our end is the file's. */
		off_t end = lseek(s->results_fd, 0, SEEK_CUR);
		if (end >= w)
			(void)!ftruncate(s->results_fd, end - w);
		errno = ENOSPC;
		w = -1;
	}
	int e = errno;
	if (w >= 0 && fsync(s->results_fd) < 0 && errno != EINVAL) {
		e = errno;
		w = -1;
	}
	results_lock(s, LOCK_UN);
	if (w < 0) {
		free(line);
		errno = e;
		return -1;
	}
	keep_line(s, line, len);
	free(line);
	return 0;
}
