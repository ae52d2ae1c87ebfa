/*
 * contest report and contest compare: they read stored results and
 * print; they never run anything.  Both take the same filters and
 * formats, parsed here once.
 */
#include "config.h"

#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "num.h"
#include "report.h"
#include "results.h"
#include "rset.h"
#include "util.h"

#define MAX_FILTERS 64

void
usage_report(FILE *f)
{
	fputs("usage: contest report [-k LABEL]... [-l LOAD]... [--host HOST] "
	    "[--since DATE]\n"
	    "                      [--sort first|label|time] [--stats] "
	    "[--format FMT] [--svg FILE]\n"
	    "                      [RESULTS_FILE_OR_DIR]...\n\n"
	    "Print stored results per load, one row per kernel label, as the run\n"
	    "does: Kernel [runs] Time CPU% Loads LCPU% Ratio.  Ratio is over the same\n"
	    "label's no_load mean.  A directory means every *.jsonl file in it\n"
	    "(default: $CONTEST_RESULTS or ./contest-results).\n\n"
	    "  -k, --label LABEL    only this label (repeatable)\n"
	    "  -l, --load LOAD      only this load or load spec (repeatable)\n"
	    "      --host HOST      only results from this host\n"
	    "      --since DATE     only results from DATE on (YYYY-MM-DD[THH:MM[:SS]], UTC)\n"
	    "      --sort HOW       rows in order of first appearance (default), by\n"
	    "                       label (natural order) or by mean time per load\n"
	    "      --stats          add CoV, min, median, max and CI95 columns\n"
	    "      --format FMT     text (default), csv, json or md\n"
	    "      --svg FILE       also write a chart: Ratio per load per kernel with\n"
	    "                       CI95 error bars, and every run's Time\n"
	    "  -h, --help           this text\n", f);
}

void
usage_compare(FILE *f)
{
	fputs("usage: contest compare [-l LOAD]... [--host HOST] [--since DATE] "
	    "[--threshold PCT]\n"
	    "                       [--stats] [--format FMT] A B "
	    "[RESULTS_FILE_OR_DIR]...\n\n"
	    "Put label A (the baseline) and label B side by side per load: Time,\n"
	    "Ratio and Loads of each with the change, marked * when Welch's t-test\n"
	    "gives p < 0.05.  Exit 1 when a load's Time or Ratio is worse by more\n"
	    "than PCT and the change is significant, 0 otherwise: a nightly gate.\n\n"
	    "  -l, --load LOAD      only this load or load spec (repeatable)\n"
	    "      --host HOST      only results from this host\n"
	    "      --since DATE     only results from DATE on (YYYY-MM-DD[THH:MM[:SS]], UTC)\n"
	    "      --threshold PCT  regression threshold in percent (default 5)\n"
	    "      --stats          add the p-values and run counts\n"
	    "      --format FMT     text (default), csv, json, md or junit\n"
	    "  -h, --help           this text\n", f);
}

static int
rfmt_parse(const char *s, int allow_junit)
{
	static const char *const names[] = { "text", "csv", "json", "md", "junit" };

	for (int i = 0; i < 5; i++)
		if (strcmp(s, names[i]) == 0)
			return i == RFMT_JUNIT && !allow_junit ? -1 : i;
	return -1;
}

struct query {
	struct rfilter	 f;
	const char	*labels[MAX_FILTERS], *loads[MAX_FILTERS];
	const char	*svg;
	enum rsort	 sort;
	int		 fmt, stats;
	double		 threshold;
};

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

/* Options common to report and compare; returns optind. */
static int
parse(int argc, char **argv, struct query *q, int compare)
{
	static const struct option longopts[] = {
		{ "label", required_argument, NULL, 'k' },
		{ "load", required_argument, NULL, 'l' },
		{ "host", required_argument, NULL, 'H' },
		{ "since", required_argument, NULL, 'S' },
		{ "sort", required_argument, NULL, 'O' },
		{ "stats", no_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'F' },
		{ "svg", required_argument, NULL, 'G' },
		{ "threshold", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = compare ? "compare" : "report", *why;
	int ch;

	memset(q, 0, sizeof *q);
	q->f.labels = q->labels;
	q->f.loads = q->loads;
	q->threshold = 5;
	getopt_restart();
	while ((ch = getopt_long(argc, argv, ":k:l:h", longopts, NULL)) != -1) {
		/* report-only and compare-only options are unknown to the other */
		if ((compare && (ch == 'k' || ch == 'O' || ch == 'G')) ||
		    (!compare && ch == 'T'))
			usage_fail("contest %s has no option '%s' (see 'contest %s --help')",
			    cmd, argv[optind - 1], cmd);
		switch (ch) {
		case 'k':
			add_filter(q->labels, &q->f.nlabels, "-k", optarg);
			break;
		case 'l':
			add_filter(q->loads, &q->f.nloads, "-l", optarg);
			break;
		case 'H':
			if (*optarg == '\0')
				usage_fail("--host: empty value");
			q->f.host = optarg;
			break;
		case 'S':
			if (!valid_date(optarg))
				usage_fail("--since: '%s' is not YYYY-MM-DD[THH:MM[:SS]]", optarg);
			q->f.since = optarg;
			break;
		case 'O':
			if (strcmp(optarg, "first") == 0)
				q->sort = RSORT_FIRST;
			else if (strcmp(optarg, "label") == 0)
				q->sort = RSORT_LABEL;
			else if (strcmp(optarg, "time") == 0)
				q->sort = RSORT_TIME;
			else
				usage_fail("--sort: '%s' is not first, label or time", optarg);
			break;
		case 's':
			q->stats = 1;
			break;
		case 'F':
			if ((q->fmt = rfmt_parse(optarg, compare)) < 0)
				usage_fail("--format: '%s' is not text, csv, json, md%s", optarg,
				    compare ? " or junit" : "");
			break;
		case 'G':
			if (*optarg == '\0')
				usage_fail("--svg: empty file name");
			q->svg = optarg;
			break;
		case 'T': {
			long long v = num_parse_ms(optarg, 1000 * 1000, &why);
			if (why)
				usage_fail("--threshold: '%s' is %s (allowed 0..1000 percent, "
				    "at most 3 decimals)", optarg, why);
			q->threshold = (double)v / 1000;
			break;
		}
		case 'h':
			(compare ? usage_compare : usage_report)(stdout);
			contest_exit(finish_stdout());
		default:
			getopt_fail(cmd, ch, argv);
		}
	}
	return optind;
}

/* Read the given paths, or the results dir; exit 2 on one that cannot be read. */
static void
load(struct rset *rs, char **paths, int n, const struct query *q)
{
	const char *dflt = results_dir(NULL);
	int bad = 0;

	if (n == 0)
		bad = rset_add(rs, dflt, &q->f) != 0;
	for (int i = 0; i < n; i++)
		if (rset_add(rs, paths[i], &q->f) != 0)
			bad = 1;
	if (bad) {
		rset_free(rs);
		contest_exit(EXIT_USAGE);
	}
	rset_summarise(rs, q->sort);
}

int
cmd_report(int argc, char **argv)
{
	struct query q;
	struct rset rs = { 0 };
	int i = parse(argc, argv, &q, 0);

	load(&rs, argv + i, argc - i, &q);
	if (rs.nrun == 0) {
		warnmsg("no results%s", q.f.nlabels || q.f.nloads || q.f.host ||
		    q.f.since ? " match the filters" : " to report");
		rset_free(&rs);
		return 1;
	}
	switch (q.fmt) {
	case RFMT_CSV:
		report_csv(stdout, &rs);
		break;
	case RFMT_JSON:
		report_json(stdout, &rs);
		break;
	default:
		report_text(stdout, &rs, q.stats, q.fmt == RFMT_MD);
		break;
	}
	int rc = q.svg && report_svg(q.svg, &rs) != 0;
	rset_free(&rs);
	return finish_stdout() || rc;
}

int
cmd_compare(int argc, char **argv)
{
	struct query q;
	struct rset rs = { 0 };
	struct cmp m;
	int i = parse(argc, argv, &q, 1);

	if (argc - i < 2)
		usage_fail("compare needs two labels, A and B (see 'contest compare --help')");
	const char *a = argv[i], *b = argv[i + 1];
	if (strcmp(a, b) == 0)
		usage_fail("compare: A and B are the same label '%s'", a);
	/* only the two labels are read: a big results file stays cheap */
	q.labels[0] = a;
	q.labels[1] = b;
	q.f.nlabels = 2;
	load(&rs, argv + i + 2, argc - i - 2, &q);
	long ra = rset_find_row(&rs, a), rb = rset_find_row(&rs, b);
	if (ra < 0 || rb < 0) {
		rset_free(&rs);
		return EXIT_USAGE;
	}
	cmp_build(&m, &rs, (size_t)ra, (size_t)rb, q.threshold);
	if (m.line == NULL)
		fatal(1, "out of memory");
	if (m.n == 0) {
		warnmsg("compare: %s and %s share no load with successful runs", a, b);
		cmp_free(&m);
		rset_free(&rs);
		return EXIT_USAGE;
	}
	switch (q.fmt) {
	case RFMT_CSV:
		compare_csv(stdout, &m);
		break;
	case RFMT_JSON:
		compare_json(stdout, &m);
		break;
	case RFMT_JUNIT:
		compare_junit(stdout, &m);
		break;
	default:
		compare_text(stdout, &m, q.stats, q.fmt == RFMT_MD);
		break;
	}
	int regressed = m.regressed > 0;
	cmp_free(&m);
	rset_free(&rs);
	if (finish_stdout())
		return 1;
	return regressed;
}
