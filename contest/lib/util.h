/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small helpers the driver shares: errors, memory, clocks. */
#ifndef CONTEST_UTIL_H
#define CONTEST_UTIL_H

#include <stddef.h>
#include <sys/time.h>

#define EXIT_USAGE	2

#include "sys.h"	/* mono_now(), the one clock */

/* Exit with status, calling first what util_on_exit() set (NULL: none);
 * a hook that does not return takes the exit over (a program that runs
 * the parsers in-process, as the fuzz targets do). */
void	contest_exit(int status) __attribute__((noreturn));
void	util_on_exit(void (*fn)(int status));

/* Ready getopt_long for a fresh argv, whatever the last parse left. */
void	getopt_restart(void);

/* What usage_fail() and fatal() call before exiting: the driver
 * registers its clean-up (kill what it started). */
void	util_on_fatal(void (*fn)(void));

/* Who the messages below are from: "contest" (a run, the default) or
 * "contest SUBCOMMAND", set once by main. */
void	util_who(const char *name);
/* "WHO: ..." on stderr, then exit 2: bad input. */
void	usage_fail(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
/* "WHO: ..." on stderr, kill what we started, exit with status. */
void	fatal(int status, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3), noreturn));
/* "WHO: ..." on stderr and carry on. */
void	warnmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void	*xcalloc(size_t n, size_t size);
/* Edits from a to b: a character inserted, deleted or changed, or two
 * neighbours swapped, each one. */
size_t	str_edits(const char *a, const char *b);
char	*xstrdup(const char *);

/* Room in *v, an array of *cap elements of sz bytes, for need elements:
 * grown by half again (from min at first) until it holds them, every
 * size checked against overflow.  0, or -1 with errno ENOMEM and *v and
 * *cap as they were.  xgrow: out of memory is fatal. */
int	grow(void *v, size_t *cap, size_t need, size_t sz, size_t min);
void	xgrow(void *v, size_t *cap, size_t need, size_t sz, size_t min);
/* xgrow for k arrays kept at one length, one *cap for all: v[i] the
 * address of each array, sz[i] its element's size. */
void	xgrow_each(size_t *cap, size_t need, size_t min, size_t k,
	    void *const v[], const size_t sz[]);

double	tv_seconds(struct timeval);

/* Read a small file (a /proc entry) into buf as a string; bytes read, or
 * -1 when it cannot be opened or read. */
long	read_small(const char *path, char *buf, size_t len);
/* Its first line, without the newline; "" when it cannot be read. */
void	read_line(const char *path, char *out, size_t len);

/* "SIGKILL" for 9; "SIG<n>" for a signal without a name here. */
const char *signal_name(int sig);


#endif
