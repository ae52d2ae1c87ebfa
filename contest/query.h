/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What report, compare, history and bisect share: their options, parsed
 * once (query.c), and the reading of the results they name.
 */
#ifndef CONTEST_QUERY_H
#define CONTEST_QUERY_H

#include "report.h"
#include "rset.h"

#define MAX_FILTERS 64

enum qmode { Q_REPORT, Q_COMPARE, Q_HISTORY, Q_BISECT, Q_PLAN };

struct query {
	struct rfilter	 f;
	const char	*labels[MAX_FILTERS], *loads[MAX_FILTERS];
	const char	*paths[MAX_FILTERS];
	size_t		 npaths;
	const char	*svg, *html;
	enum rsort	 sort;
	int		 fmt, stats, strict;
	struct cmpopt	 cmp;
	unsigned	 figs;		/* history: CMP_GATE() bits; 0: the gate's */
	const char	*fig_names;	/* and --figure's job metrics, or NULL */
	char		 fig_buf[4096];	/* every --figure's names, joined */
	int		 figs_set;	/* --figure given */
	int		 robot;		/* history --report */
	size_t		 last;		/* history --last; 0: every night */
	int		 thr_set;	/* --threshold given */
	int		 run;		/* bisect --run */
	unsigned	 rounds_max, rounds_min;	/* its -n, --min-runs; 0: not given */
	struct planopt	 plan;		/* plan's --target, --boot-cost, --alpha */
};

/* argv's options into q, as command mode takes them (one line and exit
 * 2 on bad input, --help printed and exit 0); returns optind. */
int	query_parse(int argc, char **argv, struct query *q, enum qmode mode);
/* Read paths[0..n), q's -f paths, or the results dir, into rs, and
 * summarise it; exit 2 on one that cannot be read. */
void	query_load(struct rset *rs, char **paths, int n, const struct query *q);

#endif
