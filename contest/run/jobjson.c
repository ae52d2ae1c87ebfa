/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * schbench -j FILE: its final figures as JSON, read instead of its text
 * where the job asked for the file.  The text's starred p99 is the JSON's
 * "wakeup_latency_pct99.0" and "request_latency_pct99.0"; a block of no
 * samples has every member 0, its max too, and is no figure.  The
 * average rps is in the text alone ("rps_pct50.0" is a percentile, not
 * it), and -p's transfer rate too: those stay the text's.  "-j -" writes
 * the JSON into the output, a line of its own.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jarena.h"
#include "jobmetric.h"
#include "jsonl.h"
#include "util.h"

#define JSON_MAX	(1u << 20)

/* The metrics the JSON holds, by the preset's names. */
static const struct {
	const char	*metric, *key, *max;
} from_json[] = {
	{ "wakeup_p99", "wakeup_latency_pct99.0", "wakeup_latency_max" },
	{ "request_p99", "request_latency_pct99.0", "request_latency_max" },
};

/* The length of the object doc begins with (schbench ends "-j -"'s with
 * no newline: its text report follows on the same line). */
static size_t
object_len(const char *doc)
{
	int depth = 0, in_str = 0;

	for (size_t i = 0; doc[i]; i++) {
		char c = doc[i];
		if (in_str) {
			if (c == '\\' && doc[i + 1])
				i++;
			else if (c == '"')
				in_str = 0;
		} else if (c == '"')
			in_str = 1;
		else if (c == '{')
			depth++;
		else if (c == '}' && --depth == 0)
			return i + 1;
	}
	return strlen(doc);
}

/* FILE of the job's -j FILE (or --json FILE, -jFILE), or NULL. */
static const char *
json_arg(char *const argv[])
{
	for (size_t i = 1; argv[i]; i++) {
		if ((strcmp(argv[i], "-j") == 0 || strcmp(argv[i], "--json") == 0) &&
		    argv[i + 1])
			return argv[i + 1];
		if (strncmp(argv[i], "-j", 2) == 0 && argv[i][2])
			return argv[i] + 2;
		if (strncmp(argv[i], "--json=", 7) == 0)
			return argv[i] + 7;
	}
	return NULL;
}

/* The file's text (malloc'd, NUL-terminated), written at or after t0;
 * NULL with why. */
static char *
read_new(int dirfd, const char *path, double t0, char *why, size_t whylen)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	struct stat st;
	char *buf = NULL;
	ssize_t n;

	if (fd < 0) {
		snprintf(why, whylen, "schbench's -j file %.200s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > JSON_MAX)
		snprintf(why, whylen, "schbench's -j file %.200s: not a file of at "
		    "most 1 MiB", path);
	else if ((double)st.st_mtim.tv_sec + st.st_mtim.tv_nsec / 1e9 < t0 - 1)
		snprintf(why, whylen, "schbench's -j file %.200s: older than the run "
		    "(not written by it)", path);
	else if ((n = read(fd, buf = xcalloc((size_t)st.st_size + 1, 1),
	    (size_t)st.st_size)) != st.st_size) {
		snprintf(why, whylen, "schbench's -j file %.200s: short read", path);
		free(buf);
		buf = NULL;
	}
	close(fd);
	return buf;
}

int
jm_json(const struct job_metric *m, size_t n, char *const argv[], int dirfd,
    double t0, const char *text, double *v, const char **absent, char *why,
    size_t whylen)
{
	const char *path = NULL, *doc = NULL;
	char *file = NULL;
	struct jarena a = { 0 };
	int rc = 0;

	/* schbench's -j alone: make -j4 is no file */
	for (size_t i = 0; i < n && path == NULL; i++)
		if (m[i].preset && strcmp(m[i].preset, "schbench") == 0)
			path = json_arg(argv);
	if (path == NULL)
		return 0;
	if (strcmp(path, "-") == 0)
		doc = strstr(text, "{\"normal\"");
	else
		doc = file = read_new(dirfd < 0 ? AT_FDCWD : dirfd, path, t0, why, whylen);
	if (doc == NULL)
		return path[0] == '-' && path[1] == '\0' ? 0 : -1;
	const struct jnode *o = jsonl_parse(doc, object_len(doc), &a);
	const struct jnode *ints = o ? jget(o, "int") : NULL;
	if (ints == NULL) {
		snprintf(why, whylen, "schbench's -j file %.200s: not schbench's JSON",
		    path);
		rc = -1;
	}
	for (size_t i = 0; ints && i < n; i++)
		for (size_t k = 0; k < sizeof from_json / sizeof from_json[0]; k++)
			if (m[i].preset && strcmp(m[i].preset, "schbench") == 0 &&
			    strcmp(m[i].name, from_json[k].metric) == 0) {
				double x = jget_num(ints, from_json[k].key, NAN);
				double max = jget_num(ints, from_json[k].max, NAN);
				v[i] = isnan(max) || max > 0 ? x : NAN;
				absent[i] = isnan(v[i]) ? m[i].absent : NULL;
			}
	jarena_free(&a);
	free(file);
	return rc;
}
