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
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "jarena.h"

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

/* An object's lookups: an index of its members by key hash (open
 * addressing, the first of each key), or, for the line's own object read
 * with a key set, its wanted members by the set's ids (the first of
 * each, NULL where absent). */
struct jlook {
	const struct jnode **index;
	unsigned	 mask;
	const struct jnode **slot;
	unsigned	 nslot;
};

/* A parsed value; members of an object or array are a list via next. */
struct jnode {
	enum jtype	 type;
	unsigned	 hash;		/* of key: jget compares it first */
	double		 num;		/* J_NUM; J_BOOL is 0 or 1 */
	const char	*str;		/* J_STR, decoded, NUL-terminated */
	const char	*key;		/* when a member of an object */
	struct jnode	*child, *next;
	/* J_OBJ of many members, or read with a key set; NULL: a short
	 * object, searched in order */
	const struct jlook *look;
};

/* The top-level members a reader wants built; the others are validated
 * and passed over (a results line has ninety, a report reads a third).
 * Each key is kept as the parser meets it: its length and its first and
 * last eight bytes, so that telling a key needs no string compare. */
#define JKEYS_MASK	255
struct jkeys {
	const char	*key[JKEYS_MASK + 1];
	unsigned	 hash[JKEYS_MASK + 1];
	unsigned short	 id[JKEYS_MASK + 1];	/* its place in the list */
	unsigned short	 len[JKEYS_MASK + 1];
	uint64_t	 head[JKEYS_MASK + 1], tail[JKEYS_MASK + 1];
	unsigned	 nid;			/* the slots a line gets */
};

/* A key as the parser tells it: its length and its first and last
 * eight bytes (the first n, in memory order, when shorter), read from
 * s[0..n+8) (the line's padding, or a copy). */
struct jkwords {
	uint64_t	 head, tail;
	size_t		 n;
};

static inline uint64_t
jk_load8(const char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof v);
	return v;
}

static inline struct jkwords
jk_words(const char *s, size_t n)
{
	static const unsigned char lead[16] = { 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff };
	struct jkwords w = { 0, 0, n };

	if (n >= 8) {
		w.head = jk_load8(s);
		w.tail = jk_load8(s + n - 8);
	} else
		w.head = jk_load8(s) & jk_load8((const char *)lead + 8 - n);
	return w;
}

/* A key's hash from its words: a word's work, not a byte's; object
 * indexes, key sets and jget() all compare it first. */
static inline unsigned
jk_hash(struct jkwords w)
{
	uint64_t x = (w.head ^ (w.n * 0x9e3779b97f4a7c15ull)) * 0xff51afd7ed558ccdull;

	x = ((x ^ (x >> 29)) ^ w.tail) * 0xc4ceb9fe1a85ec53ull;
	unsigned h = (unsigned)(x >> 32);
	return h + (h == 0);	/* 0 marks a key set's empty slot */
}

/* The same of a NUL-terminated key. */
unsigned jsonl_key_hash(const char *);
struct jkwords jsonl_key_words(const char *);

/* Key s (its words w, hash h) in set k: its place there, or -1 where it
 * is not wanted.  Up to 16 bytes the words are the whole key. */
static inline int
jkeys_find(const struct jkeys *k, const char *s, struct jkwords w, unsigned h)
{
	/* probed on the hashes alone: a kilobyte that stays in cache while
	 * a file streams past */
	for (unsigned i = h & JKEYS_MASK; k->hash[i]; i = (i + 1) & JKEYS_MASK)
		if (k->hash[i] == h && k->len[i] == w.n && k->head[i] == w.head &&
		    k->tail[i] == w.tail && (w.n <= 16 ||
		    memcmp(k->key[i] + 8, s + 8, w.n - 16) == 0))
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
/* The same building only the top-level members in keys (NULL: all),
 * each reached by jslot. */
const struct jnode *jsonl_parse_keys(const char *s, size_t len, struct jarena *a,
	    const struct jkeys *keys);

/* A top-level member by its key set's id (jkeys), without a lookup. */
static inline const struct jnode *
jslot(const struct jnode *obj, unsigned id)
{
	return obj && obj->look && id < obj->look->nslot ? obj->look->slot[id] : NULL;
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

/* Where a file's lines begin, one line in JSONL_MARK_EVERY (off[k]: line
 * k * JSONL_MARK_EVERY + 1), kept by a first read: a second look at a
 * few lines seeks to the mark before each instead of reading every line
 * to it (8 bytes a thousand lines).  Free off. */
#define JSONL_MARK_EVERY	1024
struct jmarks {
	long long	*off;
	size_t		 n, cap;
};
long	jsonl_read_stream_marks(FILE *f, const char *path, const struct jkeys *keys,
	    jsonl_fn fn, jsonl_bad_fn bad, void *arg, unsigned long *skipped,
	    struct jmarks *mk);
/* Only the lines numbered want[0..n) (ascending) of a file read before,
 * without warnings: a second look at a few runs; with the first read's
 * marks (or NULL), what lies between them is passed over unread. */
long	jsonl_read_only(const char *path, const struct jkeys *keys,
	    const unsigned long *want, size_t n, jsonl_fn fn, void *arg);
long	jsonl_read_only_stream(FILE *f, const struct jkeys *keys,
	    const unsigned long *want, size_t n, jsonl_fn fn, void *arg,
	    const struct jmarks *mk);

#endif
