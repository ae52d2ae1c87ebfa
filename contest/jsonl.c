#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonl.h"

/* A validating recursive-descent pass: p advances past one value. */
struct cur {
	const char *p, *end;
	int depth;
};

static void
blanks(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r'))
		c->p++;
}

static int
lit(struct cur *c, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0)
		return 0;
	c->p += n;
	return 1;
}

static int
string(struct cur *c)
{
	if (c->p >= c->end || *c->p++ != '"')
		return 0;
	while (c->p < c->end) {
		unsigned char ch = (unsigned char)*c->p++;
		if (ch == '"')
			return 1;
		if (ch < 0x20)
			return 0;
		if (ch != '\\')
			continue;
		if (c->p >= c->end)
			return 0;
		ch = (unsigned char)*c->p++;
		if (ch == 'u') {
			for (int i = 0; i < 4; i++, c->p++)
				if (c->p >= c->end || !strchr("0123456789abcdefABCDEF", *c->p) ||
				    *c->p == '\0')
					return 0;
		} else if (!strchr("\"\\/bfnrt", ch) || ch == '\0')
			return 0;
	}
	return 0;
}

static int
digits(struct cur *c)
{
	const char *s = c->p;

	while (c->p < c->end && *c->p >= '0' && *c->p <= '9')
		c->p++;
	return c->p > s;
}

static int
number(struct cur *c)
{
	if (c->p < c->end && *c->p == '-')
		c->p++;
	if (c->p < c->end && *c->p == '0')
		c->p++;
	else if (!digits(c))
		return 0;
	if (c->p < c->end && *c->p == '.') {
		c->p++;
		if (!digits(c))
			return 0;
	}
	if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
		c->p++;
		if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
			c->p++;
		if (!digits(c))
			return 0;
	}
	return 1;
}

static int value(struct cur *c);

/* Members of an object or elements of an array, after the opener. */
static int
members(struct cur *c, char close, int keyed)
{
	blanks(c);
	if (c->p < c->end && *c->p == close) {
		c->p++;
		return 1;
	}
	for (;;) {
		blanks(c);
		if (keyed) {
			if (!string(c))
				return 0;
			blanks(c);
			if (c->p >= c->end || *c->p++ != ':')
				return 0;
		}
		if (!value(c))
			return 0;
		blanks(c);
		if (c->p >= c->end)
			return 0;
		char ch = *c->p++;
		if (ch == close)
			return 1;
		if (ch != ',')
			return 0;
	}
}

static int
value(struct cur *c)
{
	int ok;

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
		ok = members(c, c->p[-1] == '{' ? '}' : ']', c->p[-1] == '{');
		c->depth--;
		return ok;
	case '"':
		return string(c);
	case 't':
		return lit(c, "true");
	case 'f':
		return lit(c, "false");
	case 'n':
		return lit(c, "null");
	default:
		return number(c);
	}
}

int
jsonl_is_object(const char *s, size_t len)
{
	struct cur c = { s, s + len, 0 };

	blanks(&c);
	if (c.p >= c.end || *c.p != '{' || !value(&c))
		return 0;
	blanks(&c);
	return c.p == c.end;
}

long
jsonl_read(const char *path, jsonl_fn fn, void *arg, unsigned long *skipped)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned long lineno = 0;
	long handed = 0;

	*skipped = 0;
	if (f == NULL)
		return -1;
	while ((n = getline(&line, &cap, f)) > 0) {
		size_t len = (size_t)n;
		int whole = line[len - 1] == '\n';
		lineno++;
		if (whole)
			len--;
		if (len == 0)
			continue;	/* an empty line is no record */
		if (!whole || !jsonl_is_object(line, len)) {
			fprintf(stderr, "contest: %s:%lu: %s, skipped\n", path, lineno,
			    whole ? "not one JSON object" : "incomplete last line");
			(*skipped)++;
			continue;
		}
		handed++;
		if (fn && fn(line, len, lineno, arg))
			break;
	}
	int e = ferror(f) ? errno : 0;
	free(line);
	fclose(f);
	if (e) {
		errno = e;
		return -1;
	}
	return handed;
}
