/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Between the JSON lines parser's files: the parse the readers call,
 * with their flags and the padding a line needs. */
#ifndef CONTEST_JSONL_IMPL_H
#define CONTEST_JSONL_IMPL_H

#include <stddef.h>

struct jarena;
struct jkeys;
struct jnode;

#define P_LOOSE		1	/* unwanted members passed over, not validated:
				 * a line read and checked once already */

/* What a line needs past its last byte: a NUL, then this many bytes that
 * can be read (strings are scanned sixteen bytes at a time). */
#define JSONL_PAD	16

/* One line's object: its tree (keys: the top-level members to build,
 * NULL all; a NULL arena: validated only), *ok whether s[0..len) was one
 * object.  s[len] is a NUL with JSONL_PAD bytes after it; strings and
 * keys are decoded in place. */
const struct jnode *jsonl_parse_line(char *s, size_t len, struct jarena *,
	    const struct jkeys *keys, int flags, int *ok);

#endif
