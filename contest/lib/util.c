/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

#include "util.h"

static const char *who = "contest";

void
util_who(const char *name)
{
	who = name;
}

static void
vmsg(const char *fmt, va_list ap)
{
	/* One line in one write so parallel writers do not interleave. */
	char line[1024];
	int n = vsnprintf(line, sizeof line, fmt, ap);

	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof line)
		n = sizeof line - 1;
	fflush(stdout);
	fprintf(stderr, "%s: %.*s\n", who, n, line);
}

static void (*on_fatal)(void);
static void (*on_exit_hook)(int);

void
util_on_fatal(void (*fn)(void))
{
	on_fatal = fn;
}

void
util_on_exit(void (*fn)(int status))
{
	on_exit_hook = fn;
}

void
contest_exit(int status)
{
	if (on_exit_hook)
		on_exit_hook(status);
	exit(status);
}

void
usage_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	if (on_fatal)
		on_fatal();
	contest_exit(EXIT_USAGE);
}

void
fatal(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	if (on_fatal)
		on_fatal();
	contest_exit(status);
}

void
getopt_restart(void)
{
	opterr = 0;
#ifdef __GLIBC__
	optind = 0;	/* glibc: forget a half-read cluster of short options */
#else
	optind = 1;
#if defined(HAVE_DECL_OPTRESET) && HAVE_DECL_OPTRESET
	optreset = 1;
#endif
#endif
}

void
warnmsg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		fatal(1, "out of memory");
	return p;
}

int
grow(void *v, size_t *cap, size_t need, size_t sz, size_t min)
{
	void **p = v, *q;
	size_t c = *cap ? *cap : min ? min : 1;

	if (need <= *cap)
		return 0;
	while (c < need) {
		if (c > SIZE_MAX - c / 2 - 1)
			goto nomem;
		c += c / 2 + 1;
	}
	if (sz && c > SIZE_MAX / sz)
		goto nomem;
	if ((q = realloc(*p, c * sz != 0 ? c * sz : 1)) == NULL)
		goto nomem;
	*p = q;
	*cap = c;
	return 0;
nomem:
	errno = ENOMEM;
	return -1;
}

void
xgrow(void *v, size_t *cap, size_t need, size_t sz, size_t min)
{
	if (grow(v, cap, need, sz, min) < 0)
		fatal(1, "out of memory");
}

void
xgrow_each(size_t *cap, size_t need, size_t min, size_t k, void *const v[],
    const size_t sz[])
{
	size_t c = *cap;

	/* each from the same cap grows to the same one */
	for (size_t i = 0; i < k; i++) {
		c = *cap;
		xgrow(v[i], &c, need, sz[i], min);
	}
	*cap = c;
}

char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (p == NULL)
		fatal(1, "out of memory");
	return p;
}

double
tv_seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

long
read_small(const char *path, char *buf, size_t len)
{
	if (len == 0)
		return -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return (long)n;
}

const char *
signal_name(int sig)
{
	static const struct { int sig; const char *name; } names[] = {
		{ SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" }, { SIGQUIT, "SIGQUIT" },
		{ SIGILL, "SIGILL" }, { SIGTRAP, "SIGTRAP" }, { SIGABRT, "SIGABRT" },
		{ SIGBUS, "SIGBUS" }, { SIGFPE, "SIGFPE" }, { SIGKILL, "SIGKILL" },
		{ SIGUSR1, "SIGUSR1" }, { SIGSEGV, "SIGSEGV" }, { SIGUSR2, "SIGUSR2" },
		{ SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" }, { SIGTERM, "SIGTERM" },
		{ SIGCHLD, "SIGCHLD" }, { SIGCONT, "SIGCONT" }, { SIGSTOP, "SIGSTOP" },
		{ SIGTSTP, "SIGTSTP" }, { SIGTTIN, "SIGTTIN" }, { SIGTTOU, "SIGTTOU" },
		{ SIGURG, "SIGURG" }, { SIGXCPU, "SIGXCPU" }, { SIGXFSZ, "SIGXFSZ" },
		{ SIGVTALRM, "SIGVTALRM" }, { SIGPROF, "SIGPROF" }, { SIGSYS, "SIGSYS" },
	};
	static char other[16];

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].sig == sig)
			return names[i].name;
	snprintf(other, sizeof other, "SIG%d", sig);
	return other;
}

void
read_line(const char *path, char *out, size_t len)
{
	if (read_small(path, out, len) < 0)
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

size_t
str_edits(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *d = xcalloc(3 * (lb + 1), sizeof *d);

	for (size_t j = 0; j <= lb; j++)
		d[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t *r = d + (i % 3) * (lb + 1), *p = d + ((i - 1) % 3) * (lb + 1);
		size_t *pp = d + ((i + 1) % 3) * (lb + 1);
		r[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t v = p[j - 1] + (a[i - 1] != b[j - 1]);
			if (p[j] + 1 < v)
				v = p[j] + 1;
			if (r[j - 1] + 1 < v)
				v = r[j - 1] + 1;
			/* two neighbours swapped: one edit */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			r[j] = v;
		}
	}
	size_t e = d[(la % 3) * (lb + 1) + lb];
	free(d);
	return e;
}
