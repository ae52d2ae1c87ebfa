/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * contest bisect: for git bisect run, whether a label's runs look like
 * GOOD's or BAD's; with --run, the session of the kernel booted first.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "query.h"
#include "report.h"
#include "rset.h"
#include "util.h"

int
cmd_bisect(int argc, char **argv)
{
	struct query q;
	struct rset rs = { 0 };
	int i = query_parse(argc, argv, &q, Q_BISECT);

	if (argc - i != 3)
		usage_fail("bisect needs GOOD, BAD and CAND labels (see 'contest bisect --help')");
	for (int a = 0; a < 3; a++) {
		if (*argv[i + a] == '\0')
			usage_fail("bisect: empty label");
		for (int b = 0; b < a; b++)
			if (strcmp(argv[i + a], argv[i + b]) == 0)
				usage_fail("bisect: label '%s' is given twice", argv[i + a]);
		q.labels[a] = argv[i + a];
	}
	q.f.nlabels = 3;
	q.f.pairs = 1;
	query_load(&rs, NULL, 0, &q);
	int rc = bisect_decide(stdout, &rs, argv[i], argv[i + 1], argv[i + 2], &q.cmp);
	rset_free(&rs);
	if (rc == 2)
		return EXIT_USAGE;
	return finish_stdout() ? 125 : rc;
}
