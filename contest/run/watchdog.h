/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The watchdog: what the driver started dies with the driver. */
#ifndef CONTEST_WATCHDOG_H
#define CONTEST_WATCHDOG_H

#include <sys/types.h>

/* Fork it, and reap it at exit (when the list is empty). */
void	watch_start(void);
/* Tell it of a group made ('+') or killed ('-'). */
void	watch_tell(char op, pid_t pgid);
/* Tell it the session's cgroup and v1 pids directory (NULL: none), to
 * kill and remove if we die. */
void	proc_watch_cgroup(const char *path, const char *pids_path);

#endif
