/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CONTEST_COMMAND_H
#define CONTEST_COMMAND_H

#include <stddef.h>

/*
 * Would execvp(name) find something to run?  0 if so; else an errno
 * (ENOENT: nothing by that name; EACCES or EISDIR: found, not runnable),
 * so a typo fails before any load starts.  found (when not NULL) gets
 * the path it would run: where it fails, the first one found but not
 * runnable, or "" when none is there (what an exec of it says is then
 * what execvp's would).
 */
int	command_find(const char *name, char *found, size_t len);

#endif
