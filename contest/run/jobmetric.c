/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jobmetric.h"
#include "jobregex.h"
#include "util.h"

const char *const jm_of_names[] = { "last", "max", "mean" };

const struct jm_preset jm_presets[] = {
	{ "hackbench", "hackbench's (rt-tests) Time: line, seconds" },
	{ "perf-messaging", "perf bench sched messaging's Total time, seconds" },
	{ "perf-pipe", "perf bench sched pipe's usecs/op and ops/sec" },
	{ "cyclictest", "cyclictest's threads (with -q or not): the worst Max and "
	  "the mean Avg, us" },
	{ "schbench", "schbench's wakeup and request p99 (us), average rps and "
	  "-p's worker transfer (ops/s), each where its mode prints it" },
	{ NULL, NULL },
};

/* A preset's metrics, as their programs print them. */
static const struct jm_row {
	const char	*preset, *name, *regex, *unit;
	int		 higher;
	enum jm_of	 of;
	int		 lines;
	/* where a mode of the program prints no such figure: why it is
	 * absent (the run stands); NULL: its absence fails the run */
	const char	*absent;
	/* the report is what follows the last of these in the output (a
	 * program that redraws its screen); NULL: all of it */
	const char	*from;
} rows[] = {
	{ "hackbench", "hackbench", "^Time: *([0-9]+\\.?[0-9]*)", "s", 0, JM_LAST, 1,
	  NULL, NULL },
	{ "perf-messaging", "messaging", "Total time: *([0-9]+\\.?[0-9]*) \\[sec\\]", "s",
	  0, JM_LAST, 1, NULL, NULL },
	{ "perf-pipe", "pipe_usecs", "^ *([0-9]+\\.?[0-9]*) usecs/op", "us", 0, JM_LAST, 1,
	  NULL, NULL },
	{ "perf-pipe", "pipe_ops", "^ *([0-9]+\\.?[0-9]*) ops/sec", "ops/s", 1, JM_LAST, 1,
	  NULL, NULL },
	/* one line a thread with -q; without it the screen is redrawn
	 * (ESC [ nA, cursor up) a line a thread each refresh, and the last
	 * drawing is the final one */
	{ "cyclictest", "ct_max", "^T: *[0-9]+ .* Max: *([0-9]+)", "us", 0, JM_MAXIMUM, 1,
	  NULL, "\033[" },
	{ "cyclictest", "ct_avg", "^T: *[0-9]+ .* Avg: *([0-9]+)", "us", 0, JM_MEAN, 1,
	  NULL, "\033[" },
	/* a block's percentiles span lines: its starred p99 follows its
	 * title, which says how many samples there were: none, and every
	 * percentile is a 0 that is no figure.  Each is in some of its modes
	 * only: -p prints wakeups and a transfer rate, no requests or rps */
	{ "schbench", "wakeup_p99", "Wakeup Latencies percentiles \\(usec\\) runtime [0-9]+ "
	  "\\(s\\) \\([1-9][0-9]* total samples\\)[^*]*\\* *99\\.0th: *([0-9]+)", "us", 0,
	  JM_LAST, 0, "no wakeup latency samples in schbench's output", NULL },
	{ "schbench", "request_p99", "Request Latencies percentiles \\(usec\\) runtime [0-9]+ "
	  "\\(s\\) \\([1-9][0-9]* total samples\\)[^*]*\\* *99\\.0th: *([0-9]+)", "us", 0,
	  JM_LAST, 0, "no request latency samples in schbench's output (its -p "
	  "mode has none)", NULL },
	{ "schbench", "rps", "average rps: *([0-9]+\\.?[0-9]*)", "requests/s", 1, JM_LAST, 1,
	  "no average rps in schbench's output (its -p mode has none)", NULL },
	{ "schbench", "transfer", "avg worker transfer: *([0-9]+\\.?[0-9]*) ops/sec",
	  "ops/s", 1, JM_LAST, 1, "no worker transfer rate in schbench's output "
	  "(its -p mode alone has one)", NULL },
};

static int
add(struct job_metric *m, size_t *n, const struct jm_row *r, char *err, size_t errlen)
{
	struct job_metric *x = &m[*n];
	char buf[200];
	int rc;

	for (size_t i = 0; i < *n; i++)
		if (strcmp(m[i].name, r->name) == 0) {
			snprintf(err, errlen, "'%s' is named twice", r->name);
			return -1;
		}
	if (*n >= JM_MAX) {
		snprintf(err, errlen, "at most %d metrics", JM_MAX);
		return -1;
	}
	if (strlen(r->regex) >= sizeof x->regex) {
		snprintf(err, errlen, "%s: the expression is longer than %d bytes",
		    r->name, JM_REGEX_MAX - 1);
		return -1;
	}
	memset(x, 0, sizeof *x);
	snprintf(x->name, sizeof x->name, "%s", r->name);
	snprintf(x->regex, sizeof x->regex, "%s", r->regex);
	x->unit = r->unit;
	x->preset = r->preset;
	x->higher = r->higher;
	x->of = r->of;
	x->lines = r->lines;
	x->absent = r->absent;
	x->from = r->from;
	if ((rc = regcomp(&x->re, x->regex, REG_EXTENDED | (x->lines ? REG_NEWLINE : 0))) != 0) {
		regerror(rc, &x->re, buf, sizeof buf);
		snprintf(err, errlen, "%s: '%s': %s", x->name, x->regex, buf);
		return -1;
	}
	if (x->re.re_nsub != 1) {
		snprintf(err, errlen, "%s: '%s' has %zu capture groups, not one "
		    "(the number)", x->name, x->regex, (size_t)x->re.re_nsub);
		regfree(&x->re);
		return -1;
	}
	x->compiled = 1;
	(*n)++;
	return 0;
}

int
jm_parse(const char *arg, struct job_metric *m, size_t *n, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '='), *colon;
	struct jm_row r = { .of = JM_LAST, .lines = 1 };
	char name[JM_NAME_MAX];

	if (eq == NULL) {
		int found = 0;
		for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
			if (strcmp(rows[i].preset, arg) == 0) {
				if (add(m, n, &rows[i], err, errlen) < 0)
					return -1;
				found = 1;
			}
		if (!found)
			snprintf(err, errlen, "'%s' is neither NAME[:higher|:lower]=REGEX "
			    "nor a preset (hackbench, perf-messaging, cyclictest, schbench)",
			    arg);
		return found ? 0 : -1;
	}
	colon = memchr(arg, ':', (size_t)(eq - arg));
	size_t nl = (size_t)((colon ? colon : eq) - arg);
	if (!jm_name_ok(arg, nl)) {
		snprintf(err, errlen, "'%.*s' is not a metric name (a-z first, then "
		    "a-z, 0-9, _; at most %d)", (int)nl, arg, JM_NAME_MAX - 1);
		return -1;
	}
	if (colon) {
		size_t dl = (size_t)(eq - colon - 1);
		if (dl == 6 && strncmp(colon + 1, "higher", 6) == 0)
			r.higher = 1;
		else if (!(dl == 5 && strncmp(colon + 1, "lower", 5) == 0)) {
			snprintf(err, errlen, "%.*s: '%.*s' is not higher or lower",
			    (int)nl, arg, (int)dl, colon + 1);
			return -1;
		}
	}
	char why[400];
	if (jm_regex_check(eq + 1, why, sizeof why) < 0) {
		snprintf(err, errlen, "%.*s: %s", (int)nl, arg, why);
		return -1;
	}
	snprintf(name, sizeof name, "%.*s", (int)nl, arg);
	r.name = name;
	r.regex = eq + 1;
	return add(m, n, &r, err, errlen);
}

/* The number in a match's group, or NaN. */
static double
number(const char *s, size_t len)
{
	char buf[64], *end;

	if (len == 0 || len >= sizeof buf)
		return NAN;
	memcpy(buf, s, len);
	buf[len] = '\0';
	double v = strtod(buf, &end);
	return *end == '\0' && isfinite(v) && !isspace((unsigned char)buf[0]) ? v : NAN;
}

/* A preset none of whose figures the output held: the job printed no
 * report at all, and the run fails. */
static int
all_absent(const struct job_metric *m, size_t n, const char **absent, char *why,
    size_t whylen)
{
	for (size_t i = 0; i < n; i++) {
		size_t j, got = 0;
		if (m[i].absent == NULL)
			continue;
		for (j = 0; j < n; j++)
			got += m[j].preset == m[i].preset && absent[j] == NULL;
		if (got == 0) {
			snprintf(why, whylen, "job metric %s: none of the %s preset's "
			    "figures in the job's output", m[i].name, m[i].preset);
			return -1;
		}
	}
	return 0;
}

int
jm_scan(const struct job_metric *m, size_t n, const char *text, size_t len,
    double *v, const char **absent, char *why, size_t whylen)
{
	for (size_t i = 0; i < n; i++) {
		const struct job_metric *x = &m[i];
		const char *p = text;

		absent[i] = NULL;
		/* a redrawn screen's last drawing, from its line on */
		for (const char *q = x->from ? strstr(text, x->from) : NULL; q;
		    q = strstr(q + 1, x->from))
			p = q + strlen(x->from);
		regmatch_t g[2];
		double acc = NAN, sum = 0;
		size_t k = 0;

		while (regexec(&x->re, p, 2, g, p == text ? 0 : REG_NOTBOL) == 0) {
			if (g[1].rm_so < 0)
				break;
			double d = number(p + g[1].rm_so, (size_t)(g[1].rm_eo - g[1].rm_so));
			if (isnan(d)) {
				snprintf(why, whylen, "job metric %s: '%.*s' is not a number",
				    x->name, (int)(g[1].rm_eo - g[1].rm_so > 40 ? 40 :
				    g[1].rm_eo - g[1].rm_so), p + g[1].rm_so);
				return -1;
			}
			k++;
			sum += d;
			if (x->of == JM_LAST || isnan(acc) || d > acc)
				acc = d;
			/* on past the match, and past an empty one's start */
			p += g[0].rm_eo > g[0].rm_so ? g[0].rm_eo : g[0].rm_so + 1;
			if (p > text + len)
				break;
		}
		if (k == 0 && x->absent) {
			v[i] = NAN;
			absent[i] = x->absent;
			continue;
		}
		if (k == 0) {
			snprintf(why, whylen, "job metric %s: no match for '%s' in the "
			    "job's output", x->name, x->regex);
			return -1;
		}
		v[i] = x->of == JM_MEAN ? sum / (double)k : acc;
	}
	return all_absent(m, n, absent, why, whylen);
}

void
jm_free(struct job_metric *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (m[i].compiled) {
			regfree(&m[i].re);
			m[i].compiled = 0;
		}
}

/* Copy [0, size) of cap to the log, in pieces; the log is a courtesy
 * (results are what count), so its errors are not the run's. */
static void
to_log(int cap_fd, int log_fd, off_t size)
{
	char buf[65536];

	for (off_t off = 0; off < size && log_fd >= 0;) {
		ssize_t r = pread(cap_fd, buf, sizeof buf, off);
		if (r <= 0)
			break;
		if (write(log_fd, buf, (size_t)r) != r)
			break;
		off += r;
	}
}

char *
jm_take(int cap_fd, int log_fd, size_t *len, char *why, size_t whylen)
{
	struct stat st;

	if (fstat(cap_fd, &st) < 0) {
		snprintf(why, whylen, "job metrics: the job's output: %s", strerror(errno));
		return NULL;
	}
	to_log(cap_fd, log_fd, st.st_size);
	off_t from = st.st_size > (off_t)JM_SCAN_MAX ? st.st_size - (off_t)JM_SCAN_MAX : 0;
	size_t n = (size_t)(st.st_size - from), got = 0;
	char *text = xcalloc(1, n + 1);
	while (got < n) {
		ssize_t r = pread(cap_fd, text + got, n - got, from + (off_t)got);
		if (r <= 0) {
			snprintf(why, whylen, "job metrics: reading the job's output: %s",
			    r < 0 ? strerror(errno) : "it shrank");
			free(text);
			return NULL;
		}
		got += (size_t)r;
	}
	text[n] = '\0';
	for (size_t i = 0; i < n; i++)
		if (text[i] == '\0')
			text[i] = '\n';
	if (ftruncate(cap_fd, 0) < 0) {
		snprintf(why, whylen, "job metrics: emptying the capture: %s",
		    strerror(errno));
		free(text);
		return NULL;
	}
	*len = n;
	return text;
}
