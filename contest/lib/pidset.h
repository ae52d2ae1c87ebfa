/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A growable set of pids: the process groups a driver must kill. */
#ifndef CONTEST_PIDSET_H
#define CONTEST_PIDSET_H

#include <stddef.h>
#include <sys/types.h>

struct pidset {
	pid_t	*v;
	size_t	 n, cap;
};

/* 0 when p is in the set (added, or there already); -1 with ENOMEM. */
int	pidset_add(struct pidset *, pid_t p);
/* 1 when p was there and is gone, 0 when it was not there. */
int	pidset_del(struct pidset *, pid_t p);
void	pidset_free(struct pidset *);

#endif
