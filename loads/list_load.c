/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * list_load: contest's "ls -lRa" load.  Walk a directory tree calling
 * lstat on every entry, then walk it again: path lookup, the dentry and
 * inode caches, and readdir, with whatever of it was evicted read back.
 */
#include "config.h"

#include <errno.h>
#include <ftw.h>
#include <string.h>
#include <sys/stat.h>

#include "load.h"

enum { OPT_DIR };
enum { C_ENTRIES, C_WALKS };

/* Entries between counter bumps. */
#define BATCH	64

static const struct load_opt opts[] = {
	[OPT_DIR] = { .key = "dir", .type = LOAD_OPT_STR, .sdef = "/usr",
	    .help = "tree to walk" },
	{ .key = NULL },
};

static const struct load_counter counters[] = {
	[C_ENTRIES] = { "entries", "Entries", "entries",
	    "directory entries lstat()ed", LOAD_SUM },
	[C_WALKS] = { "walks", "Walks", "walks", "whole walks of the tree", LOAD_SUM },
	{ .id = NULL },
};

/* nftw's callback has no user pointer; a load is its own process. */
static struct load_ctx *walker;
static unsigned pending;

static int
visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)path, (void)st, (void)type, (void)ftw;
	if (++pending == BATCH) {
		load_count(walker, C_ENTRIES, BATCH);
		pending = 0;
	}
	return 0;
}

static int
list_load_run(struct load_ctx *c)
{
	const char *dir = c->str[OPT_DIR];
	struct stat st;

	walker = c;
	if (lstat(dir, &st) < 0)
		return load_fail(c, "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return load_fail(c, "%s: not a directory", dir);
	load_ready(c);
	for (;;) {
		/* FTW_PHYS: lstat, never follow links, as ls -lR does. */
		if (nftw(dir, visit, 32, FTW_PHYS) < 0)
			return load_fail(c, "walking %s: %s", dir, strerror(errno));
		load_count(c, C_ENTRIES, pending);
		pending = 0;
		load_count(c, C_WALKS, 1);
		load_unit(c);
	}
}

const struct load load_list_load = {
	.name = "list_load",
	.summary = "walk a directory tree with lstat over and over, like ls -lRa (contest)",
	.opts = opts,
	.counters = counters,
	.unit = &counters[C_WALKS],
	.run = list_load_run,
};
