/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

char *
fuzz_string(const uint8_t *d, size_t n, size_t max)
{
	if (n > max)
		n = max;
	char *s = malloc(n + 1);

	if (s == NULL)
		abort();
	memcpy(s, d, n);
	s[n] = '\0';
	return s;
}
