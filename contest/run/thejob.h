/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The session's job and its prepare step, its id, its end (thejob.c). */
#ifndef CONTEST_THEJOB_H
#define CONTEST_THEJOB_H

#include <stddef.h>

#include "builtin.h"
#include "session.h"

/* A new session's id: the time in UTC and our pid. */
void	session_id(char *buf, size_t len);
/*
 * The job (argc words of argv; none: the built-in job, set up in tree)
 * and each run's prepare step (prep_argv: room for sh -c's four words).
 * Returns the inferred prepare step's argv to free, or NULL.
 */
char	**the_job(struct session *, char **argv, int argc,
	    struct builtin_job *tree, int no_prepare, char *prep_argv[4]);
/* What the session holds, given back. */
void	session_free(struct session *, struct builtin_job *tree, char **inferred);

#endif
