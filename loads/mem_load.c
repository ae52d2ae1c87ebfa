/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mem_load: contest's memory load, for machines without swap.  Map SIZE
 * MB and write one cache line per page in a scattered order (a stride
 * coprime with the page count), so neither the caches nor the TLB help.
 * With refault=1 (the default) the region is unmapped and mapped again
 * each pass, so every pass page-faults, zeroes and frees SIZE MB: the
 * page allocator's and reclaim's work, not only the memory bus's.  The
 * region asks for small pages (where THP is "always" a huge page would
 * let the TLB help, and fault once for 512), and the faults the load
 * took are counted: what refault costs, measured, not assumed.
 * A size that would leave the machine short (MemAvailable less a reserve)
 * is refused instead of inviting the OOM killer.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "load.h"

enum { OPT_SIZE, OPT_REFAULT };
enum { C_MB, C_PASSES, C_FAULTS };

static const struct load_opt opts[] = {
	[OPT_SIZE] = { .key = "size", .type = LOAD_OPT_INT, .def = 1024,
	    .min = 1, .max = 1 << 24, .help = "region size in MB" },
	[OPT_REFAULT] = { .key = "refault", .type = LOAD_OPT_INT, .def = 1,
	    .min = 0, .max = 1,
	    .help = "1: map the region afresh each pass, so every page faults" },
	{ .key = NULL },
};

static const struct load_counter counters[] = {
	[C_MB] = { "mb_touched", "MB touched", "MB",
	    "MB of the region written, one cache line per page", LOAD_SUM },
	[C_PASSES] = { "passes", "Passes", "passes",
	    "whole passes over the region", LOAD_SUM },
	[C_FAULTS] = { "faults", "Page faults", "faults",
	    "page faults the load took, its first pass's included", LOAD_SUM },
	{ .id = NULL },
};

static unsigned long long
gcd(unsigned long long a, unsigned long long b)
{
	while (b) {
		unsigned long long t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* The page faults this process has taken, minor and major. */
static long
load_faults(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_minflt + ru.ru_majflt : 0;
}

static int
mem_load_run(struct load_ctx *c)
{
	size_t size = (size_t)c->opt[OPT_SIZE] << 20;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t npages = size / pg, per_mb = ((size_t)1 << 20) / pg;
	unsigned long long avail, total;
	unsigned char *p = NULL;

	unsigned long long reserve = load_meminfo(&avail, &total);
	if (avail == 0)
		return load_fail(c, "cannot tell how much memory is available");
	if (size + reserve > avail)
		return load_fail(c, "size=%lld MB would leave less than %llu MB "
		    "of the %llu MB available: refused (no OOM killer here)",
		    c->opt[OPT_SIZE], reserve >> 20, avail >> 20);
	/* A stride near the golden section of the region, coprime with it,
	 * visits every page once per pass in an order no prefetcher follows. */
	size_t stride = npages > 2 ? npages * 618 / 1000 | 1 : 1;
	while (gcd(stride, npages) != 1)
		stride += 2;
	long faults = load_faults();
	load_ready(c);
	for (;;) {
		if (p == NULL) {
			p = mmap(NULL, size, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p == MAP_FAILED)
				return load_fail(c, "mmap %zu MB: %s", size >> 20,
				    strerror(errno));
#ifdef MADV_NOHUGEPAGE
			/* advice only: a kernel without THP refuses it */
			(void)madvise(p, size, MADV_NOHUGEPAGE);
#endif
		}
		size_t idx = 0, done = 0;
		for (size_t i = 0; i < npages; i++) {
			/* Rotate the line within the page to spread cache sets. */
			size_t off = idx * pg + (idx * 64 * 7) % pg;
			p[off] = (unsigned char)(p[off] + 1);
			idx += stride;
			if (idx >= npages)
				idx -= npages;
			if (++done == per_mb) {
				load_count(c, C_MB, 1);
				done = 0;
			}
		}
		if (c->opt[OPT_REFAULT]) {
			munmap(p, size);
			p = NULL;
		}
		/* a pass ends with its region given back, where it is */
		long now = load_faults();
		load_count(c, C_FAULTS, (unsigned long long)(now - faults));
		faults = now;
		load_count(c, C_PASSES, 1);
		load_unit(c);
	}
}

const struct load load_mem_load = {
	.name = "mem_load",
	.summary = "touch a SIZE MB region in a cache-hostile order, refaulting it each pass",
	.opts = opts,
	.counters = counters,
	.unit = &counters[C_PASSES],
	.run = mem_load_run,
};
