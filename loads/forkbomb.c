/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * forkbomb: forkbomb 1.4's actions as a load, over and over.  mode=realloc
 * grows one block to the limit (touch=1 writes each new page, as -M does;
 * touch=0 is -m), frees it and starts again; mode=bomb lets every process
 * fork until the population reaches max, then lets the tree collapse and
 * starts again; mode=zombie makes max-1 unreaped children, then reaps
 * them; mode=cpu burns CPU (with touch=1, by writing over a limit-sized
 * block for ever, as -c -M does).  The program forkbomb(1) runs the same
 * actions once.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "forkbomb_actions.h"

enum { OPT_MODE, OPT_TOUCH, OPT_LIMIT, OPT_INC, OPT_MAX };
enum { MODE_REALLOC, MODE_BOMB, MODE_ZOMBIE, MODE_CPU };

static const char *const modes[] = { "realloc", "bomb", "zombie", "cpu", NULL };

static const struct load_opt opts[] = {
	[OPT_MODE] = { .key = "mode", .type = LOAD_OPT_ENUM, .def = MODE_REALLOC,
	    .min = 0, .max = 3, .choices = modes, .help = "which action" },
	[OPT_TOUCH] = { .key = "touch", .type = LOAD_OPT_INT, .def = 1, .min = 0,
	    .max = 1, .help = "realloc/cpu: write each new page (-M) or not (-m)" },
	[OPT_LIMIT] = { .key = "limit", .type = LOAD_OPT_INT, .def = 64, .min = 1,
	    .max = 1 << 20, .help = "realloc/cpu: MB the block grows to" },
	[OPT_INC] = { .key = "inc", .type = LOAD_OPT_INT, .def = 256, .min = 1,
	    .max = 1 << 20, .help = "realloc/cpu: pages added per realloc" },
	[OPT_MAX] = { .key = "max", .type = LOAD_OPT_INT, .def = 100, .min = 2,
	    .max = 10000, .help = "bomb/zombie: processes at most, the worker included" },
	{ .key = NULL },
};

static unsigned
forkbomb_headline(const long long *opt)
{
	switch (opt[OPT_MODE]) {
	case MODE_BOMB:
	case MODE_ZOMBIE:
		return FB_FORKED;
	case MODE_CPU:
		return opt[OPT_TOUCH] ? FB_MB_TOUCHED : FB_LOOPS;
	default:
		return FB_REALLOCS;
	}
}

static unsigned
forkbomb_shown(const long long *opt)
{
	switch (opt[OPT_MODE]) {
	case MODE_BOMB:
	case MODE_ZOMBIE:
		return 1u << FB_FORKED | 1u << FB_PEAK | 1u << FB_FAILURES;
	case MODE_CPU:
		return opt[OPT_TOUCH] ? 1u << FB_MB_TOUCHED : 1u << FB_LOOPS;
	default:
		return 1u << FB_REALLOCS | 1u << FB_MB_GROWN |
		    (opt[OPT_TOUCH] ? 1u << FB_MB_TOUCHED : 0);
	}
}

static int
forkbomb_run(struct load_ctx *c)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t limit = (size_t)c->opt[OPT_LIMIT] << 20;
	size_t inc = (size_t)c->opt[OPT_INC] * pg;
	int touch = (int)c->opt[OPT_TOUCH];
	long long max = c->opt[OPT_MAX];
	pid_t self = getpid();
	unsigned char *blk = NULL;
	size_t len = 0;
	unsigned step = 0;

	atomic_store(&c->shm->scratch[FB_POP], 1);
	atomic_store(&c->shm->scratch[FB_LIVE], 1);
	if (c->opt[OPT_MODE] == MODE_REALLOC || c->opt[OPT_MODE] == MODE_CPU) {
		unsigned long long avail, total;
		unsigned long long reserve = load_meminfo(&avail, &total);
		if (touch && avail && limit + reserve > avail)
			return load_fail(c, "limit=%lld MB would leave less than %llu MB "
			    "of the %llu MB available: refused", c->opt[OPT_LIMIT],
			    reserve >> 20, avail >> 20);
	}
	switch (c->opt[OPT_MODE]) {
	case MODE_REALLOC:
		load_ready(c);
		for (;;) {
			int refused = fb_grow(c, limit, inc, touch, &blk, &len);
			if (refused && len == 0)
				return load_fail(c, "realloc of %zu bytes refused", inc);
			free(blk);
			blk = NULL;
			len = 0;
		}
	case MODE_BOMB:
		load_ready(c);
		for (;;) {
			unsigned long long f0 = atomic_load(&c->shm->counter[FB_FAILURES]);
			fb_bomb(c, max);
			fb_reap(c);
			if (getpid() != self)
				_exit(0);
			load_unit(c);	/* a whole bomb, its population reaped */
			if (atomic_load(&c->shm->counter[FB_FAILURES]) != f0)
				load_backoff(&step);
			else
				step = 0;
		}
	case MODE_ZOMBIE:
		load_ready(c);
		for (;;) {
			if (fb_zombies(c, max) == 0)
				load_backoff(&step);
			else
				step = 0;
			fb_reap(c);
			load_unit(c);
		}
	default:
		if (touch && fb_grow(c, limit, inc, 1, &blk, &len) && len == 0)
			return load_fail(c, "realloc of %zu bytes refused", inc);
		load_ready(c);
		fb_cpuhang(c, blk, len);
	}
}

const struct load load_forkbomb = {
	.name = "forkbomb",
	.summary = "forkbomb 1.4 as a load: realloc growth, bounded bombs, zombies, CPU",
	.opts = opts,
	.counters = fb_counters,
	.headline = forkbomb_headline,
	.shown = forkbomb_shown,
	.run = forkbomb_run,
};
