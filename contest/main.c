/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "util.h"

static const struct subcmd subcmds[] = {
	{ "run", "time a job alone and beside each load (the default)", cmd_run },
	{ "report", "print stored results: per load, one row per kernel", cmd_report },
	{ "compare", "a baseline and any number of kernels side by side, exit 1 on a regression",
	    cmd_compare },
	{ "history", "the labels as a series of nights, and where each figure changed",
	    cmd_history },
	{ "bisect", "for git bisect run: whether a label's runs look good (0), bad (1) or neither (125)",
	    cmd_bisect },
	{ "list", "list the loads with their options and counters", cmd_list },
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
	fputs("\n'contest SUBCOMMAND --help' describes one; "
	    "with no subcommand, contest runs.\n", f);
}

int
main(int argc, char **argv)
{
	if (argc > 1) {
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
			usage(stdout);
			return finish_stdout();
		}
		if (strcmp(argv[1], "--version") == 0)
			return print_version();
		for (const struct subcmd *c = subcmds; c->name; c++)
			if (strcmp(argv[1], c->name) == 0)
				return c->fn(argc - 1, argv + 1);
	}
	/* Anything else is a run: options, or the command itself. */
	return cmd_run(argc, argv);
}
