/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "psi.h"
#include "util.h"

void
psi_read(struct psi *p)
{
	psi_read_at(p, NULL);
}

void
psi_read_at(struct psi *p, const char *cgroup)
{
	memset(p, 0, sizeof *p);
	if (cgroup && *cgroup == '\0')
		return;		/* none: nothing is had */
	for (int i = 0; i < PSI_N; i++) {
		char path[4200], buf[256];
		if (cgroup)
			snprintf(path, sizeof path, "%s/%s.pressure", cgroup, psi_keys[i]);
		else
			snprintf(path, sizeof path, "/proc/pressure/%s", psi_keys[i]);
		if (read_small(path, buf, sizeof buf) < 0)
			continue;
		/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=N" comes first. */
		char *t = strstr(buf, "total=");
		if (strncmp(buf, "some ", 5) == 0 && t &&
		    sscanf(t, "total=%llu", &p->some_us[i]) == 1)
			p->have[i] = 1;
	}
}
