/* The end-of-run report in contest's classic block layout. */
#ifndef CONTEST_TABLE_H
#define CONTEST_TABLE_H

#include <stdio.h>

#include "run.h"
#include "report.h"

/* Print the session's table; runs that may have done no work are marked,
 * noted under their block and named on stderr.  Returns how many. */
int	table_print(FILE *, const struct session *);

#endif
