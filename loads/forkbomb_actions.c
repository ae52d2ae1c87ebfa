/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "forkbomb_actions.h"

const struct load_counter fb_counters[] = {
	[FB_REALLOCS] = { "reallocs", "Reallocs", "calls",
	    "realloc calls that grew the block", LOAD_SUM },
	[FB_MB_GROWN] = { "mb_grown", "MB grown", "MB",
	    "MB added to blocks by realloc", LOAD_SUM },
	[FB_MB_TOUCHED] = { "mb_touched", "MB touched", "MB",
	    "MB of new pieces written, one byte per page", LOAD_SUM },
	[FB_FORKED] = { "procs_forked", "Processes forked", "processes",
	    "children created by the bomb or the zombie maker", LOAD_SUM },
	[FB_PEAK] = { "procs_peak", "Processes reached", "processes",
	    "largest population counted (the cap bounds it)", LOAD_GAUGE },
	[FB_FAILURES] = { "fork_failures", "Fork failures", "failures",
	    "forks refused (EAGAIN, ENOMEM): where a bomb stops", LOAD_SUM },
	[FB_LOOPS] = { "cpu_loops", "CPU loops", "loops",
	    "blocks of 2^20 spin iterations (mode=cpu without touch)", LOAD_SUM },
	{ .id = NULL },
};

/* Add bytes to an exact shared total and whole MB of it to a counter. */
static void
add_bytes(struct load_ctx *c, unsigned scratch, unsigned counter, size_t n)
{
	unsigned long long old = (unsigned long long)atomic_fetch_add(
	    &c->shm->scratch[scratch], (long long)n);

	load_count(c, counter, ((old + n) >> 20) - (old >> 20));
}

int
fb_grow(struct load_ctx *c, size_t limit, size_t inc, int touch,
    unsigned char **blk, size_t *len)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	while (*len < limit) {
		size_t want = limit - *len < inc ? limit : *len + inc;
		unsigned char *q = realloc(*blk, want);
		if (q == NULL)
			return 1;
		*blk = q;
		load_count(c, FB_REALLOCS, 1);
		add_bytes(c, FB_BYTES_GROWN, FB_MB_GROWN, want - *len);
		if (touch) {
			for (size_t off = *len; off < want; off += pg)
				q[off] = 1;
			add_bytes(c, FB_BYTES_TOUCHED, FB_MB_TOUCHED, want - *len);
		}
		*len = want;
		load_unit(c);
	}
	return 0;
}

/* Take a place in the population if there is one under max. */
static int
reserve(struct load_ctx *c, long long max)
{
	long long cur = atomic_load(&c->shm->scratch[FB_POP]);

	do {
		if (cur >= max)
			return 0;
	} while (!atomic_compare_exchange_weak(&c->shm->scratch[FB_POP], &cur,
	    cur + 1));
	return 1;
}

/* A fork under a reserved place succeeded: one more process exists. */
static void
born(struct load_ctx *c)
{
	long long live = atomic_fetch_add(&c->shm->scratch[FB_LIVE], 1) + 1;

	load_peak(c, FB_PEAK, (unsigned long long)live);
	load_count(c, FB_FORKED, 1);
}

static void
release(struct load_ctx *c)
{
	atomic_fetch_sub(&c->shm->scratch[FB_POP], 1);
}

static void
died(struct load_ctx *c)
{
	atomic_fetch_sub(&c->shm->scratch[FB_LIVE], 1);
	release(c);
}

/* Fork under the cap until it is reached or fork fails.  Bomb children
 * go on forking too; zombie children exit at once. */
static unsigned
spread(struct load_ctx *c, long long max, int zombies)
{
	unsigned made = 0;

	while (reserve(c, max)) {
		pid_t pid = zombies ? fork() : load_fork(c);
		if (pid == 0) {
			if (zombies)
				_exit(0);
			made = 0;	/* a new process: its own children only */
			continue;
		}
		if (pid < 0) {
			release(c);
			load_count(c, FB_FAILURES, 1);
			break;
		}
		made++;
		born(c);
	}
	return made;
}

unsigned
fb_bomb(struct load_ctx *c, long long max)
{
	return spread(c, max, 0);
}

unsigned
fb_zombies(struct load_ctx *c, long long max)
{
	return spread(c, max, 1);
}

void
fb_reap(struct load_ctx *c)
{
	for (;;) {
		pid_t pid = wait(NULL);
		if (pid > 0)
			died(c);	/* only once it is really gone */
		else if (errno != EINTR)
			return;
	}
}

void
fb_cpuhang(struct load_ctx *c, unsigned char *blk, size_t len)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	if (blk == NULL || len == 0)
		load_spin(c, FB_LOOPS);
	for (;;) {
		for (size_t off = 0; off < len; off += pg)
			blk[off]++;
		add_bytes(c, FB_BYTES_TOUCHED, FB_MB_TOUCHED, len);
		load_unit(c);
	}
}
