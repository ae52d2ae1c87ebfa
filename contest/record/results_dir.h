/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where results live by default: what the run writes to and report and
 * compare read from, named once for both. */
#ifndef CONTEST_RESULTS_DIR_H
#define CONTEST_RESULTS_DIR_H

#define RESULTS_FILE	"results.jsonl"

/* Results dir from -o (opt), else $CONTEST_RESULTS, else ./contest-results. */
const char *results_dir(const char *opt);

#endif
