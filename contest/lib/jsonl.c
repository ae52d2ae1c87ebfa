/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonl.h"
#include "jsonl_impl.h"

/*
 * One recursive-descent grammar: with an arena it builds the tree,
 * without one it only validates.  p advances past one value.
 */
struct cur {
	const char *p, *end;
	int depth;
	struct jarena *a;
	int nomem;
	const struct jkeys *keys;	/* the top-level members to build */
	int flags;	/* P_* */
};


/* Bytes a string holds as they are: not a quote, a backslash or a
 * control character. */
static const unsigned char plain[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

static struct jnode *
node(struct cur *c, enum jtype t)
{
	struct jnode *n;

	if (c->a == NULL)
		return NULL;
	if ((n = jalloc(c->a, sizeof *n)) == NULL) {
		c->nomem = 1;
		return NULL;
	}
	memset(n, 0, sizeof *n);
	n->type = t;
	return n;
}

static inline void
blanks(struct cur *c)
{
	/* results are written without blanks: one test for the usual case */
	while (c->p < c->end && (unsigned char)*c->p <= ' ' &&
	    (*c->p == ' ' || *c->p == '\t' || *c->p == '\r'))
		c->p++;
}

static int
lit(struct cur *c, const char *word, struct jnode **out, enum jtype t, double v)
{
	size_t n = strlen(word);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0)
		return 0;
	c->p += n;
	if ((*out = node(c, t)) != NULL)
		(*out)->num = v;
	return !c->nomem;
}

static int
hex4(const char *p)
{
	int v = 0;

	for (int i = 0; i < 4; i++) {
		int ch = (unsigned char)p[i], d;
		if (ch >= '0' && ch <= '9')
			d = ch - '0';
		else if (ch >= 'a' && ch <= 'f')
			d = ch - 'a' + 10;
		else if (ch >= 'A' && ch <= 'F')
			d = ch - 'A' + 10;
		else
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static char *
utf8(char *o, unsigned long cp)
{
	if (cp < 0x80)
		*o++ = (char)cp;
	else if (cp < 0x800) {
		*o++ = (char)(0xc0 | cp >> 6);
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xe0 | cp >> 12);
		*o++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (char)(0xf0 | cp >> 18);
		*o++ = (char)(0x80 | (cp >> 12 & 0x3f));
		*o++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	}
	return o;
}

/* The escape after a backslash, decoded at *o (o NULL: checked only);
 * 0 if it is none. */
static int
escape(struct cur *c, char **o)
{
	unsigned char ch;

	if (c->p >= c->end)
		return 0;
	ch = (unsigned char)*c->p++;
	if (ch == 'u') {
		int v;
		if (c->end - c->p < 4 || (v = hex4(c->p)) < 0)
			return 0;
		c->p += 4;
		unsigned long cp = (unsigned long)v;
		/* a surrogate pair is one code point; a lone half is kept as is */
		if (cp >= 0xd800 && cp < 0xdc00 && c->end - c->p >= 6 &&
		    c->p[0] == '\\' && c->p[1] == 'u' && (v = hex4(c->p + 2)) >= 0xdc00 &&
		    v < 0xe000) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + ((unsigned long)v - 0xdc00);
			c->p += 6;
		}
		if (*o)
			*o = utf8(*o, cp);
		return 1;
	}
	switch (ch) {
	case '"': case '\\': case '/':
		break;
	case 'b': ch = '\b'; break;
	case 'f': ch = '\f'; break;
	case 'n': ch = '\n'; break;
	case 'r': ch = '\r'; break;
	case 't': ch = '\t'; break;
	default:
		return 0;
	}
	if (*o)
		*(*o)++ = (char)ch;
	return 1;
}

/* A string; decoded into the arena (never longer than its source). */
static int
string(struct cur *c, const char **out)
{
	char *o = NULL, *start = NULL;

	if (c->p >= c->end || *c->p++ != '"')
		return 0;
	if (c->a && (c->flags & P_INSITU))	/* decoded is never longer than its source */
		o = start = (char *)(uintptr_t)c->p;
	else if (c->a) {
		if ((o = start = jalloc(c->a, (size_t)(c->end - c->p) + 1)) == NULL) {
			c->nomem = 1;
			return 0;
		}
	}
	while (c->p < c->end) {
		/* a run of plain characters, copied at once */
		const char *q = c->p;
		while (q < c->end && plain[(unsigned char)*q])
			q++;
		if (o && q > c->p) {
			if (o != c->p)
				memmove(o, c->p, (size_t)(q - c->p));
			o += q - c->p;
		}
		if ((c->p = q) >= c->end)
			break;
		unsigned char ch = (unsigned char)*c->p++;
		if (ch == '"') {
			if (o) {
				*o++ = '\0';
				*out = start;
			}
			if (o && !(c->flags & P_INSITU)) {
				/* keep only what the decoded string used */
				jshrink(c->a, start, (size_t)(o - start));
			}
			return 1;
		}
		if (ch < 0x20)
			return 0;
		if (ch != '\\') {
			if (o)
				*o++ = (char)ch;
			continue;
		}
		if (!escape(c, &o))
			return 0;
	}
	return 0;
}

/* A run of digits; up to 15 of them also into *v, and how many in *nd. */
static inline int
digits(struct cur *c, long long *v, int *nd)
{
	const char *s = c->p;

	for (; c->p < c->end && *c->p >= '0' && *c->p <= '9'; c->p++)
		if (*nd < 15) {
			*v = *v * 10 + (*c->p - '0');
			(*nd)++;
		} else
			*nd = 16;	/* too many for the fast path */
	return c->p > s;
}

static int
number(struct cur *c, struct jnode **out)
{
	const char *s = c->p;
	long long v = 0;
	int nd = 0, neg = 0, exp = 0, frac = 0;

	if (c->p < c->end && *c->p == '-') {
		c->p++;
		neg = 1;
	}
	if (c->p < c->end && *c->p == '0')
		c->p++;
	else if (!digits(c, &v, &nd))
		return 0;
	if (c->p < c->end && *c->p == '.') {
		c->p++;
		int before = nd;
		if (!digits(c, &v, &nd))
			return 0;
		frac = nd - before;
	}
	if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
		c->p++;
		if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
			c->p++;
		long long e = 0;
		int ne = 0;
		if (!digits(c, &e, &ne))
			return 0;
		exp = 1;
	}
	if ((*out = node(c, J_NUM)) == NULL)
		return !c->nomem;
	/*
	 * Up to 15 digits with no exponent: the digits as an integer (exact
	 * below 2^53) over a power of ten (exact to 1e22) is one correctly
	 * rounded division, the very double strtod gives, at a fraction of
	 * its cost; a results line holds hundreds of numbers.
	 */
	static const double pow10[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
	    1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
	if (!exp && nd <= 15) {
		double x = frac > 0 ? (double)v / pow10[frac] : (double)v;
		(*out)->num = neg ? -x : x;
	} else {
		char buf[64];
		size_t n = (size_t)(c->p - s);
		if (n >= sizeof buf)
			n = sizeof buf - 1;	/* past 63 digits the value is not ours */
		memcpy(buf, s, n);
		buf[n] = '\0';
		(*out)->num = strtod(buf, NULL);
	}
	return !c->nomem;
}

static int value(struct cur *c, struct jnode **out);

/* Past one value of a line already validated: to the ',' or the '}'
 * that ends it, strings and brackets matched, nothing else looked at. */
static int
skip_loose(struct cur *c)
{
	static const unsigned char stop[256] = { ['"'] = 1, ['{'] = 1,
	    ['}'] = 1, ['['] = 1, [']'] = 1, [','] = 1 };
	int depth = 0;

	for (;;) {
		while (c->p < c->end && !stop[(unsigned char)*c->p])
			c->p++;
		if (c->p >= c->end)
			return 0;
		switch (*c->p) {
		case '"': {
			/* the next quote with an even run of backslashes before it */
			const char *q = c->p + 1, *b;
			for (;; q++) {
				if ((q = memchr(q, '"', (size_t)(c->end - q))) == NULL)
					return 0;
				for (b = q; b > c->p + 1 && b[-1] == '\\'; b--)
					;
				if ((q - b) % 2 == 0)
					break;
			}
			c->p = q;
			break;
		}
		case '{': case '[':
			depth++;
			break;
		case '}': case ']':
			if (depth-- == 0)
				return 1;
			break;
		default:	/* ',' */
			if (depth == 0)
				return 1;
			break;
		}
		c->p++;
	}
}

/* FNV-1a of a key: a result has ninety members and a reader asks for
 * most of them, so each lookup compares words, not strings. */
unsigned
jsonl_key_hash(const char *k)
{
	unsigned h = 2166136261u;

	for (; *k; k++)
		h = (h ^ (unsigned char)*k) * 16777619u;
	return h;
}

/*
 * A member's key and its jsonl_key_hash(), in one pass over a key with no
 * escapes (every key we write): decoded in place or copied to the arena,
 * or only checked when nothing is built.  Others go through string().
 */
static int
member_key(struct cur *c, const char **key, unsigned *h)
{
	const char *q = c->p + 1;
	unsigned x = 2166136261u;

	if (c->p >= c->end || *c->p != '"')
		return 0;
	for (; q < c->end && plain[(unsigned char)*q]; q++)
		x = (x ^ (unsigned char)*q) * 16777619u;
	if (q >= c->end || *q != '"') {	/* an escape: the long way */
		if (!string(c, key))
			return 0;
		*h = *key ? jsonl_key_hash(*key) : 0;
		return 1;
	}
	const char *s = c->p + 1;
	size_t n = (size_t)(q - s);
	c->p = q + 1;
	*h = x;
	if (c->a == NULL) {
		*key = NULL;
		return 1;
	}
	char *k;
	if (c->flags & P_INSITU)
		k = (char *)(uintptr_t)s;
	else if ((k = jalloc(c->a, n + 1)) == NULL) {
		c->nomem = 1;
		return 0;
	} else
		memcpy(k, s, n);
	k[n] = '\0';
	*key = k;
	return 1;
}

/* The top-level object's slots, one per id of the key set. */
static int
make_slots(struct cur *c, struct jnode *obj)
{
	obj->nslot = c->keys->nid;
	obj->slot = jalloc(c->a, obj->nslot * sizeof *obj->slot + 1);
	if (obj->slot == NULL) {
		c->nomem = 1;
		return 0;
	}
	memset(obj->slot, 0, obj->nslot * sizeof *obj->slot);
	return 1;
}

/* A hash index of an object's n members: a results line has ninety, and
 * its reader asks for each of them, and for some it does not have. */
static int
index_members(struct cur *c, struct jnode *obj, size_t n)
{
	unsigned size = 16;

	while (size < 2 * n)
		size *= 2;
	obj->index = jalloc(c->a, size * sizeof *obj->index);
	if (obj->index == NULL) {
		c->nomem = 1;
		return 0;
	}
	memset(obj->index, 0, size * sizeof *obj->index);
	obj->mask = size - 1;
	for (const struct jnode *m = obj->child; m; m = m->next) {
		unsigned i = m->hash & obj->mask;
		while (obj->index[i] && (obj->index[i]->hash != m->hash ||
		    strcmp(obj->index[i]->key, m->key) != 0))
			i = (i + 1) & obj->mask;
		if (obj->index[i] == NULL)	/* a key twice: the first stays */
			obj->index[i] = m;
	}
	return 1;
}

/* Members of an object or elements of an array, after the opener. */
static int
members(struct cur *c, char close, struct jnode *parent)
{
	struct jnode **tail = parent ? &parent->child : NULL;
	int keyed = close == '}';
	size_t n = 0;

	/* the line's own object, read with a key set: its slots */
	int slots = keyed && parent && c->depth == 1 && c->keys;
	if (slots && !make_slots(c, parent))
		return 0;
	blanks(c);
	if (c->p < c->end && *c->p == close) {
		c->p++;
		return 1;
	}
	for (;;) {
		const char *key = NULL;
		struct jnode *v = NULL;

		blanks(c);
		unsigned h = 0;
		if (keyed) {
			if (!member_key(c, &key, &h))
				return 0;
			blanks(c);
			if (c->p >= c->end || *c->p++ != ':')
				return 0;
		}
		int at = key && c->depth == 1 && c->keys ? jkeys_wanted(c->keys, key, h) : 0;
		int unwanted = at < 0;
		if (unwanted && (c->flags & P_LOOSE)) {
			if (!skip_loose(c))
				return 0;
		} else if (unwanted) {
			/* not asked for: validated, not built */
			struct jarena *a = c->a;
			c->a = NULL;
			int ok = value(c, &v);
			c->a = a;
			v = NULL;
			if (!ok)
				return 0;
		} else if (!value(c, &v))
			return 0;
		if (v) {
			v->key = key;
			v->hash = h;
			/* a key twice: the first stays, as in the index */
			if (slots && parent->slot[c->keys->id[at]] == NULL)
				parent->slot[c->keys->id[at]] = v;
			*tail = v;
			n++;
			tail = &v->next;
		}
		blanks(c);
		if (c->p >= c->end)
			return 0;
		char ch = *c->p++;
		if (ch == close)
			return keyed && parent && n > 8 ? index_members(c, parent, n) : 1;
		if (ch != ',')
			return 0;
	}
}

static int
value(struct cur *c, struct jnode **out)
{
	int ok;

	*out = NULL;
	blanks(c);
	if (c->p >= c->end)
		return 0;
	switch (*c->p) {
	case '{':
	case '[':
		/* Results are shallow; a deep nest is damage, not data. */
		if (++c->depth > 64)
			return 0;
		c->p++;
		*out = node(c, c->p[-1] == '{' ? J_OBJ : J_ARR);
		if (c->nomem)
			return 0;
		ok = members(c, c->p[-1] == '{' ? '}' : ']', *out);
		c->depth--;
		return ok;
	case '"':
		if (c->a && (*out = node(c, J_STR)) == NULL)
			return 0;
		return string(c, *out ? &(*out)->str : NULL);
	case 't':
		return lit(c, "true", out, J_BOOL, 1);
	case 'f':
		return lit(c, "false", out, J_BOOL, 0);
	case 'n':
		return lit(c, "null", out, J_NULL, 0);
	default:
		return number(c, out);
	}
}

const struct jnode *
jsonl_parse_with(const char *s, size_t len, struct jarena *a, const struct jkeys *keys,
    int flags, int *ok)
{
	struct cur c = { s, s + len, 0, a, 0, keys, flags };
	struct jnode *root = NULL;

	*ok = 0;
	blanks(&c);
	if (c.p >= c.end || *c.p != '{' || !value(&c, &root))
		return NULL;
	blanks(&c);
	*ok = c.p == c.end;
	return *ok ? root : NULL;
}

int
jsonl_is_object(const char *s, size_t len)
{
	int ok;

	jsonl_parse_with(s, len, NULL, NULL, 0, &ok);
	return ok;
}

const struct jnode *
jsonl_parse(const char *s, size_t len, struct jarena *a)
{
	int ok;

	return jsonl_parse_with(s, len, a, NULL, 0, &ok);
}
