/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "load.h"
#include "util.h"

void
usage_list(FILE *f)
{
	fputs("usage: contest list [LOAD]...\n\n"
	    "List the loads, each with its summary, options (bounds and defaults)\n"
	    "and counters; the first counter is the headline in the Loads column.\n", f);
}

static void
show(const struct load *l)
{
	printf("%s\n    %s\n", l->name, l->summary);
	if (load_nopts(l)) {
		printf("    options:\n");
		for (size_t i = 0; l->opts[i].key; i++) {
			const struct load_opt *o = &l->opts[i];
			char range[160];
			if (o->type == LOAD_OPT_ENUM) {
				size_t off = 0;
				for (size_t c = 0; o->choices[c]; c++)
					off += (size_t)snprintf(range + off, sizeof range - off,
					    "%s%s", c ? "|" : "", o->choices[c]);
				printf("      %s=%s  %s (default %s)\n", o->key, range,
				    o->help, o->choices[o->def]);
			} else if (o->type == LOAD_OPT_STR) {
				printf("      %s=%s  %s (%s%s%s)\n", o->key,
				    o->flags & LOAD_OPT_REST ? "TEXT..." : "TEXT", o->help,
				    o->flags & LOAD_OPT_REQUIRED ? "required" :
				    o->flags & LOAD_OPT_WORKDIR ? "default: the results dir" :
				    "default ", o->sdef ? o->sdef : "",
				    o->flags & LOAD_OPT_REST ? "; last, may hold commas" : "");
			} else if (o->ncpu_def) {
				long long v = (long long)o->ncpu_def * load_ncpu();
				printf("      %s=N  %s (default %u per CPU, %lld here; %lld..%lld)\n",
				    o->key, o->help, o->ncpu_def,
				    v < o->min ? o->min : v > o->max ? o->max : v,
				    o->min, o->max);
			} else
				printf("      %s=N  %s (default %lld, %lld..%lld)\n", o->key,
				    o->help, o->def, o->min, o->max);
		}
	}
	if (load_ncounters(l)) {
		printf("    counters:\n");
		for (size_t i = 0; l->counters[i].id; i++)
			printf("      %-18s %s (%s%s), %s%s\n", l->counters[i].id,
			    l->counters[i].label, l->counters[i].unit,
			    l->counters[i].kind == LOAD_GAUGE ? ", level at the job's end" : "",
			    l->counters[i].help,
			    i == 0 ? (l->headline ? " (headline unless the mode says otherwise)" : " (headline)") : "");
	}
}

int
cmd_list(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	getopt_restart();
	while ((ch = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		if (ch == 'h') {
			usage_list(stdout);
			return finish_stdout();
		}
		usage_fail("unknown option '%s' (see 'contest list --help')",
		    argv[optind - 1]);
	}
	for (int i = optind; i < argc; i++)
		if (load_find(argv[i]) == NULL)
			usage_fail("unknown load '%s'", argv[i]);
	for (size_t i = 0; load_registry[i]; i++) {
		int want = optind >= argc;
		for (int a = optind; a < argc; a++)
			if (strcmp(argv[a], load_registry[i]->name) == 0)
				want = 1;
		if (want)
			show(load_registry[i]);
	}
	return finish_stdout();
}
