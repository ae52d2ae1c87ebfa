/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <limits.h>
#include <stddef.h>

#include "num.h"

long long
num_parse(const char *s, long long min, long long max, const char **errstr)
{
	const char *p = s;
	int neg = 0, big = 0;
	unsigned long long v = 0, lim;

	*errstr = "invalid";
	if (p == NULL || *p == '\0')
		return 0;
	if (*p == '-') {
		neg = 1;
		p++;
	}
	if (*p < '0' || *p > '9')
		return 0;
	/* Accumulate in unsigned so LLONG_MIN is representable. */
	lim = neg ? (unsigned long long)LLONG_MAX + 1 : (unsigned long long)LLONG_MAX;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');
		if (big || v > (lim - d) / 10)
			big = 1;
		else
			v = v * 10 + d;
	}
	if (*p != '\0')
		return 0;
	if (big) {
		*errstr = neg ? "too small" : "too large";
		return 0;
	}
	long long r = neg ? (v == (unsigned long long)LLONG_MAX + 1 ? LLONG_MIN
	    : -(long long)v) : (long long)v;
	if (r < min) {
		*errstr = "too small";
		return 0;
	}
	if (r > max) {
		*errstr = "too large";
		return 0;
	}
	*errstr = NULL;
	return r;
}

long long
num_parse_ms(const char *s, long long max_ms, const char **errstr)
{
	const char *p = s;
	long long ms = 0;
	int digits = 0, big = 0;

	*errstr = "invalid";
	if (p == NULL || *p == '\0')
		return 0;
	if (*p == '-') {
		/* A well-formed negative is "too small", not "invalid". */
		const char *q = p + 1;
		if (*q >= '0' && *q <= '9') {
			while ((*q >= '0' && *q <= '9') || *q == '.')
				q++;
			if (*q == '\0')
				*errstr = "too small";
		}
		return 0;
	}
	for (; *p >= '0' && *p <= '9'; p++, digits++) {
		if (ms > (max_ms / 1000) + 1)
			big = 1;
		else
			ms = ms * 10 + (*p - '0');
	}
	if (digits == 0)
		return 0;
	if (ms > LLONG_MAX / 1000 - 1)	/* only a max_ms near LLONG_MAX gets here */
		big = 1;
	else
		ms *= 1000;
	if (*p == '.') {
		long long scale = 100;
		int frac = 0;
		for (p++; *p >= '0' && *p <= '9'; p++, frac++) {
			if (frac >= 3)
				return 0;	/* finer than a millisecond */
			ms += (*p - '0') * scale;
			scale /= 10;
		}
		if (frac == 0)
			return 0;
	}
	if (*p != '\0')
		return 0;
	if (big || ms > max_ms) {
		*errstr = "too large";
		return 0;
	}
	*errstr = NULL;
	return ms;
}
