/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A job metric's expression, checked before regcomp sees it.  glibc
 * compiles some short expressions in gigabytes or minutes, and regcomp
 * cannot be stopped half way: (a?b?c?d?e?f?g?h?i?j?k?l?m?n?o?p?){999}
 * took 4 GB and 15 s, (a??*?){21} 3 s (each copy doubles it), and
 * (((((((((((a?)*)?)*)?)*)?)*)?)*)?){20} 67 s before it was refused for
 * its groups.  So the walk here counts what regcomp would build, as
 * glibc reads an extended expression, and refuses three things first.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "jobregex.h"

/* A count's digits, as regcomp reads them: "\0" is a 0 there, and the
 * count held at 32768 (past its RE_DUP_MAX, 32767, it refuses it);
 * -1: none. */
static double
count(const char *p, size_t *i)
{
	double v = -1;

	for (;;) {
		size_t j = *i + (p[*i] == '\\');
		if (!isdigit((unsigned char)p[j]))
			return v;
		v = (v < 0 ? 0 : v * 10) + (p[j] - '0');
		v = v > 32768 ? 32768 : v;
		*i = j + 1;
	}
}

/* How many times a quantifier has regcomp copy what it follows: x+ is
 * x x*, x{n,} n copies and a star, x{n,m} and x{,m} m copies; a copy at
 * least, as x{0} is parsed whole before it is dropped.  0: no quantifier
 * at p; *len: its length.  In an interval glibc takes "\," for ",", as
 * it takes "\0" for 0. */
static double
copies(const char *p, size_t *len)
{
	size_t i = 1;

	*len = 1;
	if (*p == '*' || *p == '?')
		return 1;
	if (*p == '+')
		return 2;
	if (*p != '{')
		return 0;
	double lo = count(p, &i), hi = lo;
	if (p[i] == ',' || (p[i] == '\\' && p[i + 1] == ',')) {
		i += p[i] == '\\' ? 2 : 1;
		lo = lo < 0 ? 0 : lo;	/* {,m} is {0,m}, {,} a star */
		hi = p[i] == '}' ? lo + 1 : count(p, &i);
		if (hi < 0)
			return 0;
	} else if (lo < 0)
		return 0;
	if (p[i] != '}')
		return 0;
	*len = i + 1;
	return hi > lo ? (hi > 1 ? hi : 1) : (lo > 1 ? lo : 1);
}

/* A bracket expression's length, [:alpha:] and the like inside it
 * whole; 1 where it is not closed, regcomp then failing on it. */
static size_t
bracket(const char *p)
{
	const char *q = p + 1;

	q += *q == '^';
	q += *q == ']';
	while (*q && *q != ']') {
		if (*q == '[' && (q[1] == ':' || q[1] == '.' || q[1] == '=')) {
			char close[3] = { q[1], ']', '\0' };
			const char *e = strstr(q + 2, close);
			if (e == NULL)
				return 1;
			q = e + 2;
		} else
			q++;
	}
	return *q == ']' ? (size_t)(q - p) + 1 : 1;
}

/* What the walk found. */
struct shape {
	double		 size;	/* the length, repeated parts written out */
	size_t		 groups;
	const char	*stacked;	/* a quantifier that follows one, or NULL */
};

/*
 * The expression's length with each repeated part written out as many
 * times as regcomp copies it: a bound on the nodes it builds, whose
 * closures take memory and time that grow with their square.  A group
 * counts its parentheses, a bracket expression, an escaped character and
 * a quantifier one each; an unclosed group ends where the expression does.
 */
static void
walk(const char *re, struct shape *sh)
{
	double sum[JM_DEPTH_MAX + 1] = { 0 }, last = 0;
	size_t d = 0, len;
	int quantified = 0;

	memset(sh, 0, sizeof *sh);
	for (const char *p = re; *p; p += len) {
		double f = copies(p, &len);
		if (f > 0) {
			if (quantified && sh->stacked == NULL)
				sh->stacked = p;
			sum[d] += last * (f - 1) + 1;
			last = last * f + 1;
			quantified = 1;
			continue;
		}
		quantified = 0;
		len = *p == '[' ? bracket(p) : *p == '\\' && p[1] ? 2 : 1;
		sh->groups += *p == '(';
		if (*p == '(' && d < JM_DEPTH_MAX) {
			sum[++d] = 1;
			last = 0;
		} else if (*p == ')' && d > 0) {
			last = sum[d--] + 1;
			sum[d] += last;
		} else {
			last = *p == '|' ? 0 : 1;
			sum[d] += 1;
		}
	}
	while (d > 0) {
		d--;
		sum[d] += sum[d + 1];
	}
	sh->size = sum[0];
}

int
jm_regex_check(const char *re, char *why, size_t len)
{
	struct shape sh;

	for (const char *c = re; *c; c++)
		if (iscntrl((unsigned char)*c)) {
			/* every message that quotes it is one line */
			snprintf(why, len, "a control character in the expression");
			return -1;
		}
	for (const char *c = re; *c; c++)
		if (c[0] == '\\' && c[1] >= '1' && c[1] <= '9') {
			/* glibc's back-references can take exponential time over
			 * a run's megabytes of output */
			snprintf(why, len, "a back-reference (\\%c) in the expression",
			    c[1]);
			return -1;
		} else if (c[0] == '\\' && c[1])
			c++;
	if (*re == '\0') {
		snprintf(why, len, "an empty expression");
		return -1;
	}
	walk(re, &sh);
	if (sh.stacked) {
		snprintf(why, len, "'%s': '%c' follows a quantifier (POSIX leaves "
		    "two in a row undefined; no lazy ones)", re, *sh.stacked);
		return -1;
	}
	/* one is the figure; another would let quantifiers nest deeper */
	if (sh.groups > 1) {
		snprintf(why, len, "'%s' has %zu capture groups, not one (the number)",
		    re, sh.groups);
		return -1;
	}
	if (sh.size > JM_EXPANDED_MAX) {
		snprintf(why, len, "the expression is longer than %d characters "
		    "with its repeated parts written out", JM_EXPANDED_MAX);
		return -1;
	}
	return 0;
}
