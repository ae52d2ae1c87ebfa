/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A run as one results line (resultline.c). */
#ifndef CONTEST_RESULTLINE_H
#define CONTEST_RESULTLINE_H

#include <stddef.h>

#include "session.h"

/* The schema changes when a field's meaning changes (2: latency in
 * hist.h's 32 buckets per power of two, max_us exact); new fields come
 * without a change, and readers key on which fields are present. */
#define RESULTS_SCHEMA	3

/* The run's line, newline included, its length in *len (malloc'd; NULL
 * with errno ENOMEM). */
char	*results_line(const struct session *, const struct run_record *,
	    size_t *len);

/* "ok", "failed", "load_failed", ...: a run's status as results name it */
const char *run_status_name(enum run_status);

#endif
