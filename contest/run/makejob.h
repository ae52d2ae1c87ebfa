/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A make job's clean step, inferred from the job's own command line.  A
 * build timed N times must build N times: the 2002 contest cleaned the
 * kernel tree before every compile, and `contest -- make -j2 bzImage`
 * is expected to do the same without being told.
 */
#ifndef CONTEST_MAKEJOB_H
#define CONTEST_MAKEJOB_H

/* Is argv[0] make or gmake (by basename)? */
int	makejob_is_make(const char *argv0);

/*
 * "make [-C DIR]... [-f FILE]... [-I DIR]... [VAR=VALUE]... clean" built
 * from a make command line: the same make, directory, makefiles and
 * variables (O=, ARCH=, LLVM=, CROSS_COMPILE=), the targets and other
 * options dropped.  dry adds -n after the program.  Returns a
 * NULL-terminated argv to free with argv_free(), or NULL when argv is not
 * a make command.
 */
char	**makejob_clean(char *const argv[], int dry);

/* Where a job runs: a make job's -C DIR (the last one), else ".". */
const char *makejob_dir(char *const argv[]);

void	argv_free(char **);

/* argv as one line: words joined by blanks, each quoted for sh when
 * quote is set and it needs it.  Free the result. */
char	*argv_join(char *const argv[], int quote);

#endif
