/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Subcommands: one signature each, dispatched from main.c's table. */
#ifndef CONTEST_CLI_H
#define CONTEST_CLI_H

#include <stdio.h>

struct subcmd {
	const char	*name;
	const char	*summary;
	int		(*fn)(int argc, char **argv);	/* its own --help too */
};

int	cmd_run(int, char **);
/* cmd_run's parsing and checks alone, nothing started (fuzz targets). */
int	cmd_run_check(int, char **);
void	usage_run(FILE *);
int	cmd_list(int, char **);
void	usage_list(FILE *);
int	cmd_report(int, char **);
void	usage_report(FILE *);
int	cmd_compare(int, char **);
void	usage_compare(FILE *);
int	cmd_history(int, char **);
void	usage_history(FILE *);
int	cmd_bisect(int, char **);
void	usage_bisect(FILE *);
int	cmd_plan(int, char **);
void	usage_plan(FILE *);

/* After getopt_long returned ':' or '?': one line naming the option, exit 2. */
void	getopt_fail(const char *cmd, int ch, char **argv)
	    __attribute__((noreturn));

/* Print "contest VERSION" and the licence line; exit 0 after a flush check. */
int	print_version(void);
/* fflush(stdout) and ferror: 0, or 1 with a message. */
int	finish_stdout(void);

#endif
