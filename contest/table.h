/* The end-of-run report in contest's classic block layout. */
#ifndef CONTEST_TABLE_H
#define CONTEST_TABLE_H

#include <stdio.h>

#include "run.h"

void	table_print(FILE *, const struct session *);

#endif
