/* SPDX-License-Identifier: GPL-2.0-or-later */
/* -l NAME[:key=val,...]: which load, with which option values. */
#ifndef CONTEST_LOADSPEC_H
#define CONTEST_LOADSPEC_H

#include <stddef.h>

#include "load.h"

struct loadspec {
	const struct load *load;
	long long	 opt[LOAD_MAX_OPTS];
	unsigned	 set;		/* bit i: opt i given by the user */
	/* STR option i's text is strbuf + opt[i]; -1 when it has none. */
	char		 strbuf[LOAD_STR_MAX];
	char		 name[LOAD_STR_MAX + 128]; /* canonical: name[:k=v,...],
						    * table order */
	/* the load's descriptor, resolved once for these options: its
	 * counters, the headline's index (0 without counters), and bit i
	 * set where counter i means something for them */
	size_t		 ncounters;
	unsigned	 headline;
	unsigned long long shown;
};

/*
 * Parse arg into *ls.  On error returns -1 with one line (no newline) in
 * err naming the load or option and why.
 */
int	loadspec_parse(const char *arg, struct loadspec *ls, char *err, size_t errlen);

/* Text of option i's value ("3", "vfork", "/tmp") into buf; a STR option
 * without a value (LOAD_OPT_WORKDIR) gives workdir. */
const char *loadspec_value(const struct loadspec *, size_t i, const char *workdir,
	    char *buf, size_t len);

/* STR option i's text, or NULL if it has none. */
const char *loadspec_str(const struct loadspec *, size_t i);

#endif
