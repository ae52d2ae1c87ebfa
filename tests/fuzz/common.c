/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "util.h"

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

static jmp_buf *catch_jb;

static void
jump_back(int status)
{
	longjmp(*catch_jb, status + 1);
}

void
fuzz_catch_exit(jmp_buf *jb)
{
	catch_jb = jb;
	util_on_exit(jump_back);
}

void
fuzz_release_exit(void)
{
	util_on_exit(NULL);
	catch_jb = NULL;
}
