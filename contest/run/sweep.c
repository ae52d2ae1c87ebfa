/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "makejob.h"
#include "sweep.h"
#include "util.h"

static int
valid_name(const char *s, size_t len)
{
	if (len == 0 || len > 32 || (s[0] >= '0' && s[0] <= '9'))
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
			return 0;
	return 1;
}

int
sweep_add(struct sweep *w, const char *arg, char *why, size_t len)
{
	const char *eq = strchr(arg, '=');

	if (eq == NULL || !valid_name(arg, (size_t)(eq - arg))) {
		snprintf(why, len, "'%s' is not NAME=V1,V2,... (NAME: letters, digits "
		    "and _, 1..32, not starting with a digit)", arg);
		return -1;
	}
	size_t nl = (size_t)(eq - arg);
	for (size_t i = 0; i < w->n; i++)
		if (strlen(w->name[i]) == nl && strncmp(w->name[i], arg, nl) == 0) {
			snprintf(why, len, "'%.*s' swept twice", (int)nl, arg);
			return -1;
		}
	if (w->n == SWEEP_MAX_NAMES) {
		snprintf(why, len, "at most %d names", SWEEP_MAX_NAMES);
		return -1;
	}
	if (strlen(arg) >= SWEEP_MAX_TEXT) {
		snprintf(why, len, "'%.40s...' is longer than %d characters", arg,
		    SWEEP_MAX_TEXT - 1);
		return -1;
	}
	size_t k = w->n, cells = sweep_ncells(w);
	char *t = w->text[k];
	/* name\0v1\0v2...: the values cut where the commas were */
	strcpy(t, arg);
	t[nl] = '\0';
	w->nval[k] = 0;
	for (char *p = t + nl + 1;;) {
		size_t vl = strcspn(p, ",");
		int last = p[vl] == '\0';
		if (vl == 0) {
			snprintf(why, len, "'%s': an empty value", arg);
			return -1;
		}
		p[vl] = '\0';
		for (size_t i = 0; i < vl; i++)
			if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f || p[i] == '{' ||
			    p[i] == '}') {
				snprintf(why, len, "'%s': a value holds a control character "
				    "or a brace", arg);
				return -1;
			}
		for (size_t i = 0; i < w->nval[k]; i++)
			if (strcmp(w->value[k][i], p) == 0) {
				snprintf(why, len, "'%s': value '%s' given twice", arg, p);
				return -1;
			}
		if (w->nval[k] == SWEEP_MAX_VALUES) {
			snprintf(why, len, "'%s': at most %d values", arg, SWEEP_MAX_VALUES);
			return -1;
		}
		w->value[k][w->nval[k]++] = p;
		if (last)
			break;
		p += vl + 1;
	}
	if (cells * w->nval[k] > SWEEP_MAX_CELLS) {
		snprintf(why, len, "at most %d combinations of values", SWEEP_MAX_CELLS);
		return -1;
	}
	w->name[k] = t;
	w->n++;
	return 0;
}

static int
holds(const char *s, const char *name)
{
	size_t nl = strlen(name);

	for (const char *p = s ? strchr(s, '{') : NULL; p; p = strchr(p + 1, '{'))
		if (strncmp(p + 1, name, nl) == 0 && p[nl + 1] == '}')
			return 1;
	return 0;
}

int
sweep_check(const struct sweep *w, char *const argv[], const char *prepare,
    char *why, size_t len)
{
	for (size_t k = 0; k < w->n; k++) {
		int found = holds(prepare, w->name[k]);
		if (argv && argv[0] && holds(argv[0], w->name[k])) {
			snprintf(why, len, "{%s} in the program's name: a sweep changes "
			    "its arguments, not the program", w->name[k]);
			return -1;
		}
		for (size_t i = 1; argv && argv[0] && argv[i] && !found; i++)
			found = holds(argv[i], w->name[k]);
		if (!found) {
			snprintf(why, len, "{%s} appears in neither COMMAND nor --prepare",
			    w->name[k]);
			return -1;
		}
	}
	return 0;
}

size_t
sweep_ncells(const struct sweep *w)
{
	size_t n = 1;

	for (size_t k = 0; k < w->n; k++)
		n *= w->nval[k];
	return n;
}

char *
sweep_subst(const struct sweep *w, const struct sweep_cell *c, const char *s)
{
	size_t cap = strlen(s) + 1;

	for (size_t k = 0; k < w->n; k++)
		cap += strlen(c->val[k]) * (strlen(s) / 2 + 1);
	char *out = xcalloc(cap, 1), *o = out;
	while (*s) {
		int done = 0;
		for (size_t k = 0; *s == '{' && k < w->n && !done; k++) {
			size_t nl = strlen(w->name[k]);
			if (strncmp(s + 1, w->name[k], nl) == 0 && s[nl + 1] == '}') {
				o = stpcpy(o, c->val[k]);
				s += nl + 2;
				done = 1;
			}
		}
		if (!done)
			*o++ = *s++;
	}
	*o = '\0';
	return out;
}

void
sweep_cell(const struct sweep *w, size_t i, char *const argv[],
    const char *prepare, struct sweep_cell *c)
{
	size_t len = 1, n = 0;

	memset(c, 0, sizeof *c);
	/* the first name varies slowest: j=1 m=1, j=1 m=2, j=2 m=1 ... */
	for (size_t k = w->n; k-- > 0;) {
		c->val[k] = w->value[k][i % w->nval[k]];
		i /= w->nval[k];
	}
	for (size_t k = 0; k < w->n; k++)
		len += strlen(w->name[k]) + strlen(c->val[k]) + 2;
	c->key = xcalloc(len, 1);
	for (size_t k = 0; k < w->n; k++)
		snprintf(c->key + strlen(c->key), len - strlen(c->key), "%s%s=%s",
		    k ? " " : "", w->name[k], c->val[k]);
	while (argv[n])
		n++;
	c->argv = xcalloc(n + 1, sizeof *c->argv);
	for (size_t a = 0; a < n; a++)
		c->argv[a] = sweep_subst(w, c, argv[a]);
	c->command = argv_join(c->argv, 0);
	c->prepare_str = prepare ? sweep_subst(w, c, prepare) : NULL;
}

void
sweep_cell_free(struct sweep_cell *c)
{
	free(c->key);
	argv_free(c->argv);
	free(c->command);
	if (c->own_prepare)
		argv_free(c->prepare);
	free(c->prepare_str);
	memset(c, 0, sizeof *c);
}

void
sweep_free(struct sweep *w)
{
	w->n = 0;	/* nothing of it is on the heap */
}
