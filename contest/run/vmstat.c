/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vmstat.h"

int
vmstat_snap(const char *const *keys, size_t n, long long *vals)
{
	static char buf[32768];
	size_t got = 0, found = 0;
	int fd = open("/proc/vmstat", O_RDONLY | O_CLOEXEC);

	for (size_t i = 0; i < n; i++)
		vals[i] = -1;
	if (fd < 0)
		return 0;
	/* A /proc file comes a page or so per read: read to the end. */
	for (;;) {
		ssize_t r = read(fd, buf + got, sizeof buf - 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	for (char *line = buf; line && *line && found < n; ) {
		char *nl = strchr(line, '\n');
		for (size_t i = 0; i < n; i++) {
			size_t klen = strlen(keys[i]);
			if (strncmp(line, keys[i], klen) == 0 && line[klen] == ' ') {
				vals[i] = strtoll(line + klen + 1, NULL, 10);
				found++;
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	return (int)found;
}

long long
vmstat_read(const char *key)
{
	long long v;

	vmstat_snap(&key, 1, &v);
	return v;
}
