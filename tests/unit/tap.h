/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Minimal TAP producer for the C unit tests (automake's tap-driver reads it). */
#ifndef CONTEST_TAP_H
#define CONTEST_TAP_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

#define ok(cond, ...) do { \
	int ok_ = (cond); \
	printf("%sok %d - ", ok_ ? "" : "not ", ++tap_n); \
	printf(__VA_ARGS__); \
	printf("\n"); \
	if (!ok_) { \
		tap_failed++; \
		printf("#   at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	} \
} while (0)

#define is_num(got, want, eps, ...) do { \
	double g_ = (got), w_ = (want); \
	ok(fabs(g_ - w_) <= (eps), __VA_ARGS__); \
	if (!(fabs(g_ - w_) <= (eps))) \
		printf("#   got %.9g, want %.9g\n", g_, w_); \
} while (0)

#define is_str(got, want, ...) do { \
	const char *g_ = (got), *w_ = (want); \
	int same_ = g_ && w_ && strcmp(g_, w_) == 0; \
	ok(same_, __VA_ARGS__); \
	if (!same_) \
		printf("#   got '%s'\n#  want '%s'\n", g_ ? g_ : "(null)", w_); \
} while (0)

static inline int
tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
