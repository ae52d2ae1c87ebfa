/*
 * Whether a directory or file may be used by contest run, as ssh's
 * StrictModes and sudo judge theirs: contest is often root in a directory
 * others can write (/tmp), where a planted symlink would send its results
 * elsewhere and a planted tree would be executed.
 */
#ifndef CONTEST_TRUST_H
#define CONTEST_TRUST_H

#include <stddef.h>

/*
 * 0 when path is a directory owned by the effective uid or root, not
 * writable by group or others, reached through no symlink owned by
 * another uid, under no parent that others may write without the sticky
 * bit.  Else -1 with one line in err naming the path and the fix.
 */
int	trust_dir(const char *path, char *err, size_t errlen);

/* For a directory not made yet: its nearest existing ancestor and the
 * ancestor's parents, as trust_dir() judges parents (checked before
 * anything is made there). */
int	trust_new(const char *path, char *err, size_t errlen);

/* The same for a file that exists (a missing one is fine: 0); it must
 * not be a symlink at all. */
int	trust_file(const char *path, char *err, size_t errlen);

#endif
