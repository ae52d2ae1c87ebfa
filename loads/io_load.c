/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io_load: contest's writer.  Rewrite one file of SIZE MB from the start,
 * over and over, and fdatasync after each pass so the data really goes
 * to the device rather than lingering in a page cache larger than the
 * file.  The file is unlinked as soon as it is created: it vanishes with
 * the load, however the load ends.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load.h"

enum { OPT_DIR, OPT_SIZE };
enum { C_MB, C_PASSES };

#define CHUNK	(1u << 20)

static const struct load_opt opts[] = {
	[OPT_DIR] = { .key = "dir", .type = LOAD_OPT_STR,
	    .flags = LOAD_OPT_WORKDIR, .help = "directory for the file" },
	[OPT_SIZE] = { .key = "size", .type = LOAD_OPT_INT, .def = 512,
	    .min = 1, .max = 65536, .help = "file size in MB" },
	{ .key = NULL },
};

static const struct load_counter counters[] = {
	[C_MB] = { "mb_written", "MB written", "MB",
	    "MB written to the file", LOAD_SUM },
	[C_PASSES] = { "passes", "Passes synced", "passes",
	    "whole rewrites of the file, each ended by fdatasync", LOAD_SUM },
	{ .id = NULL },
};

static int
io_load_run(struct load_ctx *c)
{
	unsigned long long size = (unsigned long long)c->opt[OPT_SIZE] << 20;
	const char *dir = c->str[OPT_DIR];
	unsigned char *buf = malloc(CHUNK);
	int fd;

	if (buf == NULL)
		return load_fail(c, "out of memory");
	if ((fd = load_tmpfile(c, dir, size)) < 0)
		return -1;
	/* Data that does not compress or dedupe to nothing. */
	unsigned long long x = 0x9e3779b97f4a7c15ULL;
	for (size_t i = 0; i < CHUNK; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		buf[i] = (unsigned char)x;
	}
	load_ready(c);
	for (;;) {
		if (load_write_pass(c, fd, buf, CHUNK, size, C_MB, dir) < 0)
			return -1;
		if (fdatasync(fd) < 0)
			return load_fail(c, "fdatasync in %s: %s", dir, strerror(errno));
		load_count(c, C_PASSES, 1);
		load_unit(c);	/* a pass ends synced, not when its MB are written */
	}
}

const struct load load_io_load = {
	.name = "io_load",
	.summary = "rewrite a SIZE MB file over and over, synced each pass (contest)",
	.opts = opts,
	.counters = counters,
	.unit = &counters[C_PASSES],
	.run = io_load_run,
};
