/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Between the JSON lines parser's files: its key hash, and the parse
 * the readers call with their flags. */
#ifndef CONTEST_JSONL_IMPL_H
#define CONTEST_JSONL_IMPL_H

#include <stddef.h>

struct jarena;
struct jkeys;
struct jnode;

#define P_INSITU	1	/* strings decoded into the line itself (ours) */
#define P_LOOSE		2	/* unwanted members passed over, not validated:
				 * a line read and checked once already */

/* FNV-1a of a key, as the object index and jget compare them. */
unsigned jsonl_key_hash(const char *);

/* One line's object: its tree (keys: the top-level members to build,
 * NULL all), *ok whether the whole line was one object. */
const struct jnode *jsonl_parse_with(const char *s, size_t len, struct jarena *,
	    const struct jkeys *keys, int flags, int *ok);

#endif
