/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdlib.h>

#include "results_dir.h"

const char *
results_dir(const char *opt)
{
	const char *env = getenv("CONTEST_RESULTS");

	if (opt)
		return opt;
	if (env && *env)
		return env;
	return "contest-results";
}
