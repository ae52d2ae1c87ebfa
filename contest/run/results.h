/* SPDX-License-Identifier: GPL-2.0-or-later */
/* results.jsonl: the one contract between run and report (doc/results.md,
 * doc/results.schema.json). */
#ifndef CONTEST_RESULTS_H
#define CONTEST_RESULTS_H

#include "results_dir.h"
#include "session.h"

/*
 * Make the results dir, open results.jsonl for appending (O_NOFOLLOW) and
 * open a fresh log for this session.  Fills s->results_fd, results_path,
 * log_fd, log_path.  On error returns -1 with one line in err.
 */
int	results_open(struct session *s, char *err, size_t errlen);

/* Append one run as one line with one write(2), then fsync. */
int	results_append(struct session *s, const struct run_record *);

#endif
