/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CONTEST_JOBREGEX_H
#define CONTEST_JOBREGEX_H

#include <stddef.h>

/* an expression's length with its repeated parts written out, at most */
#define JM_EXPANDED_MAX	1024
/* the groups the walk follows into (more than one is refused anyway) */
#define JM_DEPTH_MAX	64

/* An expression regcomp may be given: no control character, no
 * back-reference, one capture group at most, no two quantifiers in a
 * row, at most JM_EXPANDED_MAX long with its repeated parts written out.
 * -1 and why where it is not. */
int	jm_regex_check(const char *re, char *why, size_t len);

#endif
