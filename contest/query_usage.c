/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The usage texts of the commands that read stored results: report,
 * compare, history, bisect and plan, each mirroring its synopsis in
 * contest(1). */
#include "config.h"

#include <stdio.h>

#include "cli.h"
#include "cpoint.h"
#include "report.h"

void
usage_report(FILE *f)
{
	char all[128], dflt[128];

	fputs("usage: contest report [-k LABEL]... [-l LOAD]... [--host HOST] "
	    "[--since DATE]\n"
	    "                      [--sort first|label|time] [--stats] "
	    "[--format FMT] [--svg FILE [--series]]\n"
	    "                      [--html DIR [--figure FIGURES]... [--threshold PCT]]\n"
	    "                      [--keep-suspect] [-f RESULTS_FILE_OR_DIR]... "
	    "[RESULTS_FILE_OR_DIR]...\n\n"
	    "Print stored results per load, one row per kernel label, as the run\n"
	    "does: Kernel [runs] Time CPU% Wait% Loads Load% LCPU% Ratio, and Lat\n"
	    "p99 and Met% for runs with a latency probe.  Ratio is over the same\n"
	    "label's no_load mean.  A directory means every *.jsonl file in it\n"
	    "(default: $CONTEST_RESULTS or ./contest-results).\n\n"
	    "  -f, --file PATH      read this results file or directory (repeatable)\n"
	    "  -k, --label LABEL    only this label (repeatable)\n"
	    "  -l, --load LOAD      only this load or load spec (repeatable)\n"
	    "      --host HOST      only results from this host\n"
	    "      --since DATE     only results from DATE on (YYYY-MM-DD[THH:MM[:SS]], UTC)\n"
	    "      --sort HOW       rows in order of first appearance (default), by\n"
	    "                       label (natural order) or by mean time per load\n"
	    "      --stats          add CoV, min, median, max and CI95 columns\n"
	    "      --format FMT     text (default), csv, json, md, or lava (LAVA's\n"
	    "                       TEST_CASE_ID RESULT MEASUREMENT UNITS lines)\n"
	    "      --svg FILE       also write a chart: Ratio per load per kernel with\n"
	    "                       CI95 error bars, and every run's Time\n"
	    "      --series         the chart is of the runs' per-second samples\n"
	    "                       (contest --series): per load the median run of\n"
	    "                       each label, job CPU% and Wait%, the load's rate\n"
	    "      --html DIR       write the nights as a static site in DIR instead:\n"
	    "                       index.html (each host's histories, as contest\n"
	    "                       history draws them, and its nights), a page per\n"
	    "                       night (its report, its comparison with the night\n"
	    "                       before) and changes.html (each change point, and\n"
	    "                       a regression's robot block); no script\n", f);
	fprintf(f, "      --figure FIGURES the site's figures: %s,\n"
	    "                       or a job metric's name\n"
	    "                       (repeatable; default %s and every\n"
	    "                       job metric)\n", cmp_gate_list(all,
	    sizeof all, ~0u), cmp_gate_list(dflt, sizeof dflt, CMP_GATE_DEFAULT));
	fputs("      --threshold PCT  the site's: a change beyond it is a regression\n"
	    "                       or an improvement (default 5)\n"
	    "      --keep-suspect   average in runs that may have done no work (left\n"
	    "                       out by default, and named under the table)\n"
	    "  -h, --help           this text\n", f);
}

void
usage_compare(FILE *f)
{
	char all[128], dflt[128];

	fputs("usage: contest compare [-f RESULTS_FILE_OR_DIR]... [-l LOAD]... "
	    "[--host HOST]\n"
	    "                       [--since DATE] [--threshold PCT] [--alpha P] "
	    "[--holm]\n"
	    "                       [--gate FIGURES] [--strict] [--looks N] [--stats]\n"
	    "                       [--format FMT] [--keep-suspect] BASE CAND [CAND...]\n\n"
	    "Put labels side by side per load, one column each, in the layout of\n"
	    "mmtests' compare-kernels: Time (Min, Amean, Stddev, CoeffVar, Max,\n"
	    "BAmean-50), Ratio, Loads, and Wait%, p99/run, Met%/run and Load% where\n"
	    "recorded (the probe's, the mean of the runs' own); each candidate's change against BASE, marked *  +x.xx%* when\n"
	    "significant by contest's own test, not mmtests' (paired over the rounds of one session both ran, else\n"
	    "Welch's t-test; Ratio: a t-test on the ratios' standard errors).  Per\n"
	    "gated figure a verdict: regression (worse, significant, beyond PCT),\n"
	    "improvement, no change (its interval within +-PCT) or can't tell; a\n"
	    "candidate under which a run of any load failed is failed.  No change\n"
	    "is two one-sided tests, each at alpha / 2 (the interval within +-PCT);\n"
	    "a regression is called at most alpha / 2 of the time where nothing\n"
	    "got worse, but PCT is asked of the estimate: a true change d under it\n"
	    "reads as a regression about Phi((d - PCT) / SE) of the time (16% for\n"
	    "4% with a 1% SE at PCT 5).  Exit 1 on a\n"
	    "regression or a failure, 3 with --strict where something can't tell,\n"
	    "0 otherwise: a nightly gate.\n\n"
	    "  -f, --file PATH      read this results file or directory (repeatable;\n"
	    "                       default $CONTEST_RESULTS or ./contest-results)\n"
	    "  -l, --load LOAD      only this load or load spec (repeatable)\n"
	    "      --host HOST      only results from this host\n"
	    "      --since DATE     only results from DATE on (YYYY-MM-DD[THH:MM[:SS]], UTC)\n"
	    "      --threshold PCT  regression threshold in percent (default 5)\n"
	    "      --alpha P        significance level (default 0.05)\n"
	    "      --holm           Holm-Bonferroni correction over the table's tests\n", f);
	fprintf(f, "      --gate FIGURES   figures that can fail: %s,\n"
	    "                       or a job metric's name\n"
	    "                       (default %s and every job metric)\n", cmp_gate_list(all, sizeof all,
	    ~0u), cmp_gate_list(dflt, sizeof dflt, CMP_GATE_DEFAULT));
	fputs("      --strict         exit 3 when nothing regressed or failed but some\n"
	    "                       gated figure (or load) can't tell\n"
	    "      --looks N        one of N looks of a loop that stops once decided:\n"
	    "                       each test at alpha / N (1..1000, default 1)\n"
	    "      --stats          add run counts and p-values\n"
	    "      --format FMT     text (default), csv, json, md, junit or lava\n"
	    "      --keep-suspect   average in runs that may have done no work\n"
	    "  -h, --help           this text\n", f);
}

void
usage_history(FILE *f)
{
	char all[128], dflt[128];

	fputs("usage: contest history [-f RESULTS_FILE_OR_DIR]... [-k LABEL]... "
	    "[-l LOAD]...\n"
	    "                       [--host HOST] [--since DATE] [--figure FIGURES]...\n"
	    "                       [--threshold PCT] [--last K] [--format FMT]\n"
	    "                       [--report] [--svg FILE] [--keep-suspect]\n\n"
	    "The labels of each host and command as a series of nights, in the order\n"
	    "their runs began: per load and figure a point per label (its mean, CI95\n"
	    "and runs), and where the series changed: E-divisive means proposes each\n"
	    "split and a t-test between the two sides keeps it at p < 0.001, with at\n"
	    "least 3 labels a side, as Hunter and Apache Otava do, but Welch's (noise\n"
	    "that grew does not hide a step), a night over 5 robust SDs off its side\n"
	    "left out of it (and named), and the sides of a split that fails searched\n"
	    "on.  Each change\n"
	    "is given from the label before it to the one after, in % of the mean\n"
	    "before with its CI95, its p, and a verdict: regression or improvement\n"
	    "beyond PCT, no change within it, or can't tell.  Exit 1 when a series'\n"
	    "newest change is a regression (it ends worse than it was), as a\n"
	    "nightly gate; 3 when none does but some series' newest nights, fewer\n"
	    "than a change needs after it, are worse beyond PCT (\"the newest\n"
	    "night differs: ... can't place it yet\"); 0 otherwise.\n\n"
	    "  -f, --file PATH      read this results file or directory (repeatable;\n"
	    "                       default $CONTEST_RESULTS or ./contest-results)\n"
	    "  -k, --label LABEL    only this label (repeatable)\n"
	    "  -l, --load LOAD      only this load or load spec (repeatable)\n"
	    "      --host HOST      only results from this host\n"
	    "      --since DATE     only results from DATE on (YYYY-MM-DD[THH:MM[:SS]], UTC)\n", f);
	fprintf(f, "      --figure FIGURES the figures: %s,\n"
	    "                       or a job metric's name\n"
	    "                       (repeatable; default %s and every\n"
	    "                       job metric)\n", cmp_gate_list(all,
	    sizeof all, ~0u), cmp_gate_list(dflt, sizeof dflt, CMP_GATE_DEFAULT));
	fputs("      --threshold PCT  a change beyond it is a regression or an\n"
	    "                       improvement (default 5)\n"
	    "      --last K         each series' newest K labels alone (6..100000)\n"
	    "      --format FMT     text (default), csv, json, md, junit (a test case\n"
	    "                       per series, failed where it ends worse) or lava\n"
	    "                       (a line per series: pass, or fail and its %)\n"
	    "      --report         per regression, the block a kernel test robot\n"
	    "                       mails: base and new, %stddev and %change of each\n"
	    "                       tested figure of the load, what differed (text, md)\n"
	    "      --svg FILE       also a chart: a panel per series, each label's mean\n"
	    "                       and CI95, a dashed line at each change (red: worse)\n"
	    "      --keep-suspect   average in runs that may have done no work\n"
	    "  -h, --help           this text\n", f);
}

void
usage_bisect(FILE *f)
{
	char all[128], dflt[128];

	fputs("usage: contest bisect [-f RESULTS_FILE_OR_DIR]... [-l LOAD]... [--host HOST]\n"
	    "                      [--since DATE] [--gate FIGURES] [--alpha P]\n"
	    "                      [--threshold PCT] [--looks N] [--keep-suspect]\n"
	    "                      GOOD BAD CAND\n"
	    "       contest bisect --run [-f RESULTS_DIR] [-k LABEL] [-n RUNS] "
	    "[--min-runs N]\n"
	    "                      [-l LOAD]... [--gate FIGURES] [--alpha P]\n"
	    "                      [--threshold PCT] GOOD BAD -- COMMAND [ARG]...\n\n"
	    "For git bisect run: whether CAND's runs look like GOOD's or BAD's.  The\n"
	    "step is every load in which BAD is a regression against GOOD by\n"
	    "compare's verdict, each judged on one figure: Ratio where no_load did\n"
	    "not move (a night's drift falls on both and goes), Time where it did\n"
	    "or for no_load itself, a job metric (or Loads) where the step is in it\n"
	    "alone.  In each, CAND looks bad where it lies past the half way from\n"
	    "GOOD to BAD, significantly worse than GOOD and not significantly\n"
	    "better than BAD; good the other way round.  Exit 0 when every load\n"
	    "of the step looks good, 1 when every one looks bad,\n"
	    "125 (git bisect's skip) otherwise or where CAND has no results: never a\n"
	    "guess.  A commit that is in truth GOOD's is called bad only where its\n"
	    "test against GOOD errs, at most alpha / 2 in each load, and the other\n"
	    "way round.  Exit 2 where there is no step, or on bad input.\n\n"
	    "With --run, CAND is the kernel booted: a session of COMMAND with\n"
	    "GOOD's settings (all but its shape: runs, warmup, label, output,\n"
	    "--until-ci, --sweep, --variant) is run under LABEL (default\n"
	    "bisect-TIME-PID) into the results directory, then a round more at each\n"
	    "look until the call is made or -n is spent, each look at alpha over\n"
	    "the looks there can be; the step is decided once, at alpha, from GOOD\n"
	    "and BAD alone.  A job that fails is 125; no step, a label with\n"
	    "no results, or a session that cannot run exit 255, which stops git\n"
	    "bisect run rather than take the commit for bad.\n\n"
	    "  -f, --file PATH      read this results file or directory (repeatable;\n"
	    "                       default $CONTEST_RESULTS or ./contest-results)\n"
	    "  -l, --load LOAD      only this load or load spec (repeatable)\n"
	    "      --host HOST      only results from this host\n"
	    "      --since DATE     only results from DATE on (YYYY-MM-DD[THH:MM[:SS]], UTC)\n", f);
	fprintf(f, "      --gate FIGURES   the figures of the step: %s,\n"
	    "                       or a job metric's name\n"
	    "                       (default %s and every job metric)\n", cmp_gate_list(all, sizeof all, ~0u),
	    cmp_gate_list(dflt, sizeof dflt, CMP_GATE_DEFAULT));
	fputs("      --alpha P        significance level (default 0.05)\n"
	    "      --threshold PCT  a regression or improvement is beyond it, no\n"
	    "                       change within it (default 5)\n"
	    "      --looks N        one of N looks of the caller's loop: CAND's tests\n"
	    "                       at alpha / N, the step at alpha (1..1000; --run\n"
	    "                       counts its own)\n"
	    "      --keep-suspect   average in runs that may have done no work\n"
	    "      --run            measure CAND first (see above)\n"
	    "  -k, --label LABEL    --run's candidate label\n"
	    "  -n, --runs RUNS      --run's rounds at most (2..1000, default 10)\n"
	    "      --min-runs N     --run's rounds before the first look (default 3)\n"
	    "  -h, --help           this text\n", f);
}

void
usage_plan(FILE *f)
{
	fputs("usage: contest plan [-f RESULTS_FILE_OR_DIR]... [-k LABEL]... "
	    "[-l LOAD]...\n"
	    "                    [--host HOST] [--since DATE] [--target PCT] "
	    "[--threshold PCT]\n"
	    "                    [--boot-cost SECONDS] [--alpha A] [--format text|json]\n"
	    "                    [--keep-suspect]\n"
	    "                    [RESULTS_FILE_OR_DIR]...\n\n"
	    "From each label whose runs span two or more boots (an A/A: one kernel\n"
	    "booted twice or more, the same session in each), per load, Time's and\n"
	    "Ratio's spread within a boot (a run's, T1) and between boots (a boot's\n"
	    "own, T2 = sqrt(S2^2 - S1^2/r1), Kalibera and Jones), and the plan that\n"
	    "finds a change of PCT at least cost: runs a boot, sqrt(boot cost / run\n"
	    "cost x T1^2 / T2^2), and the fewest boots a kernel with which compare\n"
	    "calls two kernels PCT apart a regression (significant at alpha and\n"
	    "beyond the threshold) with 80% power.  Exit 2 where no label spans two\n"
	    "boots, or the target is not beyond the threshold.\n\n"
	    "  -f, --file PATH      read this results file or directory (repeatable;\n"
	    "                       default $CONTEST_RESULTS or ./contest-results)\n"
	    "  -k, --label LABEL    only this label (repeatable)\n"
	    "  -l, --load LOAD      only this load or load spec (repeatable)\n"
	    "      --host HOST      only results from this host\n"
	    "      --since DATE     only results from DATE on (YYYY-MM-DD[THH:MM[:SS]], UTC)\n"
	    "      --target PCT     the change to find, percent (default 10; above 0,\n"
	    "                       below 100, and beyond the threshold)\n"
	    "      --threshold PCT  compare's: a regression only beyond it (default 5)\n"
	    "      --boot-cost SECONDS  what a boot costs: reboot, settle, warm up\n"
	    "                       (default 120, said to be assumed)\n"
	    "      --alpha A        the test's significance level (default 0.05)\n"
	    "      --format FMT     text or json\n"
	    "      --keep-suspect   count runs that may have done no work\n"
	    "  -h, --help           this text\n", f);
}
