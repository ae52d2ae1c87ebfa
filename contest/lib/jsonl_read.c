/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A parsed line's members by key, and the files of lines: each line
 * parsed into one arena, handed over, and the arena reset. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonl.h"
#include "jsonl_impl.h"

const struct jnode *
jget(const struct jnode *obj, const char *key)
{
	if (obj == NULL || obj->type != J_OBJ)
		return NULL;
	unsigned h = jsonl_key_hash(key);
	const struct jlook *l = obj->look;
	if (l && l->index) {
		for (unsigned i = h & l->mask; l->index[i]; i = (i + 1) & l->mask)
			if (l->index[i]->hash == h && strcmp(l->index[i]->key, key) == 0)
				return l->index[i];
		return NULL;
	}
	for (const struct jnode *n = obj->child; n; n = n->next)
		if (n->hash == h && strcmp(n->key, key) == 0)
			return n;
	return NULL;
}

long long
jnode_int(const struct jnode *n, long long def, long long min, long long max)
{
	double v = jnode_num(n, NAN);

	if (!(v >= (double)min && v <= (double)max))	/* NaN fails too */
		return def;
	return (long long)v;
}

const char *
jget_str(const struct jnode *obj, const char *key)
{
	return jnode_str(jget(obj, key));
}

double
jget_num(const struct jnode *obj, const char *key, double def)
{
	return jnode_num(jget(obj, key), def);
}

long long
jget_int(const struct jnode *obj, const char *key, long long def, long long min,
    long long max)
{
	return jnode_int(jget(obj, key), def, min, max);
}

long
jsonl_read(const char *path, jsonl_fn fn, jsonl_bad_fn bad, void *arg,
    unsigned long *skipped)
{
	return jsonl_read_keys(path, NULL, fn, bad, arg, skipped);
}

long
jsonl_read_keys(const char *path, const struct jkeys *keys, jsonl_fn fn,
    jsonl_bad_fn bad, void *arg, unsigned long *skipped)
{
	FILE *f = fopen(path, "re");

	*skipped = 0;
	if (f == NULL)
		return -1;
	long n = jsonl_read_stream_keys(f, path, keys, fn, bad, arg, skipped);
	int e = errno;
	fclose(f);
	errno = e;
	return n;
}

/*
 * A file's lines, read in large blocks into one buffer and parsed where
 * they lie: each line's '\n' becomes the NUL the parser needs, and what
 * follows it (the next line, or zeroes after the last byte read) the
 * padding.  No line is copied.
 */
struct lines {
	FILE	*f;
	char	*buf;
	size_t	 cap, start, fill;	/* buf[start..fill) not handed out yet */
	long long pos;			/* the file's offset of buf[0] */
	int	 eof;
};

#define LINES_BLOCK	(1 << 20)

/* The next line into *s and *len (without its '\n'), *whole whether it
 * had one, *off where it begins in the file: 1, or 0 at the end of the
 * file, -1 if it cannot be read. */
static int
next_line(struct lines *l, char **s, size_t *len, int *whole, long long *off)
{
	for (;;) {
		size_t part = l->fill - l->start;
		char *p = part ? l->buf + l->start : NULL;
		char *nl = part ? memchr(p, '\n', part) : NULL;
		if (nl || (l->eof && part)) {
			*s = p;
			*len = nl ? (size_t)(nl - p) : part;
			*whole = nl != NULL;
			*off = l->pos + (long long)l->start;
			if (nl)
				*nl = '\0';
			l->start += *len + (nl != NULL);
			return 1;
		}
		if (l->eof)
			return 0;
		/* the line begun goes to the front; a line as long as the
		 * buffer doubles it */
		if (part)
			memmove(l->buf, p, part);
		l->pos += (long long)l->start;
		l->start = 0;
		l->fill = part;
		if (l->cap < part + LINES_BLOCK / 2 + JSONL_PAD + 1) {
			size_t cap = l->cap ? 2 * l->cap : LINES_BLOCK;
			char *b = realloc(l->buf, cap);
			if (b == NULL)
				return -1;
			l->buf = b;
			l->cap = cap;
		}
		size_t got = fread(l->buf + l->fill, 1, l->cap - l->fill - JSONL_PAD - 1, l->f);
		l->fill += got;
		memset(l->buf + l->fill, 0, JSONL_PAD + 1);
		if (got == 0) {
			if (ferror(l->f))
				return -1;
			l->eof = 1;
		}
	}
}

/* Line lineno+1 is a mark's: its offset kept (a failed grow keeps none
 * past it, and a second read only seeks less far). */
static void
mark_line(struct jmarks *mk, unsigned long lineno, long long off)
{
	if (lineno % JSONL_MARK_EVERY != 0 || mk->n != lineno / JSONL_MARK_EVERY)
		return;
	if (mk->n == mk->cap) {
		size_t cap = mk->cap ? 2 * mk->cap : 64;
		long long *o = realloc(mk->off, cap * sizeof *o);
		if (o == NULL)
			return;
		mk->off = o;
		mk->cap = cap;
	}
	mk->off[mk->n++] = off;
}

/* Before the next wanted line, a mark past the lines read: seek there,
 * the lines before it never read (a file read before, seekable). */
static void
skip_to(struct lines *l, const struct jmarks *mk, unsigned long next,
    unsigned long *lineno)
{
	size_t m = (next - 1) / JSONL_MARK_EVERY;

	if (m >= mk->n)
		m = mk->n ? mk->n - 1 : 0;
	if (mk->n == 0 || (unsigned long)m * JSONL_MARK_EVERY <= *lineno ||
	    fseeko(l->f, (off_t)mk->off[m], SEEK_SET) != 0)
		return;
	l->pos = mk->off[m];
	l->start = l->fill = 0;
	l->eof = 0;
	*lineno = (unsigned long)m * JSONL_MARK_EVERY;
}

/* The loop of both readers: every line, or only the lines of want[]
 * (ascending), which were read and warned of once already.  mk: the
 * marks to keep (every line read) or to seek by (want). */
static long
read_lines(FILE *f, const char *path, const struct jkeys *keys,
    const unsigned long *want, size_t nwant, jsonl_fn fn, jsonl_bad_fn bad,
    void *arg, unsigned long *skipped, struct jmarks *mk)
{
	struct lines l = { f, NULL, 0, 0, 0, 0, 0 };
	char *line;
	size_t len, k = 0;
	int whole, got = 0;
	unsigned long lineno = 0;
	long long off;
	long handed = 0;
	struct jarena a = { NULL };

	*skipped = 0;
	if (mk && !want)
		mk->n = 0;
	for (;;) {
		if (want && mk && k < nwant)
			skip_to(&l, mk, want[k], &lineno);
		if ((want && k >= nwant) || (got = next_line(&l, &line, &len, &whole, &off)) <= 0)
			break;
		if (mk && !want)
			mark_line(mk, lineno, off);
		lineno++;
		if (want) {
			while (k < nwant && want[k] < lineno)
				k++;
			if (k == nwant || want[k] != lineno)
				continue;
		}
		if (whole && len == 0)
			continue;	/* an empty line is no record */
		int ok;
		const struct jnode *obj = whole ? jsonl_parse_line(line, len, &a, keys,
		    want ? P_LOOSE : 0, &ok) : NULL;
		if (obj == NULL) {
			/* what the damaged line's parse took goes too: memory
			 * stays flat over any number of them */
			jarena_reset(&a);
			if (bad)
				bad(path, lineno, whole ? "not one JSON object" :
				    "incomplete last line", arg);
			(*skipped)++;
			continue;
		}
		handed++;
		int stop = fn && fn(obj, lineno, arg);
		jarena_reset(&a);
		if (stop)
			break;
	}
	jarena_free(&a);
	int e = ferror(f) ? errno : got < 0 ? ENOMEM : 0;
	free(l.buf);
	if (e) {
		errno = e;
		return -1;
	}
	return handed;
}

long
jsonl_read_stream_keys(FILE *f, const char *path, const struct jkeys *keys,
    jsonl_fn fn, jsonl_bad_fn bad, void *arg, unsigned long *skipped)
{
	return read_lines(f, path, keys, NULL, 0, fn, bad, arg, skipped, NULL);
}

long
jsonl_read_stream_marks(FILE *f, const char *path, const struct jkeys *keys,
    jsonl_fn fn, jsonl_bad_fn bad, void *arg, unsigned long *skipped,
    struct jmarks *mk)
{
	return read_lines(f, path, keys, NULL, 0, fn, bad, arg, skipped, mk);
}

long
jsonl_read_only(const char *path, const struct jkeys *keys,
    const unsigned long *want, size_t nwant, jsonl_fn fn, void *arg)
{
	FILE *f = fopen(path, "re");

	if (f == NULL)
		return -1;
	long n = jsonl_read_only_stream(f, keys, want, nwant, fn, arg, NULL);
	int e = errno;
	fclose(f);
	errno = e;
	return n;
}

long
jsonl_read_only_stream(FILE *f, const struct jkeys *keys,
    const unsigned long *want, size_t nwant, jsonl_fn fn, void *arg,
    const struct jmarks *mk)
{
	unsigned long skipped;

	return read_lines(f, "", keys, want, nwant, fn, NULL, arg, &skipped,
	    (struct jmarks *)(uintptr_t)mk);
}
