/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "command.h"
#include "sys.h"
#include "util.h"

static int cmd_help(int, char **);
static int cmd_version(int, char **);

static const struct subcmd subcmds[] = {
	{ "run", "time a job alone and beside each load (the default)", cmd_run },
	{ "report", "print stored results: per load, one row per kernel", cmd_report },
	{ "compare", "a baseline and any number of kernels side by side, exit 1 on a regression",
	    cmd_compare },
	{ "history", "the labels as a series of nights, and where each figure changed",
	    cmd_history },
	{ "bisect", "for git bisect run: whether a label's runs look good (0), bad (1) or neither (125)",
	    cmd_bisect },
	{ "plan", "how many boots and runs a kernel find a change, from labels over boots",
	    cmd_plan },
	{ "list", "list the loads with their options and counters", cmd_list },
	{ "help", "this list, or a subcommand's own: help SUBCOMMAND", cmd_help },
	{ "version", "contest's version and licence", cmd_version },
	{ NULL, NULL, NULL },
};

static void
usage(FILE *f)
{
	fputs("usage: contest [run] [OPTIONS] [-l LOAD[:key=val,...]]... "
	    "[--] [COMMAND [ARG]...]\n"
	    "       contest SUBCOMMAND [ARGS]...\n"
	    "       contest --help | --version\n\nsubcommands:\n", f);
	for (const struct subcmd *c = subcmds; c->name; c++)
		fprintf(f, "  %-8s %s\n", c->name, c->summary);
	fputs("\n'contest help SUBCOMMAND' describes one; "
	    "with no subcommand, contest runs: with no\nCOMMAND either, "
	    "it times its built-in job (a C tree built with make -jNCPU)\n"
	    "alone, 1 warmup and 3 measured runs, a minute or two; Ctrl-C stops it.\n", f);
}

/* Edits (insert, delete, change, swap two neighbours) from a to b. */
static size_t
edits(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), d[3][34];

	if (la > 32 || lb > 32)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t *r = d[i % 3], *p = d[(i - 1) % 3], *pp = d[(i + 1) % 3];
		r[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t v = p[j - 1] + (a[i - 1] != b[j - 1]);
			if (p[j] + 1 < v)
				v = p[j] + 1;
			if (r[j - 1] + 1 < v)
				v = r[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			r[j] = v;
		}
	}
	return d[la % 3][lb];
}

/* The subcommand WORD is a slip of (two edits at most, fewer than half
 * its letters), or NULL. */
static const char *
nearest(const char *word)
{
	const char *best = NULL;
	size_t bd = 3;

	for (const struct subcmd *c = subcmds; c->name; c++) {
		size_t d = edits(word, c->name);
		if (d < bd && 2 * d < strlen(c->name)) {
			bd = d;
			best = c->name;
		}
	}
	return best;
}

static const struct subcmd *
find(const char *name)
{
	for (const struct subcmd *c = subcmds; c->name; c++)
		if (strcmp(name, c->name) == 0)
			return c;
	return NULL;
}

static void __attribute__((noreturn))
no_such(const char *word)
{
	const char *near = nearest(word);

	if (near)
		usage_fail("'%s' is not a contest subcommand; did you mean '%s'?", word, near);
	usage_fail("'%s' is not a contest subcommand (see 'contest help')", word);
}

static int
cmd_help(int argc, char **argv)
{
	if (argc > 2)
		usage_fail("help: one subcommand at most (see 'contest help')");
	if (argc < 2 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return finish_stdout();
	}
	const struct subcmd *c = find(argv[1]);
	if (c == NULL)
		no_such(argv[1]);
	char *av[] = { argv[1], (char *)"--help", NULL };
	return c->fn(2, av);
}

static int
cmd_version(int argc, char **argv)
{
	(void)argv;
	if (argc > 1)
		usage_fail("version: no arguments");
	return print_version();
}

int
main(int argc, char **argv)
{
	/* a closed stdout must not make the results file fd 1 */
	if (std_fds_open() < 0)
		fatal(2, "cannot open /dev/null: %s", strerror(errno));
	if (argc > 1) {
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
			usage(stdout);
			return finish_stdout();
		}
		if (strcmp(argv[1], "--version") == 0)
			return print_version();
		const struct subcmd *c = find(argv[1]);
		if (c)
			return c->fn(argc - 1, argv + 1);
		/* a slip of a subcommand's name, where no program has it */
		if (argv[1][0] != '-' && strchr(argv[1], '/') == NULL &&
		    nearest(argv[1]) && command_find(argv[1], NULL, 0) == ENOENT)
			no_such(argv[1]);
	}
	/* Anything else is a run: options, or the command itself. */
	return cmd_run(argc, argv);
}
