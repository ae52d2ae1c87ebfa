/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include "load.h"

static unsigned
no_load_nworkers(const long long *opt)
{
	(void)opt;
	return 0;	/* the baseline: nothing runs beside the job */
}

const struct load load_no_load = {
	.name = "no_load",
	.summary = "nothing runs beside the job: the baseline every ratio divides by",
	.nworkers = no_load_nworkers,
};
