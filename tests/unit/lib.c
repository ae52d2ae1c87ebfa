/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The driver's small primitives that a session rarely pushes to their
 * edge: the group list past any fixed size, a read asked for nothing. */
#include "config.h"

#include <dirent.h>
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
	return tap_done();
}
