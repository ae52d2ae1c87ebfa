/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jsonl.h"
#include "jsonl_impl.h"
#include "jsonl_lex.h"

/*
 * One recursive-descent grammar over a line with a NUL and padding after
 * it, on the scanners of jsonl_lex.h: build_*() make the tree, decoding
 * strings where they stand; skip_*() only validate, for the members a
 * reader did not ask for.  Each returns the byte after what it read, or
 * NULL if it is not JSON (or the arena is out of memory).
 */
struct cur {
	struct jarena *a;
	const struct jkeys *keys;	/* the top-level members to build */
	int loose;	/* P_LOOSE: unwanted members passed over, not checked */
	int depth;
};

/* Results are shallow; a deep nest is damage, not data. */
#define MAX_DEPTH	64

struct jkwords
jsonl_key_words(const char *k)
{
	size_t n = strlen(k);
	char pad[16] = { 0 };

	if (n >= 8)
		return jk_words(k, n);
	memcpy(pad, k, n);
	return jk_words(pad, n);
}

unsigned
jsonl_key_hash(const char *k)
{
	return jk_hash(jsonl_key_words(k));
}

/* A member's key at p (its opening quote), its words and hash, the key
 * ended in place; an escaped key decoded first. */
static inline const char *
build_key(const char *p, const char **key, struct jkwords *w, unsigned *h)
{
	if (*p++ != '"')
		return NULL;
	const char *q = plain_run(p);
	if (*q != '"') {
		if ((q = jsonl_string_rest(q, (char *)(uintptr_t)q, (char *)(uintptr_t)p,
		    key)) != NULL) {
			*w = jsonl_key_words(*key);
			*h = jk_hash(*w);
		}
		return q;
	}
	*w = jk_words(p, (size_t)(q - p));
	*h = jk_hash(*w);
	*(char *)(uintptr_t)q = '\0';
	*key = p;
	return q + 1;
}

static INLINE const char *skip_value(struct cur *c, const char *p);

/* Members or elements after the opener, validated only. */
static const char *
skip_members(struct cur *c, const char *p, char close)
{
	int more;

	if ((p = blanks(p)), *p == close)
		return p + 1;
	do {
		if (close == '}' && ((p = expect(p, '"')) == NULL ||
		    (p = skip_string(p)) == NULL || (p = expect(p, ':')) == NULL))
			return NULL;
		if ((p = skip_value(c, p)) == NULL)
			return NULL;
	} while ((more = next_or_close(&p, close)) > 0);
	return more == 0 ? p : NULL;
}

static const char *
skip_container(struct cur *c, const char *p)
{
	if (++c->depth > MAX_DEPTH)
		return NULL;
	p = skip_members(c, p + 1, *p == '{' ? '}' : ']');
	c->depth--;
	return p;
}

/* One value, validated; a scalar where it stands (a line is mostly
 * scalars: no call for each). */
static INLINE const char *
skip_value(struct cur *c, const char *p)
{
	for (;; p++)
		switch (*p) {
		case ' ':
		case '\t':
		case '\r':
			continue;
		case '{':
		case '[':
			return skip_container(c, p);
		case '"':
			return skip_string(p + 1);
		case 't':
			return literal(p, "true");
		case 'f':
			return literal(p, "false");
		case 'n':
			return literal(p, "null");
		default:
			return number_end(p);
		}
}

/* Past one value of a line already validated: to the ',' or the '}'
 * that ends it, strings and brackets matched, nothing else looked at. */
static const char *
skip_loose(const char *p)
{
	static const unsigned char stop[256] = { ['\0'] = 1, ['"'] = 1,
	    ['{'] = 1, ['}'] = 1, ['['] = 1, [']'] = 1, [','] = 1 };
	int depth = 0;

	for (;; p++) {
		while (!stop[(unsigned char)*p])
			p++;
		switch (*p) {
		case '\0':
			return NULL;
		case '"':
			if ((p = skip_string(p + 1)) == NULL)
				return NULL;
			p--;	/* the closing quote */
			break;
		case '{': case '[':
			depth++;
			break;
		case '}': case ']':
			if (depth-- == 0)
				return p;
			break;
		default:	/* ',' */
			if (depth == 0)
				return p;
			break;
		}
	}
}

static inline struct jnode *
node(struct cur *c, enum jtype t)
{
	struct jnode *n = jalloc(c->a, sizeof *n);

	if (n != NULL)
		*n = (struct jnode){ .type = t };
	return n;
}

/* An object's lookups: nslot slots, an index of size entries. */
static struct jlook *
lookups(struct cur *c, struct jnode *obj, unsigned nslot, unsigned size)
{
	struct jlook *l = jalloc(c->a, sizeof *l + (nslot + size) * sizeof *l->slot);

	if (l == NULL)
		return NULL;
	l->slot = (const struct jnode **)(l + 1);
	l->nslot = nslot;
	l->index = size ? l->slot + nslot : NULL;
	l->mask = size - 1;
	memset(l->slot, 0, (nslot + size) * sizeof *l->slot);
	obj->look = l;
	return l;
}

/* A hash index of an object's n members: a results line has ninety, and
 * a reader without a key set asks for each of them, and for some it does
 * not have. */
static int
index_members(struct cur *c, struct jnode *obj, size_t n)
{
	unsigned size = 16;
	struct jlook *l;

	while (size < 2 * n)
		size *= 2;
	if ((l = lookups(c, obj, 0, size)) == NULL)
		return 0;
	for (const struct jnode *m = obj->child; m; m = m->next) {
		unsigned i = m->hash & l->mask;
		while (l->index[i] && (l->index[i]->hash != m->hash ||
		    strcmp(l->index[i]->key, m->key) != 0))
			i = (i + 1) & l->mask;
		if (l->index[i] == NULL)	/* a key twice: the first stays */
			l->index[i] = m;
	}
	return 1;
}

static INLINE const char *build_value(struct cur *c, const char *p, struct jnode **out);

/* One member of the line's own object, read with a key set: built into
 * its slot when wanted (*v), else passed over. */
static INLINE const char *
top_member(struct cur *c, const char *p, struct jnode *parent, struct jnode **v)
{
	const char *key;
	struct jkwords w;
	unsigned h;

	if ((p = build_key(p, &key, &w, &h)) == NULL || (p = expect(p, ':')) == NULL)
		return NULL;
	int at = jkeys_find(c->keys, key, w, h);
	if (at < 0)
		return c->loose ? skip_loose(p) : skip_value(c, p);
	if ((p = build_value(c, p, v)) != NULL) {
		(*v)->key = key;
		(*v)->hash = h;
		/* a key twice: the first stays, as in an index */
		const struct jnode **slot = &parent->look->slot[c->keys->id[at]];
		if (*slot == NULL)
			*slot = *v;
	}
	return p;
}

/* Members of an object (close '}') or elements of an array, after the
 * opener, into parent. */
static const char *
build_members(struct cur *c, const char *p, char close, struct jnode *parent)
{
	struct jnode **tail = &parent->child;
	int keyed = close == '}', more;
	int top = keyed && c->depth == 1 && c->keys;
	size_t n = 0;

	if (top && lookups(c, parent, c->keys->nid, 0) == NULL)
		return NULL;
	if ((p = blanks(p)), *p == close)
		return p + 1;
	do {
		struct jnode *v = NULL;
		if (keyed && *p != '"')
			p = blanks(p);
		if (top)
			p = top_member(c, p, parent, &v);
		else if (keyed) {
			const char *key;
			struct jkwords w;
			unsigned h;
			if ((p = build_key(p, &key, &w, &h)) == NULL ||
			    (p = expect(p, ':')) == NULL ||
			    (p = build_value(c, p, &v)) == NULL)
				return NULL;
			v->key = key;
			v->hash = h;
		} else
			p = build_value(c, p, &v);
		if (p == NULL)
			return NULL;
		if (v) {
			*tail = v;
			tail = &v->next;
			n++;
		}
	} while ((more = next_or_close(&p, close)) > 0);
	/* the line's own object is read by its slots */
	if (more < 0 || (keyed && !top && n > 8 && !index_members(c, parent, n)))
		return NULL;
	return p;
}

static const char *
build_container(struct cur *c, const char *p, struct jnode **out)
{
	struct jnode *n;

	if (++c->depth > MAX_DEPTH || (n = node(c, *p == '{' ? J_OBJ : J_ARR)) == NULL)
		return NULL;
	*out = n;
	p = build_members(c, p + 1, *p == '{' ? '}' : ']', n);
	c->depth--;
	return p;
}

/* One value at p into *out (never NULL when it returns non-NULL); a
 * scalar where it stands. */
static INLINE const char *
build_value(struct cur *c, const char *p, struct jnode **out)
{
	struct jnode *n;

	for (;; p++)
		switch (*p) {
		case ' ':
		case '\t':
		case '\r':
			continue;
		case '{':
		case '[':
			return build_container(c, p, out);
		case '"':
			if ((*out = n = node(c, J_STR)) == NULL)
				return NULL;
			return build_string(p + 1, &n->str);
		case 't':
		case 'f':
		case 'n':
			if ((*out = n = node(c, *p == 'n' ? J_NULL : J_BOOL)) == NULL)
				return NULL;
			n->num = *p == 't';
			return literal(p, *p == 't' ? "true" : *p == 'f' ? "false" : "null");
		default:
			if ((*out = n = node(c, J_NUM)) == NULL)
				return NULL;
			return number(p, &n->num);
		}
}

const struct jnode *
jsonl_parse_line(char *s, size_t len, struct jarena *a, const struct jkeys *keys,
    int flags, int *ok)
{
	struct cur c = { a, keys, flags & P_LOOSE, 0 };
	struct jnode *root = NULL;
	const char *p = blanks(s);

	*ok = 0;
	if (*p != '{')
		return NULL;
	p = a ? build_value(&c, p, &root) : skip_value(&c, p);
	if (p == NULL)
		return NULL;
	*ok = blanks(p) == s + len;
	return *ok ? root : NULL;
}

/* s[0..len) copied, with the NUL and padding a line needs. */
static char *
padded(struct jarena *a, const char *s, size_t len)
{
	char *b = a ? jalloc(a, len + 1 + JSONL_PAD) : malloc(len + 1 + JSONL_PAD);

	if (b) {
		memcpy(b, s, len);
		memset(b + len, 0, 1 + JSONL_PAD);
	}
	return b;
}

int
jsonl_is_object(const char *s, size_t len)
{
	char *b = padded(NULL, s, len);
	int ok = 0;

	if (b)
		jsonl_parse_line(b, len, NULL, NULL, 0, &ok);
	free(b);
	return ok;
}

const struct jnode *
jsonl_parse(const char *s, size_t len, struct jarena *a)
{
	return jsonl_parse_keys(s, len, a, NULL);
}

const struct jnode *
jsonl_parse_keys(const char *s, size_t len, struct jarena *a, const struct jkeys *keys)
{
	char *b = padded(a, s, len);
	int ok;

	return b ? jsonl_parse_line(b, len, a, keys, 0, &ok) : NULL;
}
