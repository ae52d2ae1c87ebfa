/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "makejob.h"
#include "util.h"

/* GNU make's options that take a value, and what the clean step keeps. */
struct mopt {
	const char	*lng;
	char		 shrt;		/* 0: long only */
	char		 keep;		/* short form to pass on, or 0 to drop */
	char		 optional;	/* value only when numeric (-j, -l) */
};

static const struct mopt mopts[] = {
	{ "directory", 'C', 'C', 0 },
	{ "file", 'f', 'f', 0 },
	{ "makefile", 0, 'f', 0 },
	{ "include-dir", 'I', 'I', 0 },
	{ "old-file", 'o', 0, 0 },
	{ "assume-old", 0, 0, 0 },
	{ "what-if", 'W', 0, 0 },
	{ "new-file", 0, 0, 0 },
	{ "assume-new", 0, 0, 0 },
	{ "eval", 'E', 0, 0 },
	{ "jobserver-auth", 0, 0, 0 },
	{ "jobserver-fds", 0, 0, 0 },
	{ "jobserver-style", 0, 0, 0 },
	{ "jobs", 'j', 0, 1 },
	{ "load-average", 'l', 0, 1 },
	{ "max-load", 0, 0, 1 },
	{ NULL, 0, 0, 0 },
};

int
makejob_is_make(const char *argv0)
{
	const char *base = strrchr(argv0, '/');

	base = base ? base + 1 : argv0;
	return strcmp(base, "make") == 0 || strcmp(base, "gmake") == 0;
}

/* A make variable assignment: NAME=, NAME:=, NAME::=, NAME+=, NAME?=. */
static int
is_assignment(const char *w)
{
	const char *eq = strchr(w, '=');

	if (eq == NULL || eq == w || w[0] == '-')
		return 0;
	for (const char *p = w; p < eq; p++)
		if (*p == ' ' || *p == '\t')
			return 0;
	return 1;
}

static int
numeric(const char *w, int dot)
{
	if (*w == '\0')
		return 0;
	for (; *w; w++)
		if (!(*w >= '0' && *w <= '9') && !(dot && *w == '.'))
			return 0;
	return 1;
}

static void
push(char **out, size_t *n, const char *w)
{
	out[(*n)++] = xstrdup(w);
}

static void
keep(char **out, size_t *n, const struct mopt *o, const char *val)
{
	char flag[3] = { '-', o->keep, '\0' };

	if (o->keep == 0 || val == NULL)
		return;
	push(out, n, flag);
	push(out, n, val);
}

char **
makejob_clean(char *const argv[], int dry)
{
	size_t argc = 0, n = 0;
	int opts = 1;

	if (argv[0] == NULL || !makejob_is_make(argv[0]))
		return NULL;
	while (argv[argc])
		argc++;
	/* every word kept at most twice (-C and DIR), plus make, -n, clean */
	char **out = xcalloc(2 * argc + 4, sizeof *out);
	push(out, &n, argv[0]);
	if (dry)
		push(out, &n, "-n");
	for (size_t i = 1; i < argc; i++) {
		const char *w = argv[i];
		if (opts && strcmp(w, "--") == 0) {
			opts = 0;
			continue;
		}
		if (!opts || w[0] != '-' || w[1] == '\0') {
			if (is_assignment(w))
				push(out, &n, w);
			continue;	/* a target */
		}
		if (w[1] == '-') {
			const char *name = w + 2, *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			const struct mopt *o;
			for (o = mopts; o->lng; o++)
				if (strlen(o->lng) == len && strncmp(o->lng, name, len) == 0)
					break;
			if (o->lng == NULL)
				continue;	/* a flag, or an option we need not know */
			const char *val = eq ? eq + 1 : NULL;
			if (val == NULL && i + 1 < argc &&
			    (!o->optional || numeric(argv[i + 1], o->shrt == 'l' ||
			    strcmp(o->lng, "max-load") == 0)))
				val = argv[++i];
			keep(out, &n, o, val);
			continue;
		}
		/* a cluster of short options: -sk, -j4, -Cdir, -kC dir */
		for (const char *p = w + 1; *p; p++) {
			const struct mopt *o;
			for (o = mopts; o->lng && o->shrt != *p; o++)
				;
			if (o->lng == NULL)
				continue;
			const char *val = p[1] ? p + 1 : NULL;
			if (o->optional && val && !numeric(val, o->shrt == 'l'))
				continue;	/* -jk: -j without a value, then -k */
			if (val == NULL && i + 1 < argc &&
			    (!o->optional || numeric(argv[i + 1], o->shrt == 'l')))
				val = argv[++i];
			keep(out, &n, o, val);
			break;
		}
	}
	push(out, &n, "clean");
	out[n] = NULL;
	return out;
}

void
argv_free(char **v)
{
	if (v == NULL)
		return;
	for (size_t i = 0; v[i]; i++)
		free(v[i]);
	free(v);
}

static int
needs_quotes(const char *w)
{
	if (*w == '\0')
		return 1;
	for (; *w; w++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789_-+=.,/:@%^", *w))
			return 1;
	return 0;
}

char *
argv_join(char *const argv[], int quote)
{
	size_t len = 1;

	for (size_t i = 0; argv[i]; i++)
		len += 4 * strlen(argv[i]) + 3;	/* every ' as '\'' at worst */
	char *s = xcalloc(len, 1), *p = s;
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			*p++ = ' ';
		if (!quote || !needs_quotes(argv[i])) {
			p = stpcpy(p, argv[i]);
			continue;
		}
		*p++ = '\'';
		for (const char *c = argv[i]; *c; c++)
			p = *c == '\'' ? stpcpy(p, "'\\''") : (*p = *c, p + 1);
		*p++ = '\'';
	}
	*p = '\0';
	return s;
}

/* Where the job runs: a make job's -C DIR (the last one), else ".". */
const char *
makejob_dir(char *const argv[])
{
	const char *dir = ".";

	if (!makejob_is_make(argv[0]))
		return dir;
	for (size_t i = 1; argv[i]; i++) {
		if (strcmp(argv[i], "-C") == 0 && argv[i + 1])
			dir = argv[++i];
		else if (strncmp(argv[i], "-C", 2) == 0 && argv[i][2])
			dir = argv[i] + 2;
		else if (strncmp(argv[i], "--directory=", 12) == 0)
			dir = argv[i] + 12;
	}
	return dir;
}
