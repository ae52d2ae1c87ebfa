/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpu_load: contest's spinners.  N processes that never sleep, so the
 * scheduler must share the CPUs between them and the job.
 */
#include "config.h"

#include "load.h"

enum { OPT_N };
enum { C_LOOPS };

static const struct load_opt opts[] = {
	[OPT_N] = { .key = "n", .type = LOAD_OPT_INT, .min = 1, .max = 1024,
	    .ncpu_def = 1, .help = "spinning processes" },
	{ .key = NULL },
};

static const struct load_counter counters[] = {
	[C_LOOPS] = { "loops", "Loops", "loops",
	    "blocks of 2^20 arithmetic iterations done by all spinners", LOAD_SUM },
	{ .id = NULL },
};

static unsigned
cpu_load_nworkers(const long long *opt)
{
	return (unsigned)opt[OPT_N];
}

static int
cpu_load_run(struct load_ctx *c)
{
	load_ready(c);
	load_spin(c, C_LOOPS);
}

const struct load load_cpu_load = {
	.name = "cpu_load",
	.summary = "N processes spinning on the CPU, one per CPU by default (contest)",
	.opts = opts,
	.counters = counters,
	.nworkers = cpu_load_nworkers,
	.run = cpu_load_run,
};
