/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A run as one results line (resultline.c). */
#ifndef CONTEST_RESULTLINE_H
#define CONTEST_RESULTLINE_H

#include <stddef.h>

#include "session.h"

/* The run's line, newline included, its length in *len (malloc'd; NULL
 * with errno ENOMEM). */
char	*results_line(const struct session *, const struct run_record *,
	    size_t *len);

/* "ok", "failed", "load_failed", ...: a run's status as results name it */

#endif
