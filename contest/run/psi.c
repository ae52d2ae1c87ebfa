#include "config.h"

#include <stdio.h>
#include <string.h>

#include "psi.h"
#include "util.h"

const char *const psi_name[PSI_N] = { "cpu", "memory", "io" };

void
psi_read(struct psi *p)
{
	memset(p, 0, sizeof *p);
	for (int i = 0; i < PSI_N; i++) {
		char path[64], buf[256];
		snprintf(path, sizeof path, "/proc/pressure/%s", psi_name[i]);
		if (read_small(path, buf, sizeof buf) < 0)
			continue;
		/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=N" comes first. */
		char *t = strstr(buf, "total=");
		if (strncmp(buf, "some ", 5) == 0 && t &&
		    sscanf(t, "total=%llu", &p->some_us[i]) == 1)
			p->have[i] = 1;
	}
}
