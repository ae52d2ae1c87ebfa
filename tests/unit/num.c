/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <limits.h>

#include "num.h"
#include "tap.h"

static void
good(const char *s, long long min, long long max, long long want)
{
	const char *why = "unset";
	long long v = num_parse(s, min, max, &why);
	ok(why == NULL && v == want, "'%s' parses to %lld", s, want);
}

static void
bad(const char *s, long long min, long long max, const char *want)
{
	const char *why = NULL;
	long long v = num_parse(s, min, max, &why);
	ok(why && strcmp(why, want) == 0 && v == 0, "'%s' is %s", s, want);
}

static void
ms_good(const char *s, long long want)
{
	const char *why = "unset";
	long long v = num_parse_ms(s, 3600000, &why);
	ok(why == NULL && v == want, "seconds '%s' is %lld ms", s, want);
}

static void
ms_bad(const char *s, const char *want)
{
	const char *why = NULL;
	num_parse_ms(s, 3600000, &why);
	ok(why && strcmp(why, want) == 0, "seconds '%s' is %s", s, want);
}

int
main(void)
{
	good("1", 1, 1000, 1);
	good("1000", 1, 1000, 1000);
	good("0", 0, 10, 0);
	good("-5", -10, 10, -5);
	good("007", 0, 10, 7);
	good("9223372036854775807", LLONG_MIN, LLONG_MAX, LLONG_MAX);
	good("-9223372036854775808", LLONG_MIN, LLONG_MAX, LLONG_MIN);

	bad("0", 1, 1000, "too small");
	bad("-1", 1, 1000, "too small");
	bad("1001", 1, 1000, "too large");
	bad("99999999999999999999", 1, 1000, "too large");
	bad("9223372036854775808", LLONG_MIN, LLONG_MAX, "too large");
	bad("-99999999999999999999", LLONG_MIN, LLONG_MAX, "too small");
	bad("1e3", 1, 1000, "invalid");
	bad("", 1, 1000, "invalid");
	bad(" 3", 1, 1000, "invalid");
	bad("3 ", 1, 1000, "invalid");
	bad("+3", 1, 1000, "invalid");
	bad("abc", 1, 1000, "invalid");
	bad("0x10", 1, 1000, "invalid");
	bad("-", 1, 1000, "invalid");
	bad("3.0", 1, 1000, "invalid");
	bad(NULL, 1, 1000, "invalid");

	ms_good("0", 0);
	ms_good("3", 3000);
	ms_good("0.5", 500);
	ms_good("2.125", 2125);
	ms_good("3600", 3600000);
	ms_bad("3600.001", "too large");
	ms_bad("99999999999999999999", "too large");
	ms_bad("-1", "too small");
	ms_bad("-0.5", "too small");
	ms_bad("1.", "invalid");
	ms_bad(".5", "invalid");
	ms_bad("0.0001", "invalid");
	ms_bad("1e3", "invalid");
	ms_bad("inf", "invalid");
	ms_bad("nan", "invalid");
	ms_bad("", "invalid");
	ms_bad("3s", "invalid");
	return tap_done();
}
