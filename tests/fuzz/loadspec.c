/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The load-spec parser (-l NAME[:key=val,...]) and the values it keeps. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "loadspec.h"

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	char *s = fuzz_string(d, n, 4096);
	struct loadspec ls;
	char err[512], buf[LOAD_STR_MAX + 64];

	memset(&ls, 0xa5, sizeof ls);	/* nothing may be read unset */
	if (loadspec_parse(s, &ls, err, sizeof err) == 0) {
		if (strlen(ls.name) >= sizeof ls.name)
			abort();
		for (size_t i = 0; i < load_nopts(ls.load); i++) {
			const struct load_opt *o = &ls.load->opts[i];
			loadspec_value(&ls, i, "/tmp", buf, sizeof buf);
			if (o->type != LOAD_OPT_STR && (ls.opt[i] < o->min || ls.opt[i] > o->max))
				abort();	/* an option out of its bounds */
		}
		/* the canonical name parses back to the same load */
		struct loadspec again;
		char *name = strdup(ls.name);
		if (name == NULL || loadspec_parse(name, &again, err, sizeof err) != 0 ||
		    strcmp(again.name, ls.name) != 0)
			abort();
		free(name);
	} else if (memchr(err, '\n', strlen(err)))
		abort();	/* the error is one line */
	free(s);
	return 0;
}
