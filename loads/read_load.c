/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * read_load: contest's reader.  Write a file of SIZE MB once, then read
 * it from the start over and over.  With cache=drop (the default) the
 * file's pages are dropped from the page cache after each pass
 * (POSIX_FADV_DONTNEED), so every pass reads the device; cache=keep reads
 * from memory and stresses the page cache lookups instead.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load.h"

enum { OPT_DIR, OPT_SIZE, OPT_CACHE };
enum { C_MB, C_PASSES };
enum { CACHE_DROP, CACHE_KEEP };

#define CHUNK	(1u << 20)

static const char *const cache_modes[] = { "drop", "keep", NULL };

static const struct load_opt opts[] = {
	[OPT_DIR] = { .key = "dir", .type = LOAD_OPT_STR,
	    .flags = LOAD_OPT_WORKDIR, .help = "directory for the file" },
	[OPT_SIZE] = { .key = "size", .type = LOAD_OPT_INT, .def = 512,
	    .min = 1, .max = 65536, .help = "file size in MB" },
	[OPT_CACHE] = { .key = "cache", .type = LOAD_OPT_ENUM, .def = CACHE_DROP,
	    .min = 0, .max = 1, .choices = cache_modes,
	    .help = "drop the file's cached pages after each pass, or keep them" },
	{ .key = NULL },
};

static const struct load_counter counters[] = {
	[C_MB] = { "mb_read", "MB read", "MB", "MB read from the file", LOAD_SUM },
	[C_PASSES] = { "passes", "Passes", "passes",
	    "whole reads of the file", LOAD_SUM },
	{ .id = NULL },
};

static void
drop_cache(int fd)
{
#ifdef POSIX_FADV_DONTNEED
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
#else
	(void)fd;
#endif
}

static int
read_load_run(struct load_ctx *c)
{
	unsigned long long size = (unsigned long long)c->opt[OPT_SIZE] << 20;
	const char *dir = c->str[OPT_DIR];
	int drop = c->opt[OPT_CACHE] == CACHE_DROP;
	unsigned char *buf = malloc(CHUNK);
	int fd;

	if (buf == NULL)
		return load_fail(c, "out of memory");
	if ((fd = load_tmpfile(c, dir, size)) < 0)
		return -1;
	for (size_t i = 0; i < CHUNK; i++)
		buf[i] = (unsigned char)(i * 2654435761u >> 13);
	if (load_write_pass(c, fd, buf, CHUNK, size, -1, dir) < 0)
		return -1;
	/* Dirty pages cannot be dropped: write them out first. */
	if (fdatasync(fd) < 0)
		return load_fail(c, "fdatasync in %s: %s", dir, strerror(errno));
	if (drop)
		drop_cache(fd);
	load_ready(c);
	for (;;) {
		for (unsigned long long off = 0; off < size;) {
			ssize_t r = pread(fd, buf, CHUNK, (off_t)off);
			if (r < 0 && errno == EINTR)
				continue;
			if (r != CHUNK)
				return load_fail(c, "read in %s: %s", dir,
				    r < 0 ? strerror(errno) : "short read");
			off += CHUNK;
			load_count(c, C_MB, 1);
		}
		if (drop)
			drop_cache(fd);
		load_count(c, C_PASSES, 1);
		load_unit(c);
	}
}

const struct load load_read_load = {
	.name = "read_load",
	.summary = "read a SIZE MB file over and over, from the device by default (contest)",
	.opts = opts,
	.counters = counters,
	.unit = &counters[C_PASSES],
	.run = read_load_run,
};
