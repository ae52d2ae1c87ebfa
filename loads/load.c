/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "load.h"

void
load_ready(struct load_ctx *c)
{
	char b = 'r';

	if (c->ready_fd < 0)
		return;
	while (write(c->ready_fd, &b, 1) < 0 && errno == EINTR)
		;
	close(c->ready_fd);
	c->ready_fd = -1;
}

void
load_unit(struct load_ctx *c)
{
	struct load_mark *m = c->mark;

	if (m == NULL)
		return;
	unsigned long long t = mono_ns();
	unsigned long long h = atomic_load_explicit(&c->shm->counter[c->head],
	    memory_order_relaxed);
	unsigned long long u = atomic_load_explicit(&c->shm->counter[c->unit],
	    memory_order_relaxed);
	unsigned long long from = atomic_load_explicit(&c->shm->solo_from,
	    memory_order_acquire);
	if (from && t >= from && atomic_load_explicit(&m->first_ns,
	    memory_order_relaxed) == 0) {
		atomic_store_explicit(&m->first[0], h, memory_order_relaxed);
		atomic_store_explicit(&m->first[1], u, memory_order_relaxed);
		atomic_store_explicit(&m->first_ns, t, memory_order_release);
	}
	unsigned long long s = atomic_load_explicit(&m->seq, memory_order_relaxed);
	atomic_store_explicit(&m->seq, s + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&m->last[0], t, memory_order_relaxed);
	atomic_store_explicit(&m->last[1], h, memory_order_relaxed);
	atomic_store_explicit(&m->last[2], u, memory_order_relaxed);
	atomic_store_explicit(&m->seq, s + 2, memory_order_release);
}

int
load_fail(struct load_ctx *c, const char *fmt, ...)
{
	va_list ap;
	int expected = LOAD_FAIL_NONE;

	/* First failure wins: later ones are usually its echoes. */
	if (atomic_compare_exchange_strong(&c->shm->failed, &expected, LOAD_FAIL_CLAIMED)) {
		va_start(ap, fmt);
		vsnprintf(c->shm->why, sizeof c->shm->why, fmt, ap);
		va_end(ap);
		atomic_store_explicit(&c->shm->failed, LOAD_FAIL_SAID, memory_order_release);
	}
	return -1;
}

void
load_peak(struct load_ctx *c, unsigned idx, unsigned long long v)
{
	unsigned long long cur = atomic_load(&c->shm->counter[idx]);

	while (cur < v &&
	    !atomic_compare_exchange_weak(&c->shm->counter[idx], &cur, v))
		;
}

unsigned
load_ncpu(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

int
load_shows(const struct load *l, const long long *opt, unsigned i)
{
	return l->shown == NULL || (l->shown(opt) >> i & 1);
}

unsigned
load_headline(const struct load *l, const long long *opt)
{
	return l->headline ? l->headline(opt) : 0;
}

void
load_backoff_to(unsigned *step, unsigned max_shift)
{
	unsigned ms = 1u << (*step < max_shift ? *step : max_shift);
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };

	if (*step < max_shift)
		(*step)++;
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

void
load_backoff(unsigned *step)
{
	/* 1 ms doubling to 64 ms: enough for reaping to catch up without
	 * turning a refused fork into a busy loop. */
	load_backoff_to(step, 6);
}

void *
load_unshared(struct load_ctx *c, size_t n)
{
	/* Private memory would be shared copy-on-write with the newest
	 * child, and the next write to it would copy the page. */
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
	    -1, 0);

	if (p == MAP_FAILED) {
		load_fail(c, "mmap of %zu bytes: %s", n, strerror(errno));
		return NULL;
	}
#ifdef MADV_DONTFORK
	(void)madvise(p, n, MADV_DONTFORK);
#endif
	return p;
}

void
load_page_private(struct load_ctx *c)
{
#ifdef MADV_DONTFORK
	/* Only a saving: a child that keeps the page costs a little more. */
	(void)madvise(c->shm, sizeof *c->shm, MADV_DONTFORK);
#else
	(void)c;
#endif
}

void
load_latency(struct load_ctx *c, unsigned long long ns)
{
	hist_shared_add(&c->shm->lat, ns);
}

int
load_fork(struct load_ctx *c)
{
	pid_t parent = getpid();
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	c->mark = NULL;		/* only the worker marks its units */
	if (die_with_parent(parent) < 0)
		_exit(1);
	if (c->ready_fd >= 0) {
		close(c->ready_fd);
		c->ready_fd = -1;
	}
	return 0;
}

int
load_tmpfile(struct load_ctx *c, const char *dir, unsigned long long size)
{
	struct statvfs vfs;
	struct stat st;
	char path[4096];
	int fd;

	if (stat(dir, &st) < 0)
		return load_fail(c, "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return load_fail(c, "%s: not a directory", dir);
	/* Leave a tenth of the free space: a full disk would fail the job. */
	if (statvfs(dir, &vfs) == 0 &&
	    size > (unsigned long long)vfs.f_bavail * vfs.f_frsize / 10 * 9)
		return load_fail(c, "%s: %llu MB wanted, %llu MB free", dir,
		    size >> 20,
		    ((unsigned long long)vfs.f_bavail * vfs.f_frsize) >> 20);
	if ((size_t)snprintf(path, sizeof path, "%s/.contest-load-%ld-XXXXXX",
	    dir, (long)getpid()) >= sizeof path)
		return load_fail(c, "%s: path too long", dir);
	if ((fd = mkstemp(path)) < 0)
		return load_fail(c, "cannot create a file in %s: %s", dir,
		    strerror(errno));
	unlink(path);
	return fd;
}

unsigned long long
load_meminfo(unsigned long long *avail, unsigned long long *total)
{
	char line[128];
	unsigned long long kb;
	FILE *f = fopen("/proc/meminfo", "re");

	*avail = *total = 0;
	if (f == NULL) {
		long pg = sysconf(_SC_PAGESIZE);
#ifdef _SC_AVPHYS_PAGES
		long av = sysconf(_SC_AVPHYS_PAGES);
		if (av > 0 && pg > 0)
			*avail = (unsigned long long)av * (unsigned long long)pg;
#endif
		long ph = sysconf(_SC_PHYS_PAGES);
		if (ph > 0 && pg > 0)
			*total = (unsigned long long)ph * (unsigned long long)pg;
		goto out;
	}
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			*avail = kb << 10;
		else if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			*total = kb << 10;
	}
	fclose(f);
out:
	/* An eighth of the machine, at least 256 MB, for everyone else. */
	return *total / 8 > (256ULL << 20) ? *total / 8 : 256ULL << 20;
}


void
load_spin(struct load_ctx *c, unsigned idx)
{
	volatile unsigned long long sink;
	unsigned long long x = 88172645463325252ULL ^ (unsigned long long)getpid();

	for (;;) {
		for (unsigned i = 0; i < (1u << 20); i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
		sink = x;
		(void)sink;
		load_count(c, idx, 1);
		load_unit(c);
	}
}

int
load_write_pass(struct load_ctx *c, int fd, const void *buf, size_t chunk,
    unsigned long long size, int idx, const char *where)
{
	unsigned long long off = 0;

	while (off < size) {
		ssize_t w = pwrite(fd, buf, chunk, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 || (size_t)w != chunk)
			return load_fail(c, "write in %s: %s", where,
			    w < 0 ? strerror(errno) : "short write");
		off += chunk;
		if (idx >= 0)
			load_count(c, (unsigned)idx, 1);
	}
	return 0;
}

