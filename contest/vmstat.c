#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vmstat.h"

long long
vmstat_read(const char *key)
{
	static char buf[32768];
	size_t klen = strlen(key), got = 0;
	int fd = open("/proc/vmstat", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	/* A /proc file comes a page or so per read: read to the end. */
	for (;;) {
		ssize_t n = read(fd, buf + got, sizeof buf - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	for (char *line = buf; line && *line; ) {
		char *nl = strchr(line, '\n');
		if (strncmp(line, key, klen) == 0 && line[klen] == ' ')
			return strtoll(line + klen + 1, NULL, 10);
		line = nl ? nl + 1 : NULL;
	}
	return -1;
}
