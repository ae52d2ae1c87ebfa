/* -l NAME[:key=val,...]: which load, with which option values. */
#ifndef CONTEST_LOADSPEC_H
#define CONTEST_LOADSPEC_H

#include <stddef.h>

#include "load.h"

struct loadspec {
	const struct load *load;
	long long	 opt[LOAD_MAX_OPTS];
	unsigned	 set;		/* bit i: opt i given by the user */
	char		 name[128];	/* canonical: name[:k=v,...], table order */
};

/*
 * Parse arg into *ls.  On error returns -1 with one line (no newline) in
 * err naming the load or option and why.
 */
int	loadspec_parse(const char *arg, struct loadspec *ls, char *err, size_t errlen);

/* Text of option i's value ("3", "vfork") into buf. */
const char *loadspec_value(const struct loadspec *, size_t i, char *buf, size_t len);

#endif
