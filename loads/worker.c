/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * contest-load: one worker of one load.  The driver forks, sets up the
 * child (group, cgroup, parent-death signal, scheduling, OOM score) and
 * execs this, so that the load forks from the leanest image there is:
 * libc and the loads, linked static where the toolchain can, instead of
 * the driver with its report code and libm.  A fork copies every mapping
 * of its parent, so the image is part of what a fork load measures.
 *
 * The command line is the driver's, not a person's:
 *	contest-load ABI LOAD WORKER PARENT VALUE...
 * with one VALUE per option of LOAD (a number, or "s" and the text of a
 * string option, or "-" for none), the shared page on descriptor 3 and
 * the write end of the ready pipe on descriptor 4.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load.h"

static long long
whole(const char *s, int *ok)
{
	char *end;

	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end)
		*ok = 0;
	return v;
}

int
main(int argc, char **argv)
{
	long long opt[LOAD_MAX_OPTS] = { 0 };
	const char *str[LOAD_MAX_OPTS] = { NULL };
	struct load_ctx ctx = { .opt = opt, .str = str, .ready_fd = LOAD_READY_FD };
	struct stat st;
	const struct load *l;
	int ok = 1;

	/* Without the page, or with one of another layout, there is nowhere
	 * to say why: the driver sees the worker gone before it was ready. */
	if (fstat(LOAD_SHM_FD, &st) < 0 || (size_t)st.st_size != sizeof *ctx.shm)
		return 1;
	ctx.shm = mmap(NULL, sizeof *ctx.shm, PROT_READ | PROT_WRITE, MAP_SHARED,
	    LOAD_SHM_FD, 0);
	if (ctx.shm == MAP_FAILED)
		return 1;
	close(LOAD_SHM_FD);
	if (argc < 5 || strcmp(argv[1], LOAD_WORKER_ABI) != 0) {
		load_fail(&ctx, "contest-load: built for another contest (%s, not %s)",
		    argc > 1 ? argv[1] : "no version", LOAD_WORKER_ABI);
		return 1;
	}
	if ((l = load_find(argv[2])) == NULL || l->run == NULL) {
		load_fail(&ctx, "contest-load: no load '%s'", argv[2]);
		return 1;
	}
	ctx.worker = (unsigned)whole(argv[3], &ok);
	long long parent = whole(argv[4], &ok);
	size_t n = load_nopts(l);
	if (!ok || (size_t)argc != 5 + n) {
		load_fail(&ctx, "contest-load: %s: bad arguments", l->name);
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		const char *v = argv[5 + i];
		const struct load_opt *o = &l->opts[i];
		long long hi = o->max;
		if (o->type == LOAD_OPT_STR) {
			str[i] = v[0] == 's' ? v + 1 : NULL;
			continue;
		}
		if (o->type == LOAD_OPT_ENUM)
			for (hi = -1; o->choices[hi + 1]; hi++)
				;
		opt[i] = whole(v, &ok);
		if (!ok || opt[i] < (o->type == LOAD_OPT_ENUM ? 0 : o->min) ||
		    opt[i] > hi) {
			load_fail(&ctx, "contest-load: %s: bad %s '%s'", l->name,
			    l->opts[i].key, v);
			return 1;
		}
	}
	/* Armed before the exec too; again here, against a parent that died
	 * in between. */
	if (die_with_parent((int)parent) < 0)
		return 1;
	if (load_ncounters(l)) {
		ctx.head = load_headline(l, opt);
		ctx.unit = l->unit ? (unsigned)(l->unit - l->counters) : ctx.head;
		if (ctx.worker < LOAD_MARKS)
			ctx.mark = &ctx.shm->mark[ctx.worker];
	}
	l->run(&ctx);
	if (load_failed_why(ctx.shm) == NULL)
		load_fail(&ctx, "%s: worker %u stopped by itself", l->name,
		    ctx.worker);
	return 1;
}
