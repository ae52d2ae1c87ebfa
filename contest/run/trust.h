/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether a directory or file may be used by contest run, as ssh's
 * StrictModes and sudo judge theirs: contest is often root in a directory
 * others can write (/tmp), where a planted symlink would send its results
 * elsewhere and a planted tree would be executed.  Each directory is
 * checked on the descriptor that was opened, walked from "/", and used
 * only through that descriptor afterwards: nothing can be swapped between
 * the check and the use.
 */
#ifndef CONTEST_TRUST_H
#define CONTEST_TRUST_H

#include <stddef.h>

/*
 * Open path as a directory owned by the effective uid or root and
 * writable by nobody else, walked one component at a time from "/" (a
 * relative path from the real current directory): each parent owned by
 * the euid or root and, if group or others may write it, sticky; a
 * symlink on the way followed only when the euid or root owns it.  make:
 * missing directories are made (0755) as the walk reaches them.  Returns
 * a descriptor open on the directory, or -1 with one line in err naming
 * the path and the fix.
 */
int	trust_walk(const char *path, int make, char *err, size_t errlen);

/* name (one or more components) below a directory trust_walk() opened,
 * judged the same way; shown is how messages name dirfd. */
int	trust_subdir(int dirfd, const char *shown, const char *name, int make,
	    char *err, size_t errlen);

/* openat(dirfd, name, flags) never through a symlink, never blocking on
 * a FIFO; the file opened must be regular, ours and writable by nobody
 * else.  shown names it in err.  Returns the descriptor or -1. */
int	trust_openat(int dirfd, const char *shown, const char *name, int flags,
	    char *err, size_t errlen);

#endif
