/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sleepers: a crowd of mostly idle processes, as a machine full of idle
 * daemons has.  The job then runs beside N tasks the kernel must keep
 * track of (pid table, scheduler trees, /proc walks), optionally each
 * waking every few milliseconds.  An LKML report saw a 2.4 kernel lose a
 * third of its connection rate with about 3000 such processes.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "load.h"

enum { OPT_N, OPT_WAKE };
enum { C_ALIVE, C_WAKEUPS, C_SPAWN_MS, C_POOL_KB };

/* Give up spawning after the kernel refused forks for this long. */
#define SPAWN_PATIENCE_NS	(2ULL * 1000000000ULL)

static const struct load_opt opts[] = {
	[OPT_N] = { .key = "n", .type = LOAD_OPT_INT, .def = 1000, .min = 1,
	    .max = 10000, .help = "sleeping processes" },
	[OPT_WAKE] = { .key = "wake", .type = LOAD_OPT_INT, .def = 0, .min = 0,
	    .max = 60000, .help = "each wakes every this many ms (0: never)" },
	{ .key = NULL },
};

static const struct load_counter counters[] = {
	[C_ALIVE] = { "sleepers_alive", "Sleepers", "processes",
	    "sleepers alive when the job ended", LOAD_GAUGE },
	[C_WAKEUPS] = { "wakeups", "Wakeups", "wakeups",
	    "timed wakeups done by all sleepers", LOAD_SUM },
	[C_SPAWN_MS] = { "spawn_ms", "Spawn ms", "ms",
	    "time to fork the whole pool", LOAD_GAUGE },
	[C_POOL_KB] = { "pool_kb", "Pool memory kB", "kB",
	    "proportional set size of the pool (Pss, /proc/PID/smaps_rollup)",
	    LOAD_GAUGE },
	{ .id = NULL },
};

static void
sleeper(struct load_ctx *c, int hold, int wake_ms)
{
	struct pollfd p = { .fd = hold, .events = POLLIN };
	volatile unsigned long long x = (unsigned long long)getpid();
	unsigned long long period = (unsigned long long)wake_ms * 1000000ULL;
	/* A sleeper that never wakes reads no clock: one fault fewer. */
	unsigned long long next = wake_ms > 0 ? mono_ns() + period : 0;

	/* The pool's pipe never carries data: it reads EOF when the parent
	 * dies, so a sleeper never outlives it.  Wakeups keep to absolute
	 * times, so that n sleepers waking every w ms do n*1000/w a second
	 * however late each one is woken; one late past a whole period
	 * starts afresh rather than catching up in a burst. */
	for (;;) {
		struct timespec ts, *tp = NULL;
		if (wake_ms > 0) {
			unsigned long long now = mono_ns();
			unsigned long long left = next > now ? next - now : 0;
			ts.tv_sec = (time_t)(left / 1000000000ULL);
			ts.tv_nsec = (long)(left % 1000000000ULL);
			tp = &ts;
		}
		int r = ppoll(&p, 1, tp, NULL);
		if (r > 0)
			_exit(0);
		if (r == 0) {
			for (int i = 0; i < 64; i++)	/* a daemon's tick of work */
				x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			load_count(c, C_WAKEUPS, 1);
			unsigned long long now = mono_ns();
			next += period;
			if (next + period < now)
				next = now + period;
		}
	}
}

/* Pss of one process in kB from smaps_rollup; -1 where unreadable. */
static long
pss_kb(pid_t pid)
{
	char path[64], line[256];
	long kb = -1;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%ld/smaps_rollup", (long)pid);
	if ((f = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "Pss: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static int
sleepers_run(struct load_ctx *c)
{
	unsigned n = (unsigned)c->opt[OPT_N], alive = 0;
	int hold[2];
	/* Written after every fork: private memory would be copied each time. */
	pid_t *pids = load_unshared(c, n * sizeof *pids);
	unsigned long long t0 = mono_ns(), refused_since = 0;
	unsigned step = 0;

	if (pids == NULL)
		return -1;
	if (pipe(hold) < 0)
		return load_fail(c, "pipe: %s", strerror(errno));
	while (alive < n) {
		pid_t pid = load_fork(c);
		if (pid == 0) {
			close(hold[1]);
			sleeper(c, hold[0], (int)c->opt[OPT_WAKE]);
		}
		if (pid > 0) {
			pids[alive++] = pid;
			refused_since = 0;
			step = 0;
			continue;
		}
		if (errno != EAGAIN && errno != ENOMEM)
			return load_fail(c, "fork of sleeper %u: %s", alive + 1,
			    strerror(errno));
		unsigned long long now = mono_ns();
		if (refused_since == 0)
			refused_since = now;
		else if (now - refused_since > SPAWN_PATIENCE_NS)
			return load_fail(c, "only %u of %u sleepers: fork: %s "
			    "(process limit?)", alive, n, strerror(errno));
		load_backoff(&step);
	}
	close(hold[0]);
	load_set(c, C_SPAWN_MS, (mono_ns() - t0 + 500000) / 1000000);
	long total = 0;
	for (unsigned i = 0; i < n && total >= 0; i++) {
		long kb = pss_kb(pids[i]);
		total = kb < 0 ? -1 : total + kb;
	}
	if (total > 0)
		load_set(c, C_POOL_KB, (unsigned long long)total);
	munmap(pids, n * sizeof *pids);
	load_set(c, C_ALIVE, alive);
	load_ready(c);

	/* Count the living: a sleeper that dies (OOM killer...) shows. */
	for (;;) {
		int st;
		pid_t pid = wait(&st);
		if (pid > 0)
			load_set(c, C_ALIVE, --alive);
		else if (errno == ECHILD)
			return load_fail(c, "every sleeper died");
		else if (errno != EINTR)
			return load_fail(c, "wait: %s", strerror(errno));
	}
}

const struct load load_sleepers = {
	.name = "sleepers",
	.summary = "a pool of N processes that sleep, optionally waking every few ms",
	.opts = opts,
	.counters = counters,
	.run = sleepers_run,
};
