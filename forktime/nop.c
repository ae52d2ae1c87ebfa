/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The do-nothing program forktime execs, built static and dynamic.  With
 * an argument it sleeps that many milliseconds first (--keep-alive).
 */
#include <time.h>

int
main(int argc, char **argv)
{
	if (argc > 1) {
		long ms = 0;
		for (const char *p = argv[1]; *p >= '0' && *p <= '9' && ms < 60000; p++)
			ms = ms * 10 + (*p - '0');
		struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };
		nanosleep(&ts, NULL);
	}
	return 0;
}
