/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where the cgroups are, read from /proc (cgroup_find.c), for cgroup.c. */
#ifndef CONTEST_CGROUP_FIND_H
#define CONTEST_CGROUP_FIND_H

#include <stddef.h>

/* text into dir/file: 0, or -1 with errno. */
int	cg_write_file(const char *dir, const char *file, const char *text);
/* Matchers of one line for cg_find_line(): each fills out and returns 0
 * when the line says what it looks for.  The cgroup2 mount point, from
 * a mountinfo line; our own v2 path, from a /proc/self/cgroup line; a
 * v1 hierarchy of the pids controller, from a mountinfo line; our path
 * in it, from a /proc/self/cgroup line. */
int	cg_v2_mount(const char *line, char *out, size_t len);
int	cg_v2_self(const char *line, char *out, size_t len);
int	cg_v1_pids_mount(const char *line, char *out, size_t len);
int	cg_v1_pids_self(const char *line, char *out, size_t len);
/* 0 when some line of file made match() fill out; else -1. */
int	cg_find_line(const char *file, int (*match)(const char *, char *, size_t),
	    char *out, size_t len);
/* 1 when systemd handed dir over to us (Delegate=yes). */
int	cg_delegated(const char *dir);
/* 1 when the space-separated list in dir/file holds word. */
int	cg_has_word(const char *dir, const char *file, const char *word);
/* The processes in the cgroup dir into pids when they are no one but us
 * and our children (the watchdog); else -1. */
int	cg_only_ours(const char *dir, long *pids, int max);
/* Move us and our children from dir into dir/to: 0, or -1 when others
 * are in dir too (nothing moved then). */
int	cg_move_ours(const char *dir, const char *to);

#endif
