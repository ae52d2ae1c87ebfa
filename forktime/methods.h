/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * forktime's creation methods: each makes one process or thread, times
 * the part asked for, and gets rid of it (or leaves it to the batch's
 * reaping).  A method never prints.
 */
#ifndef FORKTIME_METHODS_H
#define FORKTIME_METHODS_H

#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

enum ft_time { FT_CREATE, FT_ROUNDTRIP };
enum ft_reap { FT_REAP_WAIT, FT_REAP_IGNORE };

struct ft_opts {
	enum ft_time	 time;
	enum ft_reap	 reap;
	unsigned	 keep_ms;	/* children and threads sleep this long */
	unsigned	 batch;		/* created before any is reaped */
	const char	*nop_static, *nop_dynamic;	/* helper paths, or NULL */
};

/* What one creation left to reap later, in batch mode. */
struct ft_child {
	pid_t		 pid;		/* a process, or 0 for a thread */
	pthread_t	 thread;	/* to join when joinable */
	int		 joinable;	/* 0: a detached thread, awaited */
};

struct ft_method {
	const char	*name;
	const char	*summary;
	int		 process;	/* makes processes (not threads) */
	/*
	 * One sample: create, and for roundtrip wait for the end.  *us gets
	 * the time; returns 0, or an errno value when creation failed (no
	 * sample).  Unless roundtrip, what was created is left in *c for
	 * ft_reap.
	 */
	int		(*one)(const struct ft_opts *, double *us, struct ft_child *c);
	/* NULL, or why the method cannot run here (checked once). */
	const char	*(*unavailable)(const struct ft_opts *);
};

#define FT_NMETHODS 8
extern const struct ft_method ft_methods[FT_NMETHODS + 1];	/* NULL-terminated */

const struct ft_method *ft_method_find(const char *);

/* Set by forktime's signal handler: stop creating, kill what is waited for. */
extern volatile sig_atomic_t ft_stop;

/* Reap or join what a batch left (processes, then threads). */
void	ft_reap(const struct ft_opts *, struct ft_child *, size_t n);

/* CLOCK_MONOTONIC in microseconds. */

#endif
