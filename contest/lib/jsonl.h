/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading results.jsonl: every line that is one whole JSON object is
 * parsed and handed on; a line that is not (cut short by a crash or a
 * full disk, or damaged) is skipped, the caller told which and why, and
 * every other line is still read.
 */
#ifndef CONTEST_JSONL_H
#define CONTEST_JSONL_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "jarena.h"

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

/* A parsed value; members of an object or array are a list via next. */
struct jnode {
	enum jtype	 type;
	double		 num;		/* J_NUM; J_BOOL is 0 or 1 */
	const char	*str;		/* J_STR, decoded, NUL-terminated */
	const char	*key;		/* when a member of an object */
	unsigned	 hash;		/* of key: jget compares it first */
	struct jnode	*child, *next;
	/* J_OBJ of many members: open addressing on hash, the first of each
	 * key; NULL: a short object, searched in order */
	const struct jnode **index;
	unsigned	 mask;
	/* the top-level object read with a key set: its wanted members by
	 * the set's ids, the first of each, NULL where absent */
	const struct jnode **slot;
	unsigned	 nslot;
};

/* The top-level members a reader wants built; the others are validated
 * and passed over (a results line has ninety, a report reads a third). */
#define JKEYS_MASK	255
struct jkeys {
	const char	*key[JKEYS_MASK + 1];
	unsigned	 hash[JKEYS_MASK + 1];
	unsigned short	 id[JKEYS_MASK + 1];	/* its place in the list */
	unsigned	 nid;			/* the slots a line gets */
};
/* Key's place in the set (h: its jsonl_key_hash()), or -1 where it is
 * not wanted: the parser asks it of every top-level member. */
static inline int
jkeys_wanted(const struct jkeys *k, const char *key, unsigned h)
{
	for (unsigned i = h & JKEYS_MASK; k->key[i]; i = (i + 1) & JKEYS_MASK)
		if (k->hash[i] == h && strcmp(k->key[i], key) == 0)
			return (int)i;
	return -1;
}

/* From a NULL-terminated list (kept, not copied), each key's id its
 * place in it; -1 if it has more than JKEYS_MASK / 2 keys. */
int	jkeys_init(struct jkeys *, const char *const *list);
/* From names[0..n), those with want[i] set, each key's id i. */
int	jkeys_init_ids(struct jkeys *, const char *const *names, size_t n,
	    const unsigned char *want);


/* 1 if s[0..len) is exactly one JSON object (blanks around allowed). */
int	jsonl_is_object(const char *s, size_t len);

/* The object in s[0..len) as a tree in a, or NULL if it is not one. */
const struct jnode *jsonl_parse(const char *s, size_t len, struct jarena *a);

/* A top-level member by its key set's id (jkeys), without a lookup. */
static inline const struct jnode *
jslot(const struct jnode *obj, unsigned id)
{
	return obj && id < obj->nslot ? obj->slot[id] : NULL;
}
/* A value as a string (NULL), a number or a whole number in min..max
 * (else def). */
static inline const char *
jnode_str(const struct jnode *n)
{
	return n && n->type == J_STR ? n->str : NULL;
}
static inline double
jnode_num(const struct jnode *n, double def)
{
	return n && (n->type == J_NUM || n->type == J_BOOL) ? n->num : def;
}
long long jnode_int(const struct jnode *, long long def, long long min,
	    long long max);

/* Member key of obj, or NULL; the typed getters give def when absent. */
const struct jnode *jget(const struct jnode *obj, const char *key);
const char *jget_str(const struct jnode *obj, const char *key);
double	jget_num(const struct jnode *obj, const char *key, double def);
/* A whole number within min..max, else def: a file's 1e300 must not reach
 * a cast to an integer (undefined behaviour). */
long long jget_int(const struct jnode *obj, const char *key, long long def,
	    long long min, long long max);

typedef int (*jsonl_fn)(const struct jnode *obj, unsigned long lineno,
    void *arg);

/* Told of each line that is skipped, why ("not one JSON object",
 * "incomplete last line"): the reader says nothing itself. */
typedef void (*jsonl_bad_fn)(const char *path, unsigned long lineno,
    const char *why, void *arg);

/*
 * Call fn for each whole object line of path, in order (fn returning
 * non-zero stops the read), and bad (when not NULL) for each other line.
 * The tree lives until fn returns.  Returns the lines handed on, or -1
 * with errno if the file cannot be read; *skipped counts the others.
 */
long	jsonl_read(const char *path, jsonl_fn fn, jsonl_bad_fn bad, void *arg,
	    unsigned long *skipped);
/* The same building only the top-level members in keys (NULL: all), from
 * a path or an open stream (path naming it in warnings); a damaged line
 * is still found and skipped wherever the damage is. */
long	jsonl_read_keys(const char *path, const struct jkeys *keys, jsonl_fn fn,
	    jsonl_bad_fn bad, void *arg, unsigned long *skipped);
long	jsonl_read_stream_keys(FILE *f, const char *path, const struct jkeys *keys,
	    jsonl_fn fn, jsonl_bad_fn bad, void *arg, unsigned long *skipped);
/* Only the lines numbered want[0..n) (ascending) of a file read before,
 * without warnings: a second look at a few runs. */
long	jsonl_read_only(const char *path, const struct jkeys *keys,
	    const unsigned long *want, size_t n, jsonl_fn fn, void *arg);
long	jsonl_read_only_stream(FILE *f, const struct jkeys *keys,
	    const unsigned long *want, size_t n, jsonl_fn fn, void *arg);

#endif
