/* Subcommands: one signature each, dispatched from main.c's table. */
#ifndef CONTEST_CLI_H
#define CONTEST_CLI_H

#include <stdio.h>

struct subcmd {
	const char	*name;
	const char	*summary;
	int		(*fn)(int argc, char **argv);
	void		(*usage)(FILE *);
};

int	cmd_run(int, char **);
void	usage_run(FILE *);
int	cmd_list(int, char **);
void	usage_list(FILE *);

/* Print "contest VERSION" and the licence line; exit 0 after a flush check. */
int	print_version(void);
/* fflush(stdout) and ferror: 0, or 1 with a message. */
int	finish_stdout(void);

#endif
