/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The number parser: strtonum-style bounds, and milliseconds with at
 * most three decimals. */
#include "config.h"

#include <limits.h>
#include <stdlib.h>

#include "fuzz.h"
#include "num.h"

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static const long long lim[][2] = {
		{ 1, 1000 }, { 0, 100 }, { -20, 19 }, { LLONG_MIN, LLONG_MAX },
		{ 0, 0 }, { 5, 1 },
	};
	char *s = fuzz_string(d, n, 256);
	const char *why;

	for (size_t i = 0; i < sizeof lim / sizeof lim[0]; i++) {
		long long v = num_parse(s, lim[i][0], lim[i][1], &why);
		if (why == NULL && (v < lim[i][0] || v > lim[i][1]))
			abort();	/* a value out of its bounds got through */
	}
	long long ms = num_parse_ms(s, 3600000LL, &why);
	if (why == NULL && (ms < 0 || ms > 3600000LL))
		abort();
	num_parse_ms(s, LLONG_MAX, &why);
	free(s);
	return 0;
}
