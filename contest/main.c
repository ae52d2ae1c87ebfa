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
	    "       contest --help | --version | -V\n\nsubcommands:\n", f);
	for (const struct subcmd *c = subcmds; c->name; c++)
		fprintf(f, "  %-8s %s\n", c->name, c->summary);
	fputs("\n'contest help SUBCOMMAND' describes one; "
	    "with no subcommand, contest runs: with no\nCOMMAND either, "
	    "it times its built-in job (a C tree built with make -jNCPU)\n"
	    "alone, 1 warmup and 3 measured runs, a minute or two; Ctrl-C stops it.\n", f);
}

/* The subcommand WORD is a slip of (two edits at most, fewer than half
 * its letters), or NULL. */
static const char *
nearest(const char *word)
{
	const char *best = NULL;
	size_t bd = 3;

	for (const struct subcmd *c = subcmds; c->name; c++) {
		size_t d = str_edits(word, c->name);
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
		usage_fail("one subcommand at most (see 'contest help')");
	if (argc < 2 || strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0) {
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
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		fputs("usage: contest version\n\ncontest's version and licence; "
		    "the same as contest --version or -V.\n", stdout);
		return finish_stdout();
	}
	if (argc > 1)
		usage_fail("no arguments");
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
		if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)
			return print_version();
		const struct subcmd *c = find(argv[1]);
		if (c) {
			/* a run's messages are contest's own, as with no
			 * subcommand; the others' name theirs */
			static char who[32];
			if (c->fn != cmd_run) {
				snprintf(who, sizeof who, "contest %s", c->name);
				util_who(who);
			}
			return c->fn(argc - 1, argv + 1);
		}
		/* a slip of a subcommand's name, where no program has it */
		if (argv[1][0] != '-' && strchr(argv[1], '/') == NULL &&
		    nearest(argv[1]) && command_find(argv[1], NULL, 0) == ENOENT)
			no_such(argv[1]);
	}
	/* Anything else is a run: options, or the command itself. */
	return cmd_run(argc, argv);
}
