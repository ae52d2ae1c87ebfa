/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The parser's scanners that are not inlined: escapes, rare in results. */
#include "config.h"

#include <stddef.h>

#include "jsonl_lex.h"

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
			return -1;	/* the NUL too: nothing is read past it */
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

/* The escape after a backslash at p, decoded at *o (o NULL: checked
 * only); NULL if it is none.  Never longer than its source. */
static const char *
escape(const char *p, char **o)
{
	unsigned char ch = (unsigned char)*p++;

	if (ch == 'u') {
		int v = hex4(p);
		if (v < 0)
			return NULL;
		p += 4;
		unsigned long cp = (unsigned long)v;
		/* a surrogate pair is one code point; a lone half is kept as is */
		if (cp >= 0xd800 && cp < 0xdc00 && p[0] == '\\' && p[1] == 'u' &&
		    (v = hex4(p + 2)) >= 0xdc00 && v < 0xe000) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + ((unsigned long)v - 0xdc00);
			p += 6;
		}
		if (o)
			*o = utf8(*o, cp);
		return p;
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
		return NULL;
	}
	if (o)
		*(*o)++ = (char)ch;
	return p;
}

/* A string's rest from its first byte that is not plain (q), decoded in
 * place from o on when out is not NULL. */
const char *
jsonl_string_rest(const char *q, char *o, char *start, const char **out)
{
	for (;;) {
		const char *r = plain_run(q);
		if (out) {
			memmove(o, q, (size_t)(r - q));
			o += r - q;
		}
		q = r;
		if (*q == '"') {
			if (out) {
				*o = '\0';
				*out = start;
			}
			return q + 1;
		}
		if (*q != '\\' || (q = escape(q + 1, out ? &o : NULL)) == NULL)
			return NULL;	/* a control character, the NUL among them */
	}
}
