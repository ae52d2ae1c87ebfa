/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --sweep NAME=V1,V2,...: one session timed at several job sizes.  Each
 * combination of values is a cell of its own (its own no_load, its own
 * row in the tables), with {NAME} substituted in COMMAND and --prepare.
 */
#ifndef CONTEST_SWEEP_H
#define CONTEST_SWEEP_H

#include <stddef.h>

#define SWEEP_MAX_NAMES	4
#define SWEEP_MAX_VALUES 64
#define SWEEP_MAX_CELLS	256

#define SWEEP_MAX_TEXT	1024	/* one --sweep's argument */

/* No heap: an option parsed and then refused leaves nothing to free. */
struct sweep {
	char		 text[SWEEP_MAX_NAMES][SWEEP_MAX_TEXT];	/* name\0v1\0v2... */
	const char	*name[SWEEP_MAX_NAMES];
	const char	*value[SWEEP_MAX_NAMES][SWEEP_MAX_VALUES];
	size_t		 nval[SWEEP_MAX_NAMES];
	size_t		 n;
};

/* One combination of values: the job as run. */
struct sweep_cell {
	const char	*val[SWEEP_MAX_NAMES];
	char		*key;		/* "j=2 m=4": the tables' row key */
	char		**argv;		/* COMMAND substituted */
	char		*command;
	char		*prepare_str;	/* --prepare substituted, or NULL */
	char		**prepare;	/* its argv, or NULL */
	int		 prepare_inferred;
	int		 own_prepare;	/* prepare is ours to free */
};

/* Add "NAME=V1,V2,...".  0, or -1 with why. */
int	sweep_add(struct sweep *, const char *arg, char *why, size_t len);

/*
 * Every name must appear as {NAME} in a COMMAND word (not the program)
 * or in the prepare string.  0, or -1 with why.
 */
int	sweep_check(const struct sweep *, char *const argv[], const char *prepare,
	    char *why, size_t len);

/* How many cells: the product of the value counts. */
size_t	sweep_ncells(const struct sweep *);

/* Cell i's values, key, argv and command, and its prepare string. */
void	sweep_cell(const struct sweep *, size_t i, char *const argv[],
	    const char *prepare, struct sweep_cell *);

void	sweep_cell_free(struct sweep_cell *);
void	sweep_free(struct sweep *);

/* s with every {NAME} of the cell's replaced; free the result. */
char	*sweep_subst(const struct sweep *, const struct sweep_cell *, const char *s);

#endif
