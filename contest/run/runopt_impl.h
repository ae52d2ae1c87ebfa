/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The rows of contest run's option table (runopt_table.c) and their kinds,
 * for the code that walks them (runopt_walk.c). */
#ifndef CONTEST_RUNOPT_IMPL_H
#define CONTEST_RUNOPT_IMPL_H

#include "runopt.h"

enum ro_kind {
	RO_INT,		/* a whole number in min..max, of size bytes at off */
	RO_MS,		/* a decimal with at most 3 decimals, stored in
			 * thousandths (seconds as ms), in 0..max */
	RO_FLAG,	/* no value: 1 at off */
	RO_SET,		/* set(): the last given wins */
	RO_ADD,		/* add(): each adds one; non-zero: nothing added */
};

enum {
	RO_SHAPE = 1,		/* the session's shape: bisect --run sets its own */
	RO_REPEAT = 2,		/* repeatable: each adds */
	RO_OPTIONAL = 4,	/* its value optional (--latency[=MS]): the
				 * default when none */
	RO_OURS = 8,		/* no command's option: refused after COMMAND
				 * (runopt_tail_check) */
};

struct run_opt {
	const char	*name;		/* the long spelling, and the key in the
					 * results line's "config" */
	int		 letter;	/* its short one, or 0 */
	const char	*meta;		/* its value, as usage names it; NULL: none */
	enum ro_kind	 kind;
	unsigned	 flags;
	size_t		 off, size;	/* RO_INT, RO_MS, RO_FLAG: where, how wide */
	size_t		 has;		/* an int set to 1 when given, or (size_t)-1 */
	long long	 min, max;
	const char	*unit;		/* RO_MS: "percent"; NULL: seconds */
	const char	*deflt;		/* said in --help; NULL: nothing said */
	const char	*help;
	void		(*set)(struct run_config *, const char *);
	int		(*add)(struct run_config *, const char *);
};

extern const struct run_opt run_opts[];
extern const size_t run_nopts;

#endif
