/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Each run's prepare step when none is given (prepare.c). */
#ifndef CONTEST_PREPARE_H
#define CONTEST_PREPARE_H

#include "builtin.h"
#include "session.h"

/* A make job with no --prepare: its clean step, set in s (the argv
 * returned, to free), or NULL (not make, or make -n says it would fail). */
char	**prepare_infer(struct session *);

/* A sweep's cells: the job and its prepare step at each combination of
 * values (tree: the built-in job's, when it is the job). */
void	prepare_cells(struct session *, struct builtin_job *tree, int no_prepare);

#endif
