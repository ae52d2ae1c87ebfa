/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The load interface.  A load is one file in loads/ holding one const
 * struct load and static helpers, plus one line in registry.c.
 *
 * The driver forks nworkers() processes per run, each in the load's process
 * group with its signals at default and stdio on /dev/null, and execs the
 * worker program (worker.c) in each, which calls run().  run() sets itself up, calls load_ready() once, then loops as
 * hard as the kernel lets it, counting into ctx->shm, until the driver
 * SIGKILLs the group: a load must be correct under sudden death.  run()
 * returns only on failure, after load_fail() said why.  Loads never print
 * and never touch results.
 */
#ifndef CONTEST_LOAD_H
#define CONTEST_LOAD_H

#include <stdatomic.h>
#include <stddef.h>

#include "hist.h"
#include "sys.h"	/* mono_ns(), for load_latency() */

#define LOAD_MAX_OPTS		8
#define LOAD_MAX_COUNTERS	8
#define LOAD_WHY_MAX		200
/* Latency histogram: hist.h's log-linear layout, HIST_SUB buckets per
 * power of two of nanoseconds, so a percentile read from it is within
 * 1.6% of the true value; the exact min and max ride beside it. */
#define LOAD_HIST_BUCKETS	HIST_BUCKETS

#define LOAD_STR_MAX		1024	/* all string values of one load */
/* What the driver hands the worker program it execs (worker.c): the
 * shared page and the ready pipe on fixed descriptors, and a token that
 * both ends must agree on. */
#define LOAD_SHM_FD		3
#define LOAD_READY_FD		4
#define LOAD_WORKER		"contest-load"
#define LOAD_WORKER_ABI		PACKAGE_VERSION "/1"
/* Hard cap on a load's processes where its cgroup can have pids.max:
 * above every load's own bound (sleepers 10000, bombs 10000). */
#define LOAD_PIDS_MAX		20000

enum load_opt_type {
	LOAD_OPT_INT,		/* whole number in [min, max] */
	LOAD_OPT_ENUM,		/* index into choices[] */
	LOAD_OPT_STR,		/* text, in ctx->str[i] */
};

/* load_opt.flags */
#define LOAD_OPT_REST		0x1	/* STR: the value runs to the end of
					 * the spec, commas and all, so a
					 * command can be given whole */
#define LOAD_OPT_REQUIRED	0x2	/* no default: must be given */
#define LOAD_OPT_WORKDIR	0x4	/* STR: default is the results dir */

struct load_opt {
	const char	*key;
	enum load_opt_type type;
	long long	 def, min, max;	/* ENUM: def is an index */
	const char *const *choices;	/* ENUM: NULL-terminated */
	const char	*help;
	unsigned	 ncpu_def;	/* INT: if set, default is this many
					 * per online CPU (clamped) */
	unsigned	 flags;
	const char	*sdef;		/* STR: default text, or NULL */
};

enum load_counter_kind {
	LOAD_SUM,		/* grows; the run keeps what the job's time saw */
	LOAD_GAUGE,		/* a level (alive, peak, ms): the value at the
				 * job's end, no rate */
};

struct load_counter {
	const char	*id;		/* results key, e.g. children_forked */
	const char	*label;		/* report text, e.g. Children forked */
	const char	*unit;
	const char	*help;
	enum load_counter_kind kind;
};

/*
 * Where a worker's whole units of work end (load_unit()): points (time,
 * headline, units) on the load's own curves, from which the driver takes
 * the load's rate alone over whole units, never over a window that can
 * fall between two of them (an io_load pass ends in seconds of
 * fdatasync).  One per worker, written only by the worker's own process:
 * the last point under a sequence count, the first one at or after
 * solo_from once.
 */
#define LOAD_MARKS		64
struct load_mark {
	_Atomic unsigned long long seq;		/* odd while last[] is written */
	_Atomic unsigned long long last[3];	/* ns, headline, units */
	_Atomic unsigned long long first_ns;	/* 0 until the first is set */
	_Atomic unsigned long long first[2];	/* headline, units */
};

/* One page shared by the driver and every process of a load. */
struct load_shm {
	_Atomic unsigned long long counter[LOAD_MAX_COUNTERS];
	struct hist_shared lat;		/* what load_latency() counts */
	_Atomic unsigned long long solo_from;	/* ns; 0: no first marks yet */
	struct load_mark mark[LOAD_MARKS];
	/* The load's own shared state (a population count...), not reported. */
	_Atomic long long scratch[6];
	atomic_int	failed;		/* LOAD_FAIL_*: why is whole once SAID */
	char		why[LOAD_WHY_MAX];
};

/* The first failure claims failed, writes why, then publishes SAID with
 * release; a reader that acquires SAID reads the whole reason. */
enum { LOAD_FAIL_NONE, LOAD_FAIL_SAID, LOAD_FAIL_CLAIMED };

/* A load's reason for failing, or NULL while none has failed. */
static inline const char *
load_failed_why(struct load_shm *shm)
{
	int f = atomic_load_explicit(&shm->failed, memory_order_acquire);

	return f == LOAD_FAIL_NONE ? NULL : f == LOAD_FAIL_SAID ? shm->why :
	    "(its reason still being written)";
}

struct load_ctx {
	const long long	*opt;		/* values in the order of load->opts */
	const char *const *str;		/* STR values, same order; else NULL */
	struct load_shm	*shm;
	unsigned	 worker;	/* 0 .. nworkers-1 */
	int		 ready_fd;	/* barrier pipe; closed by load_ready */
	struct load_mark *mark;		/* this worker's; NULL in its children */
	unsigned	 head, unit;	/* the headline and unit counters */
};

struct load {
	const char		*name;
	const char		*summary;
	const struct load_opt	*opts;		/* key == NULL ends it */
	const struct load_counter *counters;	/* [0] is the headline */
	/* Headline counter for these options when it is not [0]; or NULL. */
	unsigned		(*headline)(const long long *opt);
	/* The counter of its whole units of work (an io_load pass), where
	 * the headline counts pieces of one (MB); NULL: the headline. */
	const struct load_counter *unit;
	/* Bit i set: counter i means something for these options (the
	 * table shows only those); NULL means all do. */
	unsigned		(*shown)(const long long *opt);
	/* What load_latency() times, e.g. "Fork latency"; NULL if nothing. */
	const char		*latency;
	/* Processes to fork for one run; NULL means one, 0 means none. */
	unsigned		(*nworkers)(const long long *opt);
	int			(*run)(struct load_ctx *);
};

/* registry.c: NULL-terminated, in `contest list` order. */
extern const struct load *const load_registry[];
const struct load *load_find(const char *name);
size_t	load_nopts(const struct load *);
size_t	load_ncounters(const struct load *);
int	load_opt_index(const struct load *, const char *key);

/* load.c: what every load's run() uses. */
void	load_ready(struct load_ctx *);
int	load_fail(struct load_ctx *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
static inline void
load_count(struct load_ctx *c, unsigned idx, unsigned long long n)
{
	atomic_fetch_add_explicit(&c->shm->counter[idx], n, memory_order_relaxed);
}
/* A whole unit of the load's work is done (after counting it): mark it,
 * in the worker's own process (a no-op in its children). */
void	load_unit(struct load_ctx *c);
static inline void
load_set(struct load_ctx *c, unsigned idx, unsigned long long v)
{
	atomic_store_explicit(&c->shm->counter[idx], v, memory_order_relaxed);
}
/* Raise a gauge to v if it is lower (a peak). */
void	load_peak(struct load_ctx *c, unsigned idx, unsigned long long v);
/* Online CPUs, at least 1. */
unsigned load_ncpu(void);
/* Whether counter i applies to these option values. */
int	load_shows(const struct load *, const long long *opt, unsigned i);
/* Index of the headline counter for these option values. */
unsigned load_headline(const struct load *, const long long *opt);
/* Count one latency of ns into the histogram, min and max. */
void	load_latency(struct load_ctx *c, unsigned long long ns);
/* Sleep a little longer each time the kernel refuses a resource. */
void	load_backoff(unsigned *step);
/* The same, doubling up to 1 << max_shift ms. */
void	load_backoff_to(unsigned *step, unsigned max_shift);
/* n zeroed bytes the parent may write between forks without a copy-on-
 * write fault per fork (shared, kept out of children); NULL after
 * load_fail() said why.  Gone with the process. */
void	*load_unshared(struct load_ctx *, size_t n);
/* For a load whose children only exit: keep the shared page out of
 * them, so that each fork copies one mapping fewer. */
void	load_page_private(struct load_ctx *);
/* fork() for a load's own helper processes: in the child the guard is
 * armed against the parent and the ready pipe is closed (a child must
 * not hold the barrier open); a child whose parent already died exits. */
int	load_fork(struct load_ctx *);
/* An anonymous file in dir (created, then unlinked at once, so it goes
 * when the load is killed) with room checked for size bytes; the fd, or
 * -1 after load_fail() said why. */
int	load_tmpfile(struct load_ctx *, const char *dir, unsigned long long size);
/* MemAvailable and MemTotal in bytes (0 when unknown); returns the memory
 * a load must leave to everyone else. */
unsigned long long load_meminfo(unsigned long long *avail,
	    unsigned long long *total);
/* Spin on the CPU for ever, adding 1 to counter idx every 2^20
 * iterations (the atomic add stays out of the way). */
void	load_spin(struct load_ctx *, unsigned idx) __attribute__((noreturn));
/* Write size bytes to fd from offset 0 in chunk-sized pwrites of buf,
 * adding 1 to counter idx per chunk (idx < 0: no counting); 0, or -1
 * after load_fail() said why. */
int	load_write_pass(struct load_ctx *, int fd, const void *buf, size_t chunk,
	    unsigned long long size, int idx, const char *where);

#endif
