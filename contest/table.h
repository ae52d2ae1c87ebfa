/* The end-of-run report in contest's classic block layout. */
#ifndef CONTEST_TABLE_H
#define CONTEST_TABLE_H

#include <stdio.h>

#include "run.h"
#include "stats.h"

/* Print the session's table; runs that may have done no work are marked,
 * noted under their block and named on stderr.  Returns how many. */
int	table_print(FILE *, const struct session *);

/*
 * One row of the classic block, shared by the run's table and the
 * report: "Kernel [runs] Time CPU% Loads LCPU% Ratio", Time and Ratio
 * with their standard deviation; stats adds CoV, min, median, max and
 * the CI95 of Time and of Ratio.  NaN prints as "-".
 */
struct trow {
	const char	*name;
	size_t		 ok, failed;
	const struct stats *time;
	double		 cpu_pct, loads, lcpu_pct;
	double		 ratio, ratio_sd, ratio_ci95;
	char		 mark;		/* after Time: ' ' or '?' */
};

void	table_head(FILE *, int stats);
void	table_line(FILE *, const struct trow *, int stats);

#endif
