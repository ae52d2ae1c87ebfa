/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What walks contest run's option table: getopt_long's arrays made from
 * it, each value checked against its row's range and stored, the usage
 * text, the results line's "config", and the argv that asks again.
 */
#include "config.h"

#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "keys.h"
#include "load.h"
#include "num.h"
#include "runopt_impl.h"
#include "util.h"

#define LONG_CODE	256	/* a row's getopt code: LONG_CODE + its index */
#define WIDTH		78	/* of the usage text */
#define HELP_COL	23	/* where an option's help starts */

static const struct run_opt *
by_name(const char *name)
{
	for (size_t i = 0; i < run_nopts; i++)
		if (strcmp(run_opts[i].name, name) == 0)
			return &run_opts[i];
	return NULL;
}

static const struct run_opt *
by_code(int ch)
{
	if (ch >= LONG_CODE && (size_t)(ch - LONG_CODE) < run_nopts)
		return &run_opts[ch - LONG_CODE];
	for (size_t i = 0; ch > 0 && i < run_nopts; i++)
		if (run_opts[i].letter == ch)
			return &run_opts[i];
	return NULL;
}

/* As messages name it: its letter when it has one. */
static void
spelled(const struct run_opt *o, char *buf, size_t len)
{
	if (o->letter)
		snprintf(buf, len, "-%c", o->letter);
	else
		snprintf(buf, len, "--%s", o->name);
}

static void
store(struct run_config *c, const struct run_opt *o, long long v)
{
	char *p = (char *)c + o->off;

	if (o->size == sizeof(long long))
		*(long long *)p = v;
	else if (o->size == sizeof(int))
		*(int *)p = (int)v;	/* unsigned fields too: in range */
	else
		abort();
}

/* A number of o's into c; dflt: the table's default, which no check can
 * refuse and which marks nothing given. */
static void
number(struct run_config *c, const struct run_opt *o, const char *arg, int dflt)
{
	const char *why;
	char name[64];
	long long v;

	spelled(o, name, sizeof name);
	if (o->kind == RO_INT) {
		v = num_parse(arg, o->min, o->max, &why);
		if (why)
			usage_fail("%s: '%s' is %s (allowed %lld..%lld)", name, arg,
			    why, o->min, o->max);
	} else {
		v = num_parse_ms(arg, o->max, &why);
		if (why)
			usage_fail("%s: '%s' is %s (allowed 0..%g %s, at most 3 "
			    "decimals)", name, arg, why, (double)o->max / 1000,
			    o->unit ? o->unit : "seconds");
	}
	store(c, o, v);
	if (!dflt && o->has != (size_t)-1)
		*(int *)((char *)c + o->has) = 1;
}

/* Each row's default, where its help gives one as a number first. */
static void
defaults(struct run_config *c)
{
	for (size_t i = 0; i < run_nopts; i++) {
		const struct run_opt *o = &run_opts[i];
		char num[32];
		size_t n = 0;

		if ((o->kind != RO_INT && o->kind != RO_MS) || o->deflt == NULL ||
		    (o->flags & RO_OPTIONAL))
			continue;
		while (n < sizeof num - 1 && (isdigit((unsigned char)o->deflt[n]) ||
		    o->deflt[n] == '.'))
			n++;
		if (n == 0)
			continue;
		memcpy(num, o->deflt, n);
		num[n] = '\0';
		number(c, o, num, 1);
	}
}

/* o given as val: kept for "config" and a replay, a later one in the
 * place of an earlier unless o repeats. */
static void
given(struct run_config *c, const struct run_opt *o, const char *val)
{
	size_t i = 0;

	if (!(o->flags & RO_REPEAT))
		while (i < c->ngiven && c->given[i].opt != o)
			i++;
	if ((o->flags & RO_REPEAT) || i == c->ngiven) {
		if (c->ngiven == RUN_GIVEN_MAX)
			usage_fail("at most %d options", RUN_GIVEN_MAX);
		i = c->ngiven++;
	}
	c->given[i] = (struct run_given){ o, val };
}

static void
take(struct run_config *c, const struct run_opt *o, const char *arg)
{
	if (arg == NULL && (o->flags & RO_OPTIONAL))
		arg = o->deflt;
	switch (o->kind) {
	case RO_INT:
	case RO_MS:
		number(c, o, arg, 0);
		break;
	case RO_FLAG:
		*(int *)((char *)c + o->off) = 1;
		break;
	case RO_SET:
		o->set(c, arg);
		break;
	case RO_ADD:
		if (o->add(c, arg))
			return;
		break;
	}
	given(c, o, arg);
}

int
runopt_parse(int argc, char **argv, struct run_config *c, int *bad)
{
	static struct option lo[64];
	char so[64] = "+:";
	size_t k = 2;
	int ch;

	if (run_nopts + 2 > sizeof lo / sizeof lo[0])
		abort();
	for (size_t i = 0; i < run_nopts; i++) {
		const struct run_opt *o = &run_opts[i];
		lo[i] = (struct option){ o->name, o->meta == NULL ? no_argument :
		    (o->flags & RO_OPTIONAL) ? optional_argument : required_argument,
		    NULL, LONG_CODE + (int)i };
		if (o->letter) {
			so[k++] = (char)o->letter;
			so[k++] = ':';
		}
	}
	lo[run_nopts] = (struct option){ "help", no_argument, NULL, 'h' };
	lo[run_nopts + 1] = (struct option){ NULL, 0, NULL, 0 };
	so[k++] = 'h';
	so[k] = '\0';

	c->ngiven = 0;
	defaults(c);
	getopt_restart();
	int value_at = -1;	/* the word an option's value was last */
	while ((ch = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		const struct run_opt *o = by_code(ch);

		if (ch == 'h')
			return -2;
		if (o == NULL) {
			*bad = ch;
			return -1;
		}
		if (optarg && optind >= 1 && optarg == argv[optind - 1])
			value_at = optind - 1;
		take(c, o, optarg);
	}
	/* "--" ended the options, unless it was a value (-k --) */
	c->dashdash = optind >= 1 && optind <= argc && value_at != optind - 1 &&
	    strcmp(argv[optind - 1], "--") == 0;
	return optind;
}

/* The value w gives -l or --load (the next word, or after '=' or the
 * letter), or NULL when w is neither. */
static const char *
load_value(const char *w, const char *next)
{
	if (strcmp(w, "-l") == 0 || strcmp(w, "--load") == 0)
		return next;
	if (strncmp(w, "--load=", 7) == 0)
		return w + 7;
	if (strncmp(w, "-l", 2) == 0)
		return w + 2;
	return NULL;
}

/* v names a load of the registry, with or without ":key=val,...". */
static int
is_load(const char *v)
{
	char name[64];
	size_t n = strcspn(v, ":");

	if (n == 0 || n >= sizeof name)
		return 0;
	memcpy(name, v, n);
	name[n] = '\0';
	return load_find(name) != NULL;
}

/* A long option of contest's that no command takes: "name" or
 * "name=value" (w past its "--"). */
static int
ours(const char *w)
{
	size_t n = strcspn(w, "=");

	for (size_t i = 0; i < run_nopts; i++)
		if ((run_opts[i].flags & RO_OURS) && strlen(run_opts[i].name) == n &&
		    strncmp(run_opts[i].name, w, n) == 0)
			return 1;
	return 0;
}

void
runopt_tail_check(int argc, char *const *argv)
{
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
		const char *v = load_value(w, next);
		char said[160];

		if (v && is_load(v))
			snprintf(said, sizeof said, v == next ? "%s %s" : "%s", w, v);
		else if (strncmp(w, "--", 2) == 0 && ours(w + 2))
			snprintf(said, sizeof said, "%.*s", (int)strcspn(w, "="), w);
		else
			continue;
		usage_fail("'%s' after the command would go to %s: put contest's "
		    "options before the command, or '--' before it to hand %s "
		    "those words on purpose", said, argv[0], argv[0]);
	}
}

/* One synopsis item, "[--name META]", "[--latency[=MS]]", "[-l S]...". */
static int
item(const struct run_opt *o, char *buf, size_t len)
{
	char name[64];

	spelled(o, name, sizeof name);
	return snprintf(buf, len, "[%s%s%s%s]%s", name, o->meta == NULL ? "" :
	    (o->flags & RO_OPTIONAL) ? "[=" : " ", o->meta ? o->meta : "",
	    o->flags & RO_OPTIONAL ? "]" : "", o->flags & RO_REPEAT ? "..." : "");
}

/* words wrapped at WIDTH, from column col, later lines at indent */
static void
wrap(FILE *f, const char *text, int col, int indent)
{
	for (const char *p = text; *p; ) {
		int w = (int)strcspn(p, " ");
		if (p != text && col + 1 + w > WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (p != text) {
			fputc(' ', f);
			col++;
		}
		col += fprintf(f, "%.*s", w, p);
		p += w;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

static void
help_row(FILE *f, const struct run_opt *o)
{
	char head[96], text[1024];
	int n;

	n = o->letter ? snprintf(head, sizeof head, "-%c, --%s", o->letter,
	    o->name) : snprintf(head, sizeof head, "    --%s", o->name);
	if (o->meta)
		snprintf(head + n, sizeof head - (size_t)n, (o->flags & RO_OPTIONAL) ?
		    "[=%s]" : " %s", o->meta);
	n = snprintf(text, sizeof text, "%s", o->help);
	if (o->kind == RO_INT || o->kind == RO_MS) {
		double sc = o->kind == RO_MS ? 1000.0 : 1.0;
		/* a default that explains itself ends with a semicolon */
		snprintf(text + n, sizeof text - (size_t)n, " (%s%s%s%.10g..%.10g)",
		    o->deflt ? "default " : "", o->deflt ? o->deflt : "",
		    o->deflt == NULL ? "" : strpbrk(o->deflt, ":,") ? "; " : ", ",
		    (double)o->min / sc, (double)o->max / sc);
	}
	wrap(f, text, fprintf(f, "  %-*s  ", HELP_COL - 4, head), HELP_COL);
}

void
runopt_usage(FILE *f, const char *about)
{
	const char *lead = "usage: contest [run]";
	char buf[128];
	int col = fprintf(f, "%s", lead);

	for (size_t i = 0; i <= run_nopts; i++) {
		int w = i < run_nopts ? item(&run_opts[i], buf, sizeof buf) :
		    snprintf(buf, sizeof buf, "[--] [COMMAND [ARG]...]");
		if (col + 1 + w > WIDTH) {
			fprintf(f, "\n%16s", "");
			col = 16;
		} else {
			fputc(' ', f);
			col++;
		}
		col += fprintf(f, "%s", buf);
	}
	fprintf(f, "\n\n%s\n\n", about);
	for (size_t i = 0; i < run_nopts; i++)
		help_row(f, &run_opts[i]);
	help_row(f, &(const struct run_opt){ .name = "help", .letter = 'h',
	    .kind = RO_FLAG, .help = "this text" });
}

void
runopt_json(struct json *j, const struct run_config *c)
{
	json_key(j, RK_NAME(CONFIG));
	json_obj_begin(j);
	for (size_t i = 0; i < run_nopts; i++) {
		const struct run_opt *o = &run_opts[i];
		int n = 0;

		for (size_t g = 0; g < c->ngiven; g++) {
			if (c->given[g].opt != o)
				continue;
			if (n++ == 0) {
				json_key(j, o->name);
				if (o->flags & RO_REPEAT)
					json_arr_begin(j);
			}
			if (o->kind == RO_FLAG)
				json_bool(j, 1);
			else
				json_str(j, c->given[g].val);
		}
		if (n && (o->flags & RO_REPEAT))
			json_arr_end(j);
	}
	json_obj_end(j);
}

size_t
runopt_pairs(const struct run_config *c, const char **out)
{
	for (size_t g = 0; g < c->ngiven; g++) {
		out[2 * g] = c->given[g].opt->name;
		out[2 * g + 1] = c->given[g].opt->kind == RO_FLAG ? NULL :
		    c->given[g].val;
	}
	return c->ngiven;
}

size_t
runopt_argv(const char *const *pairs, size_t n, int which, char **av)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct run_opt *o = by_name(pairs[2 * i]);
		const char *v = pairs[2 * i + 1];

		if (o == NULL || (which == RUNOPT_REPLAY && (o->flags & RO_SHAPE)))
			continue;
		/* one word, so that '' and a leading '-' stay values */
		size_t len = strlen(o->name) + (v ? strlen(v) : 0) + 4;
		av[k] = xcalloc(len, 1);
		snprintf(av[k++], len, o->kind == RO_FLAG ? "--%s" : "--%s=%s",
		    o->name, v ? v : "");
	}
	return k;
}

size_t
runopt_rerun_argv(const struct run_config *c, char *const cmd[], int ncmd,
    char **av)
{
	static const char *pairs[2 * RUN_GIVEN_MAX];
	size_t n = runopt_argv(pairs, runopt_pairs(c, pairs), RUNOPT_ALL, av);
	size_t k = n;

	/* no command: the built-in job, which a "--" would refuse */
	if (ncmd > 0)
		av[k++] = (char *)"--";
	for (int i = 0; i < ncmd; i++)
		av[k++] = cmd[i];
	av[k] = NULL;
	return n;
}
