/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The driver's small primitives that a session rarely pushes to their
 * edge: the group list past any fixed size, a read asked for nothing. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "pidset.h"
#include "tap.h"
#include "util.h"

static int
open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (d == NULL)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* grow: from min, by half again, never past what a size can say. */
static void
check_grow(void)
{
	int *v = NULL;
	size_t cap = 0;
	int whole = 1;

	for (size_t n = 0; n < 100000; n++) {
		if (grow(&v, &cap, n + 1, sizeof *v, 8) < 0 || cap < n + 1)
			whole = 0;
		v[n] = (int)n;
	}
	for (size_t n = 0; n < 100000; n++)
		whole &= v[n] == (int)n;
	ok(whole && cap >= 100000 && cap < 150000 + 8, "100000 appended, each kept, cap %zu", cap);
	int *was = v;
	size_t before = cap;
	errno = 0;
	ok(grow(&v, &cap, SIZE_MAX / 2, sizeof *v, 8) == -1 && errno == ENOMEM &&
	    v == was && cap == before, "a size past SIZE_MAX: ENOMEM, the array as it was");
	ok(grow(&v, &cap, SIZE_MAX, 1, 8) == -1 && errno == ENOMEM && cap == before,
	    "a count past what cap can grow to: ENOMEM");
	ok(grow(&v, &cap, 10, sizeof *v, 8) == 0 && v == was, "room already there: nothing moves");
	free(v);
	char *c = NULL;
	cap = 0;
	ok(grow(&c, &cap, 1, 1, 4096) == 0 && cap == 4096, "the first growth is to min");
	free(c);
}

int
main(void)
{
	struct pidset ps = { NULL, 0, 0 };
	int all = 1, dup = 1;

	/* far past the 64 the driver once kept, with nothing dropped */
	for (pid_t p = 100; p < 1100; p++)
		all &= pidset_add(&ps, p) == 0;
	for (pid_t p = 100; p < 1100; p += 7)
		dup &= pidset_add(&ps, p) == 0;
	ok(all && ps.n == 1000, "1000 groups kept: %zu", ps.n);
	ok(dup && ps.n == 1000, "a group added twice is kept once");
	int gone = 1;
	for (pid_t p = 100; p < 1100; p += 2)
		gone &= pidset_del(&ps, p) == 1;
	ok(gone && ps.n == 500, "500 deleted, 500 left: %zu", ps.n);
	ok(pidset_del(&ps, 100) == 0, "a group not there is not deleted twice");
	int odd = 1;
	for (size_t i = 0; i < ps.n; i++)
		odd &= ps.v[i] % 2 == 1;
	ok(odd, "the ones left are the ones not deleted");
	pidset_free(&ps);

	char buf[16];
	int before = open_fds();
	for (int i = 0; i < 100; i++)
		(void)read_small("/proc/self/stat", buf, 0);
	ok(before > 0 && open_fds() == before, "read_small of 0 bytes opens nothing (%d fds)",
	    before);
	ok(read_small("/proc/self/stat", buf, sizeof buf) == (long)sizeof buf - 1,
	    "read_small reads at most len - 1");
	check_grow();
	return tap_done();
}
