/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The options of the commands that read stored results, parsed here once:
 * each command takes its own, and another's is one line and exit 2.
 */
#include "config.h"

#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "num.h"
#include "query.h"
#include "results_dir.h"
#include "util.h"

static const char *const qcmd[] = { "report", "compare", "history", "bisect",
    "plan" };

/* junit is compare's and history's; lava every one's but plan's, which
 * is text or json. */
static int
rfmt_parse(const char *s, enum qmode mode)
{
	static const char *const names[] = {
		"text", "csv", "json", "md", "junit", "lava",
	};

	for (int i = 0; i < 6; i++)
		if (strcmp(s, names[i]) == 0)
			return (i == RFMT_JUNIT && mode == Q_REPORT) || (mode == Q_PLAN &&
			    i != RFMT_TEXT && i != RFMT_JSON) ? -1 : i;
	return -1;
}


/* YYYY-MM-DD, optionally THH:MM or THH:MM:SS: a prefix of our timestamps. */
static int
valid_date(const char *s)
{
	static const char *const shapes[] = {
		"dddd-dd-dd", "dddd-dd-ddTdd:dd", "dddd-dd-ddTdd:dd:dd",
	};

	for (int i = 0; i < 3; i++) {
		const char *p = s, *q = shapes[i];
		for (; *p && *q; p++, q++)
			if (*q == 'd' ? !isdigit((unsigned char)*p) : *p != *q)
				break;
		if (*p == '\0' && *q == '\0')
			return 1;
	}
	return 0;
}

static void
add_filter(const char **list, size_t *n, const char *opt, const char *v)
{
	if (*v == '\0')
		usage_fail("%s: empty value", opt);
	if (*n == MAX_FILTERS)
		usage_fail("%s: at most %d", opt, MAX_FILTERS);
	list[(*n)++] = v;
}

/* Long options with no letter of their own. */
enum {
	OPT_HOST = 256, OPT_SINCE, OPT_SORT, OPT_STATS, OPT_FORMAT, OPT_SVG,
	OPT_SERIES, OPT_THRESHOLD, OPT_ALPHA, OPT_HOLM, OPT_GATE, OPT_KEEP_SUSPECT,
	OPT_STRICT, OPT_LOOKS, OPT_FIGURE, OPT_REPORT, OPT_LAST, OPT_HTML,
	OPT_RUN, OPT_MIN_RUNS, OPT_TARGET, OPT_BOOT_COST,
};

static const struct option query_longopts[] = {
	{ "label", required_argument, NULL, 'k' },
	{ "load", required_argument, NULL, 'l' },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "sort", required_argument, NULL, OPT_SORT },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "html", required_argument, NULL, OPT_HTML },
	{ "run", no_argument, NULL, OPT_RUN },
	{ "runs", required_argument, NULL, 'n' },
	{ "min-runs", required_argument, NULL, OPT_MIN_RUNS },
	{ "series", no_argument, NULL, OPT_SERIES },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "holm", no_argument, NULL, OPT_HOLM },
	{ "gate", required_argument, NULL, OPT_GATE },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "looks", required_argument, NULL, OPT_LOOKS },
	{ "figure", required_argument, NULL, OPT_FIGURE },
	{ "report", no_argument, NULL, OPT_REPORT },
	{ "last", required_argument, NULL, OPT_LAST },
	{ "file", required_argument, NULL, 'f' },
	{ "keep-suspect", no_argument, NULL, OPT_KEEP_SUSPECT },
	{ "target", required_argument, NULL, OPT_TARGET },
	{ "boot-cost", required_argument, NULL, OPT_BOOT_COST },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* An option that chooses runs (and files); 0 when ch is none. */
/* Every --figure's list so far, joined in q (which each parse starts
 * empty): where its job metrics are found once the results are read. */
static const char *
add_names(struct query *q, const char *arg)
{
	size_t n = strlen(q->fig_buf);

	if (n + strlen(arg) + 2 > sizeof q->fig_buf)
		usage_fail("--figure: too many names");
	snprintf(q->fig_buf + n, sizeof q->fig_buf - n, "%s%s", n ? "," : "", arg);
	return q->fig_buf;
}

static int
filter_opt(int ch, const char *arg, struct query *q)
{
	switch (ch) {
	case 'k':
		add_filter(q->labels, &q->f.nlabels, "-k", arg);
		return 1;
	case 'l':
		add_filter(q->loads, &q->f.nloads, "-l", arg);
		return 1;
	case OPT_HOST:
		if (*arg == '\0')
			usage_fail("--host: empty value");
		q->f.host = arg;
		return 1;
	case OPT_SINCE:
		if (!valid_date(arg))
			usage_fail("--since: '%s' is not YYYY-MM-DD[THH:MM[:SS]]", arg);
		q->f.since = arg;
		return 1;
	case 'f':
		add_filter(q->paths, &q->npaths, "-f", arg);
		return 1;
	case OPT_KEEP_SUSPECT:
		q->f.keep_suspect = 1;
		return 1;
	}
	return 0;
}

/* An option of what is printed, and of compare's tests; 0 when ch is none. */
/* --gate's or --figure's list: contest's own figures as bits, names that
 * may be job metrics kept to be looked for in the results. */
static void
gate_opt(int gate, const char *arg, struct query *q)
{
	unsigned bits;
	int metrics;

	if (cmp_gate_split(arg, &bits, &metrics) < 0) {
		char all[128];
		usage_fail("--%s: '%s' is not a list of %s or job metrics' names",
		    gate ? "gate" : "figure", arg, cmp_gate_list(all, sizeof all, ~0u));
	}
	if (gate) {
		q->cmp.gate = bits;
		q->cmp.gate_set = 1;
		q->cmp.gate_names = metrics ? arg : NULL;
	} else {
		q->figs |= bits;
		q->figs_set = 1;
		if (metrics)
			q->fig_names = add_names(q, arg);
	}
}

static int
output_opt(int ch, const char *arg, struct query *q, enum qmode mode)
{
	static const char *const sorts[] = { "first", "label", "time", NULL };
	const char *why;
	long long v;
	int i;

	switch (ch) {
	case OPT_SORT:
		for (i = 0; sorts[i] && strcmp(arg, sorts[i]) != 0; i++)
			;
		if (sorts[i] == NULL)
			usage_fail("--sort: '%s' is not first, label or time", arg);
		q->sort = i == 0 ? RSORT_FIRST : i == 1 ? RSORT_LABEL : RSORT_TIME;
		return 1;
	case OPT_STATS:
		q->stats = 1;
		return 1;
	case OPT_FORMAT:
		if ((q->fmt = rfmt_parse(arg, mode)) < 0)
			usage_fail(mode == Q_PLAN ? "--format: '%s' is not text or json%s" :
			    "--format: '%s' is not text, csv, json, md%s", arg, mode == Q_PLAN ?
			    "" : mode == Q_REPORT ? " or lava" : ", junit or lava");
		return 1;
	case OPT_SERIES:
		q->f.series = 1;
		return 1;
	case OPT_SVG:
		if (*arg == '\0')
			usage_fail("--svg: empty file name");
		q->svg = arg;
		return 1;

	case OPT_THRESHOLD:
		v = num_parse_ms(arg, 1000 * 1000, &why);
		if (why)
			usage_fail("--threshold: '%s' is %s (allowed 0..1000 percent, "
			    "at most 3 decimals)", arg, why);
		q->cmp.threshold = (double)v / 1000;
		q->thr_set = 1;
		return 1;
	case OPT_ALPHA:
		/* a probability in thousandths of a percent: 0.05 is 50 */
		v = num_parse_ms(arg, 500, &why);
		if (why || v == 0)
			usage_fail("--alpha: '%s' is %s (allowed 0.001..0.5, at most 3 "
			    "decimals)", arg, why ? why : "zero");
		q->cmp.alpha = (double)v / 1000;
		return 1;
	case OPT_HOLM:
		q->cmp.holm = 1;
		return 1;
	case OPT_STRICT:
		q->strict = 1;
		return 1;
	case OPT_LOOKS:
		v = num_parse(arg, 1, 1000, &why);
		if (why)
			usage_fail("--looks: '%s' is %s (allowed 1..1000)", arg, why);
		q->cmp.looks = (unsigned)v;
		return 1;
	case OPT_GATE:
	case OPT_FIGURE:
		gate_opt(ch == OPT_GATE, arg, q);
		return 1;
	}
	return 0;
}

/* An option of history's own, or the site's; 0 when ch is none. */
static int
history_opt(int ch, const char *arg, struct query *q)
{
	const char *why;
	long long v;

	switch (ch) {
	case OPT_HTML:
		if (*arg == '\0')
			usage_fail("--html: empty directory name");
		q->html = arg;
		return 1;
	case OPT_REPORT:
		q->robot = 1;
		return 1;
	case OPT_LAST:
		v = num_parse(arg, 2 * CPOINT_MIN, 100000, &why);
		if (why)
			usage_fail("--last: '%s' is %s (allowed %d..100000 nights)", arg, why,
			    2 * CPOINT_MIN);
		q->last = (size_t)v;
		return 1;
	}
	return 0;
}

/* An option of bisect --run's; 0 when ch is none. */
static int
bisect_opt(int ch, const char *arg, struct query *q)
{
	const char *why;
	long long v;

	switch (ch) {
	case OPT_RUN:
		q->run = 1;
		return 1;
	case 'n':
	case OPT_MIN_RUNS:
		v = num_parse(arg, 2, 1000, &why);
		if (why)
			usage_fail("%s: '%s' is %s (allowed 2..1000 rounds)", ch == 'n' ?
			    "-n" : "--min-runs", arg, why);
		*(ch == 'n' ? &q->rounds_max : &q->rounds_min) = (unsigned)v;
		return 1;
	}
	return 0;
}

/* An option of plan's own; 0 when ch is none. */
static int
plan_opt(int ch, const char *arg, struct query *q)
{
	const char *why;
	long long v;

	switch (ch) {
	case OPT_TARGET:
		v = num_parse_ms(arg, 100000, &why);
		if (why || v == 0 || v >= 100000)
			usage_fail("--target: '%s' is %s (allowed above 0 and below 100 "
			    "percent, at most 3 decimals)", arg, why ? why : v ? "too large" :
			    "zero");
		q->plan.target_pct = (double)v / 1000;
		return 1;
	case OPT_BOOT_COST:
		v = num_parse_ms(arg, 86400000, &why);
		if (why || v == 0)
			usage_fail("--boot-cost: '%s' is %s (allowed above 0 and up to "
			    "86400 seconds, at most 3 decimals)", arg, why ? why : "zero");
		q->plan.boot_s = (double)v / 1000;
		q->plan.boot_given = 1;
		return 1;
	}
	return 0;
}

/* Whether contest <mode> has option ch. */
static int
mode_has(enum qmode mode, int ch)
{
	switch (ch) {
	case 'k':	/* bisect's: --run's candidate */
		return mode != Q_COMPARE;
	case OPT_RUN: case 'n': case OPT_MIN_RUNS:
		return mode == Q_BISECT;
	case OPT_TARGET: case OPT_BOOT_COST:
		return mode == Q_PLAN;
	case OPT_SORT: case OPT_SERIES: case OPT_HTML:
		return mode == Q_REPORT;
	case OPT_SVG:
		return mode == Q_REPORT || mode == Q_HISTORY;
	case OPT_STATS:
		return mode == Q_REPORT || mode == Q_COMPARE;
	case OPT_FORMAT:
		return mode != Q_BISECT;
	case OPT_HOLM: case OPT_STRICT:
		return mode == Q_COMPARE;
	case OPT_LOOKS:
		return mode == Q_COMPARE || mode == Q_BISECT;
	case OPT_ALPHA:
		return mode == Q_COMPARE || mode == Q_BISECT || mode == Q_PLAN;
	case OPT_GATE:
		return mode == Q_COMPARE || mode == Q_BISECT;
	case OPT_THRESHOLD:	/* report's with --html; plan's rule */
		return 1;
	case OPT_FIGURE:	/* report's with --html */
		return mode != Q_BISECT && mode != Q_PLAN;
	case OPT_REPORT: case OPT_LAST:
		return mode == Q_HISTORY;
	default:
		return 1;
	}
}

/* The options of report, compare, history and bisect; returns optind. */
int
query_parse(int argc, char **argv, struct query *q, enum qmode mode)
{
	const char *cmd = qcmd[mode];
	int ch;

	memset(q, 0, sizeof *q);
	q->f.labels = q->labels;
	q->f.loads = q->loads;
	q->cmp.threshold = 5;
	q->cmp.alpha = CMP_ALPHA;
	q->cmp.gate = CMP_GATE_DEFAULT;
	q->plan.target_pct = 10;	/* twice the threshold */
	q->plan.boot_s = 120;
	getopt_restart();
	while ((ch = getopt_long(argc, argv, ":f:k:l:n:h", query_longopts, NULL)) != -1) {
		/* each command's own options are unknown to the others */
		/* the option's own word, not its value where that came apart */
		if (ch != '?' && ch != ':' && !mode_has(mode, ch))
			usage_fail("no option '%s' (see 'contest %s --help')",
			    optarg && optind >= 2 && optarg == argv[optind - 1] ?
			    argv[optind - 2] : argv[optind - 1], cmd);
		if (ch == 'h') {
			(mode == Q_COMPARE ? usage_compare : mode == Q_HISTORY ?
			    usage_history : mode == Q_BISECT ? usage_bisect :
			    mode == Q_PLAN ? usage_plan : usage_report)(stdout);
			contest_exit(finish_stdout());
		}
		if (!filter_opt(ch, optarg, q) && !output_opt(ch, optarg, q, mode) &&
		    !history_opt(ch, optarg, q) && !bisect_opt(ch, optarg, q) &&
		    !plan_opt(ch, optarg, q))
			getopt_fail(cmd, ch, argv);
	}
	return optind;
}

/* Read the given paths, or the results dir; exit 2 on one that cannot be read. */
void
query_load(struct rset *rs, char **paths, int n, const struct query *q)
{
	const char *dflt = results_dir(NULL);
	int bad = 0;

	if (n == 0 && q->npaths == 0) {
		struct stat st;
		const char *env = getenv("CONTEST_RESULTS");

		/* First contact: say what to do, not what open(2) said. */
		if (stat(dflt, &st) < 0 && errno == ENOENT) {
			if (env && *env)
				usage_fail("no results in %s ($CONTEST_RESULTS) yet: run contest "
				    "first, or name a results file or directory with -f", dflt);
			usage_fail("no results in %s%s yet: run contest here first, or name a "
			    "results file or directory with -f", dflt[0] == '/' ? "" : "./", dflt);
		}
		bad = rset_add(rs, dflt, &q->f) != 0;
	}
	for (size_t i = 0; i < q->npaths; i++)
		if (rset_add(rs, q->paths[i], &q->f) != 0)
			bad = 1;
	for (int i = 0; i < n; i++)
		if (rset_add(rs, paths[i], &q->f) != 0)
			bad = 1;
	if (bad) {
		rset_free(rs);
		contest_exit(EXIT_USAGE);
	}
	rset_summarise(rs, q->sort);
}
