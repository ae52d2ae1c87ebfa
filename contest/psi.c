#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "psi.h"

const char *const psi_name[PSI_N] = { "cpu", "memory", "io" };

void
psi_read(struct psi *p)
{
	memset(p, 0, sizeof *p);
	for (int i = 0; i < PSI_N; i++) {
		char path[64], buf[256];
		snprintf(path, sizeof path, "/proc/pressure/%s", psi_name[i]);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		ssize_t n = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=N" comes first. */
		char *t = strstr(buf, "total=");
		if (strncmp(buf, "some ", 5) == 0 && t &&
		    sscanf(t, "total=%llu", &p->some_us[i]) == 1)
			p->have[i] = 1;
	}
}
