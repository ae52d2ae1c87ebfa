/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A parsed line's members by key, and the files of lines: each line
 * parsed into one arena, handed over, and the arena reset. */
#include "config.h"

#include <errno.h>
#include <math.h>
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
	if (obj->index) {
		for (unsigned i = h & obj->mask; obj->index[i]; i = (i + 1) & obj->mask)
			if (obj->index[i]->hash == h && strcmp(obj->index[i]->key, key) == 0)
				return obj->index[i];
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

/* The loop of both readers: every line, or only the lines of want[]
 * (ascending), which were read and warned of once already. */
static long
read_lines(FILE *f, const char *path, const struct jkeys *keys,
    const unsigned long *want, size_t nwant, jsonl_fn fn, jsonl_bad_fn bad,
    void *arg, unsigned long *skipped)
{
	char *line = NULL;
	size_t cap = 0, k = 0;
	ssize_t n;
	unsigned long lineno = 0;
	long handed = 0;
	struct jarena a = { NULL };

	*skipped = 0;
	while ((!want || k < nwant) && (n = getline(&line, &cap, f)) > 0) {
		size_t len = (size_t)n;
		int whole = line[len - 1] == '\n';
		lineno++;
		if (want) {
			while (k < nwant && want[k] < lineno)
				k++;
			if (k == nwant || want[k] != lineno)
				continue;
		}
		if (whole)
			len--;
		if (len == 0)
			continue;	/* an empty line is no record */
		int ok;
		/* the line is ours: its strings are decoded where they are */
		const struct jnode *obj = whole ? jsonl_parse_with(line, len, &a, keys,
		    P_INSITU | (want ? P_LOOSE : 0), &ok) : NULL;
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
	int e = ferror(f) ? errno : 0;
	free(line);
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
	return read_lines(f, path, keys, NULL, 0, fn, bad, arg, skipped);
}

long
jsonl_read_only(const char *path, const struct jkeys *keys,
    const unsigned long *want, size_t nwant, jsonl_fn fn, void *arg)
{
	FILE *f = fopen(path, "re");

	if (f == NULL)
		return -1;
	long n = jsonl_read_only_stream(f, keys, want, nwant, fn, arg);
	int e = errno;
	fclose(f);
	errno = e;
	return n;
}

long
jsonl_read_only_stream(FILE *f, const struct jkeys *keys,
    const unsigned long *want, size_t nwant, jsonl_fn fn, void *arg)
{
	unsigned long skipped;

	return read_lines(f, "", keys, want, nwant, fn, NULL, arg, &skipped);
}
