/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What report and compare print, one file per format: text and md
 * (report_text.c and compare_text.c), csv, json, junit, lava and the SVG
 * chart.  The figures come from rset.h, the columns from columns.h; the
 * comparison of two rows is built once (compare.c) and printed by each
 * format.
 */
#ifndef CONTEST_REPORT_H
#define CONTEST_REPORT_H

#include <stdio.h>

#include "columns.h"
#include "cpoint.h"
#include "rset.h"

enum rfmt { RFMT_TEXT, RFMT_CSV, RFMT_JSON, RFMT_MD, RFMT_JUNIT, RFMT_LAVA };


#define CMP_ALPHA 0.05	/* default: a change is significant below this p */

/* --gate's default */
#define CMP_GATE_DEFAULT	(CMP_GATE(CF_AMEAN) | CMP_GATE(CF_RATIO))

#define CMP_POWER 0.8	/* what MinDetect and the gate's power are for */

/* A gated figure's verdict, and a candidate's: failed where a run of
 * some load failed under it, else the first of these its figures reach,
 * in this order: regression, can't tell, improvement, no change. */
enum cmp_verdict { CV_NONE, CV_REGRESSION, CV_CANTTELL, CV_IMPROVEMENT,
	CV_NOCHANGE, CV_FAILED, CV_N };
/* The figures' four verdicts; CV_FAILED is a candidate's alone: a load
 * some of whose runs failed under it, before any figure is read. */
#define CV_FIGS CV_FAILED
extern const char *const cmp_verdict_names[CV_N];
/* The four words' one rule, over a change in % (est, its CI95 lo..hi):
 * regression or improvement where significant and beyond thr in %, by
 * which way is worse; no change where the interval lies within +-thr;
 * else can't tell.  compare's figures and history's change points. */
enum cmp_verdict cmp_rule(int sig, double est, double lo, double hi, int worse,
	    double thr);

/* How a figure was tested (cmp_test.c). */
enum cmp_kind { CT_NONE, CT_WELCH, CT_RATIO, CT_PAIRED, CT_BOOTS, CT_N };
/* "", "welch", "ratio" (the delta-method t-test), "paired", "boots" (on
 * the boot means: cmp_boots.c) */
extern const char *const cmp_kind_names[CT_N];

struct cmptest {
	enum cmp_kind	 kind;
	size_t		 pairs;		/* CT_PAIRED: the rounds both ran */
	int		 log;		/* est is a mean log ratio */
	double		 est;		/* the change, in parts of the baseline */
	/* the variance of est in one (paired) or two (each side's) parts,
	 * each with its degrees of freedom; var[1] NaN: one */
	double		 var[2], df[2];
	double		 dfse, p;	/* the test's df and two-sided p */
	/* the boots each side's runs span (0: not recorded, or a test
	 * within one boot), and what the test says of them */
	size_t		 boots[2];
	enum boot_note {
		BN_NONE,	/* boots unrecorded, shared, or tested as units */
		BN_ONE,		/* a side in one boot, no boot spread known: a
				 * boot-to-boot difference reads the same */
		BN_WIDENED,	/* a side in one boot, widened by the boots'
				 * own spread of spread_label's spread_boots */
		BN_UNRECORDED,	/* one side's runs record their boot, the
				 * other's not (older results): over runs */
		BN_WELCH,	/* unequal counts of two or more boots: Welch's
				 * t on the boot means, the more cautious */
	}		 boot_note;
	const char	*spread_label;
	size_t		 spread_boots;
	/* the units above are sessions of one boot: both labels ran in it,
	 * in sessions of their own */
	int		 by_session;
};
/* "", "one_boot", "widened", "unrecorded", "welch" */
extern const char *const boot_note_names[];
/* One boot a side and no boot spread to give them (a side of older runs
 * is one boot): the runs' test, which cannot tell a boot from a kernel. */
static inline int
cmp_one_boot_each(const struct cmptest *t)
{
	return t->boots[0] == 1 && t->boots[1] == 1 && t->kind != CT_BOOTS;
}

/* contest plan (plan.c): the change to find, at what alpha, and what a
 * boot costs (given, or assumed). */
struct planopt {
	double		 target_pct, threshold_pct, alpha, boot_s;
	int		 boot_given;
};
/* A label's load and figure over its boots: how many boots and runs, a
 * run's own variance t1 and a boot's t2 (relative), a run's cost, and
 * the plan: runs a boot, boots a kernel (0: more than the plan looks
 * at), and what they cost a kernel. */
struct planrow {
	size_t		 boots, runs, runs_per_boot, boots_per_kernel;
	double		 t1, t2, run_s, cost_s;
};
/* The plan for cell c (z: its no_load cell) and figure k: 0, or -1 where
 * it has fewer than two boots with a spread. */
int	plan_row(const struct rcell *c, const struct rcell *z,
	    const struct column *k, const struct planopt *, struct planrow *);
/* Every label's over two or more boots, as text or JSON; -1 where none
 * is (nothing to plan from: the caller says so). */
int	plan_print(FILE *, const struct rset *, const struct planopt *, int json);

/* A cell's figure over its boots (cmp_boots.c): how many boots with a
 * value and runs in them, the mean of their means (on the log scale for
 * Time and Ratio) and the variance of those means, s2; within: the mean
 * variance of a boot's mean from its own runs (within_rel relative to
 * the level); t2: the boots' own spread, s2 - within, relative; NaN
 * below two boots.  recorded: every run says its boot. */
struct bootside {
	size_t		 nb, runs;
	int		 recorded, log;
	double		 mean, s2, within, within_rel, t2;
};
/* A label whose boots lend their spread where the two compared are in
 * a boot each: its cell c (z: its no_load cell) and its boots, nb; c
 * NULL: none known. */
struct bootspread {
	const struct rcell	*c, *z;
	size_t			 nb;
	const char		*label;
};
int	cmp_boot_side(const struct rcell *c, const struct rcell *z,
	    const struct column *k, struct bootside *);
/* 1 when the two cells share a boot: labels measured in one boot. */
int	cmp_boots_shared(const struct rcell *ca, const struct rcell *cb);
/* The sessions c's runs span (z: its no_load cell, for Ratio) with k
 * measured, where every run is of one recorded boot; else 0. */
size_t	cmp_sessions_of_boot(const struct rcell *c, const struct rcell *z,
	    const struct column *k);
/* t as the two-level model (lib/reml.h) has b against a, where their
 * runs record their boots (one side's may not: one boot), none shared,
 * and three or more between them: 1, else 0 (t as it was). */
int	cmp_boot_pair(struct cmptest *t, const struct rcell *a,
	    const struct rcell *b, const struct rcell *za, const struct rcell *zb,
	    const struct column *);
/* Time (k's FIG_WALL) or Ratio (z: c's row's no_load cell) of cell c as
 * the mean of its boots' and its CI95 half-width, its boots the samples:
 * 1, or 0 where its runs span fewer than two boots (nothing set). */
int	cmp_boot_point(const struct column *k, const struct rcell *c,
	    const struct rcell *z, double *mean, double *ci95);
/* t made over boots where the runs span them: the two-level model over
 * the two labels' boots (cmp_boot_pair), a side in one boot given the
 * other's boot-to-boot spread; one boot each, the model over sp[0]'s
 * boots too where it has them, else noted (t->boot_note); older runs
 * that record no boot, beside runs that do, are one boot.  Both labels
 * in one boot, no session in common: the same over their sessions
 * (t->by_session), sp[1]'s sessions of one boot lending theirs. */
void	cmp_boots(struct cmptest *t, const struct rcell *a, const struct rcell *b,
	    const struct rcell *za, const struct rcell *zb, const struct column *,
	    const char *la, const char *lb, const struct bootspread sp[2]);

/*
 * The test of figure fig (a CF_ index) between cells a and b (za, zb:
 * their no_load cells, which Ratio needs; sa, sb: the runs' values
 * Welch's test compares): paired over the rounds of one session both
 * ran, where two or more did, else unpaired; kind CT_NONE: untested.
 */
void	cmp_test(struct cmptest *, const struct rcell *a, const struct rcell *b,
	    const struct rcell *za, const struct rcell *zb, const struct column *,
	    const struct stats *sa, const struct stats *sb);
/* The change in percent and its two-sided 1 - alpha interval; NaN: untested. */
void	cmp_interval(const struct cmptest *, double alpha, double *est,
	    double *lo, double *hi);
/* The change, in percent, that a gate at two-sided alpha and a threshold
 * of thr_pct in the worse direction reports with the given power
 * (thr_pct 0: the test's own, MinDetect); NaN: untested. */
double	cmp_detect(const struct cmptest *, double alpha, double thr_pct,
	    int worse, double power);

struct cmpval {
	double		 v, pct;	/* the figure; its change against the baseline */
	double		 p, padj;	/* the test; Holm-adjusted (gated tests
					 * only); NaN: not tested */
	struct cmptest	 t;
	/* the test's own change and its 1 - alpha interval, in percent */
	double		 est_pct, lo_pct, hi_pct;
	/* MinDetect: the change its test finds with CMP_POWER at the
	 * table's alpha (alpha / gated tests under Holm), from the runs' own
	 * spread, in percent of the baseline; NaN: not tested */
	double		 mde_pct;
	/* the change the gate (the threshold and the test together)
	 * reports as a regression with CMP_POWER */
	double		 gate_pct;
	int		 sig, gated, worse;	/* worse: a regression */
	enum cmp_verdict verdict;	/* gated figures; CV_NONE otherwise */
	/* one boot a side, no boot spread known: what the runs alone said
	 * (the verdict is can't tell); CV_NONE otherwise */
	enum cmp_verdict runs_said;
};

/* One load (and sweep value): a cell per label, NULL where it never ran. */
struct cmpgroup {
	size_t		 blk;
	const char	*sweep;
	const struct rcell **cell;
	const struct rcell **zero;	/* each label's no_load cell, or NULL */
	size_t		 nran;		/* labels with successful runs */
	int		 shown[CMP_MAXFIG];	/* some label has the figure */
	struct cmpval	*val;		/* [figure * ncol + label] */
};

struct cmpcol {
	const char	*label;
	size_t		*rows, nrows;	/* one per sweep value */
	size_t		 regressed, compared;	/* loads */
	/* loads with a failed run under it, and their runs: failed, all */
	size_t		 failed, failed_runs, failed_of;
	/* loads it ran whose every baseline run failed, and loads the
	 * baseline ran that it has no measured run of (never run, or only a
	 * warmup): nothing to compare, each can't tell */
	size_t		 base_failed, not_run;
	size_t		 nverdict[CV_N];	/* gated figures by verdict */
	enum cmp_verdict verdict;
	/* the largest change the gate reports with CMP_POWER among its
	 * gated figures (a size: a fall where lower is worse), which and
	 * where; NaN: none tested */
	double		 gate_pct;
	int		 gate_fig;
	size_t		 gate_g;
	/* its tests: paired (over how many rounds, least and most), unpaired */
	size_t		 npaired, pairs_min, pairs_max, nunpaired;
	/* and of them over boots (cmptest.boots, the fewest a side), in one
	 * boot a side with no spread known, widened by whose spread, and
	 * with one side's boots unrecorded, and read by Welch's over boot
	 * means */
	size_t		 nboots, boots[2], noneboot, nwidened, nunrecorded, nwelch;
	/* of those, over sessions of one boot, and one session each */
	size_t		 nsession, nonesession;
	const char	*widened_label;
	size_t		 widened_boots;
};

struct cmpopt {
	double		 threshold, alpha;	/* percent; significance level */
	int		 holm;
	unsigned	 gate;
	unsigned	 looks;		/* a loop's looks: each at alpha / looks */
	const char	*gate_names;	/* --gate as given: its job metrics */
	int		 gate_set;	/* --gate given; else every job metric is
					 * gated beside CMP_GATE_DEFAULT's */
	/* every label's results (pairs kept), where an A/A's boot spread is
	 * looked for when a label is in one boot; NULL: the compared ones' */
	const struct rset *aa;
	/* labels in one boot compared over their runs, not their sessions
	 * (bisect: its rule places a candidate between GOOD and BAD, each
	 * drifted alike, and bench/bisect measures it under a night's drift) */
	int		 runs_in_boot;
};

struct cmp {
	const struct rset *rs;
	const struct rset *aa;		/* cmpopt.aa */
	struct cmpcol	*col;		/* [0]: the baseline */
	size_t		 ncol;
	struct cmpgroup	*g;
	size_t		 ng;
	double		 threshold, alpha;	/* alpha: per look */
	unsigned	 looks;
	int		 holm, runs_in_boot;
	unsigned	 gate;
	/* candidates that regressed or failed; gated figures (and loads
	 * whose baseline failed) that can't tell */
	size_t		 regressed, failed, cant_tell;
	size_t		 ntests, family;	/* every test; the gated ones */
	size_t		*rowbuf;
};

/* What a candidate's tests rest on, of boots: ", over 3 and 3 boots",
 * "; one boot each: ..." (nothing where none says). */
void	cmp_boots_how(char *buf, size_t len, const struct cmpcol *);
/* The compare legend's line on boots, where any test rested on them. */
void	cmp_boots_legend(FILE *, const struct cmp *, const char *li);

/* 0, or -1 after a message (a label with no rows, or an ambiguous one). */
int	cmp_build(struct cmp *, const struct rset *, char *const *labels,
	    size_t nlabels, const struct cmpopt *);
void	cmp_free(struct cmp *);

/*
 * contest bisect: CAND against GOOD and against BAD in every gated figure
 * the step from GOOD to BAD made worse (significantly): 0 where each
 * looks good (significantly better than BAD, not worse than GOOD), 1
 * where each looks bad (the other way), 125 otherwise, 2 where there is
 * no step; a line per figure and the call to f.
 */
int	bisect_decide(FILE *, const struct rset *, char *good, char *bad,
	    char *cand, const struct cmpopt *);
/* The gated figures the step from good to bad moved; 0 after a message
 * saying why none, -1 after one (a label with no results, or an
 * ambiguous one). */
long	bisect_step(const struct rset *, char *good, char *bad,
	    const struct cmpopt *);

/* Whether candidate k of group g ran it with a failed run; whether it ran
 * it where the baseline did too, and failed every run (one that never ran
 * it is named as missing). */
static inline int
cmp_load_failed(const struct cmpgroup *g, size_t k)
{
	return g->cell[k] && g->cell[k]->failed > 0;
}

static inline int
cmp_base_failed(const struct cmpgroup *g, size_t k)
{
	return g->cell[k] && g->cell[k]->ok && g->cell[0] && !g->cell[0]->ok;
}

/* A load the baseline ran and candidate k has no measured run of: a
 * kernel that panics under it writes no line, and one whose warmup
 * failed none past it.  Not a pass (a failed run would fail it). */
static inline int
cmp_not_run(const struct cmpgroup *g, size_t k)
{
	return k > 0 && g->cell[0] && g->cell[0]->ok &&
	    !(g->cell[k] && (g->cell[k]->ok || g->cell[k]->failed));
}

/* "fork_load" or "fork_load j=2". */
const char *cmp_group_name(char *buf, size_t len, const struct cmp *,
	    const struct cmpgroup *);

/*
 * contest history: per host, command, load and figure, the labels in the
 * order their runs began, a point each (the figure's mean, CI95 and
 * runs), and the series' change points (cpoint.h), each with its change
 * in % and the verdict cmp_rule gives it.
 */
struct hpoint {
	size_t		 row;
	double		 mean, ci95;	/* ci95 NaN: none (one run) */
	size_t		 n;
};
struct hseries {
	const struct rrow *first;	/* its host and command */
	size_t		 blk;
	int		 fig;		/* a cmp_figs[] row */
	struct hpoint	*pt;
	size_t		 npt;
	struct cpoint	*cp;
	size_t		 ncp;
	/* the newest nights (fewer than CPOINT_MIN) when they differ from
	 * the segment before them, which the minimum cannot place as a
	 * change yet; their test in nc (at: the first of them); 0: none */
	size_t		 newest;
	struct cpoint	 nc;
};
struct history {
	const struct rset *rs;
	struct hseries	*s;
	size_t		 n;
	double		 threshold;	/* percent */
	size_t		 last;		/* each series' newest points; 0: all */
	size_t		 changes, regressions;
	size_t		 worse;		/* series whose newest change regressed */
	/* series whose newest nights differ, and of those, worse beyond the
	 * threshold (exit 3 where nothing ends worse) */
	size_t		 newest, newest_worse;
};
/* figs: CMP_GATE() bits of the figures wanted; last: the newest points
 * of each series kept (0: all). */
void	history_build(struct history *, const struct rset *, unsigned figs,
	    double threshold, size_t last);
/* The newest nights of s (x: its points' means) where they differ from
 * the nights before them: s->newest and s->nc set, and a change point
 * they pinned dropped or judged without them (history_newest.c). */
void	history_newest_nights(struct hseries *s, const double *x);
/* Whether series s's newest change point is a regression: it ends worse
 * than it was (the nightly gate). */
int	history_ends_worse(const struct history *, const struct hseries *);
void	history_free(struct history *);
/* Series s's newest nights against the segment before them: the verdict
 * of cmp_rule on their change, in % of that segment's mean. */
enum cmp_verdict history_newest_verdict(const struct history *,
	    const struct hseries *, double *pct, double *lo, double *hi);
/* "the newest night differs: n30 +15.00% (CI95 ...) against n25..n29,
 * p=...: can't place it yet", its own line in text and md. */
void	history_newest_text(FILE *, const struct history *, const struct hseries *,
	    int md);
/* Figure fig (a cmp_figs[] row) of row in block blk as a point; 0 where
 * the cell has none. */
int	history_point(const struct rset *, size_t row, size_t blk, int fig,
	    struct hpoint *);
/* Per regression, the block a kernel test robot mails (text or md): the
 * headline, base and new segments' mean, %stddev and %change of every
 * tested figure of that load (* where it moved too), and what differed
 * between the labels either side. */
void	history_robot(FILE *, const struct history *, int md);
/* The block of series i's change point c, a regression. */
void	history_robot_block(FILE *, const struct history *, size_t i, size_t c,
	    int md);
/* Whether a regression of the same load and series at the same night
 * came before series i's change point c (its block has every figure),
 * and which: series *j, change *d. */
int	history_robot_shown(const struct history *, size_t i, size_t c, size_t *j,
	    size_t *d);
/* The verdict of series s's change point k; its change in % into pct
 * (lo..hi its CI95), relative to the mean before it. */
enum cmp_verdict history_verdict(const struct history *, const struct hseries *,
	    size_t k, double *pct, double *lo, double *hi);
void	history_text(FILE *, const struct history *, int md);
void	history_csv(FILE *, const struct history *);
void	history_json(FILE *, const struct history *);
/* A test case per series, failed where it ends worse. */
void	history_junit(FILE *, const struct history *);
/* LAVA's lines: "history-HOST-LOAD-FIGURE pass", or "fail PCT percent"
 * where the series ends worse (its newest change). */
void	history_lava(FILE *, const struct history *);

/* contest report --html: the nights as a static site in dir (site.c),
 * its histories h of rs; f and sort: the report's, for each night's
 * page.  0, or -1 after a message. */
int	report_site(const char *dir, const struct rset *rs, const struct history *h,
	    const struct rfilter *f, const struct cmpopt *o, enum rsort sort);

void	report_text(FILE *, const struct rset *, int stats, int md);
/* Name on stderr the runs that may have done no work; how many. */
int	report_warn_suspects(const struct rset *);
void	report_csv(FILE *, const struct rset *);
void	report_json(FILE *, const struct rset *);
struct json;
/* j's text and a newline to f, j freed; out of memory: exit 1. */
void	report_json_emit(FILE *, struct json *);
/* LAVA's "TEST_CASE_ID RESULT MEASUREMENT UNITS" lines. */
void	report_lava(FILE *, const struct rset *);
/* The chart (series: the runs' per-second samples instead); 0, or -1
 * after a message. */
int	report_svg(const char *path, const struct rset *, int series);
/* path written by drawfn(f, arg) beside it and renamed over it (a reader
 * never sees half a chart or page); 0, or -1 after a message. */
int	file_replace(const char *path, void (*drawfn)(FILE *, const void *),
	    const void *arg);
/* history's chart: a panel per series, each label's mean with its CI95,
 * the change points marked; 0, or -1 after a message. */
int	history_svg(const char *path, const struct history *);
/* The charts' style, which a page that inlines them carries. */
extern const char history_svg_css[];
/* Series i's panel as an <svg> to inline in a page, each change point a
 * link to HREF#cp-I-K (href NULL: none). */
void	history_svg_panel(FILE *, const struct history *, size_t i,
	    const char *href);

void	compare_text(FILE *, const struct cmp *, int stats, int md);
void	compare_csv(FILE *, const struct cmp *);
void	compare_json(FILE *, const struct cmp *);
void	compare_junit(FILE *, const struct cmp *);
/* LAVA's lines: one per candidate, load and gated figure, and one per
 * candidate, RESULT pass, fail (a regression) or unknown (can't tell). */
void	compare_lava(FILE *, const struct cmp *);

/* The one-line verdict compare prints last (text and md), and junit
 * names in its failures. */
void	compare_verdict(FILE *, const struct cmp *);

/* What the text formats share: a latency in a fitting unit and the
 * digits its buckets back (report_text.c); the rows' environment and
 * what differs between them, the legend of '?' (report_env.c). */
const char *lat_text(char *buf, size_t len, double ns, int sig);
int	lat_sig(const struct cell_lat *);
void	env_lines(FILE *, const struct rset *, const size_t *rows, size_t nrows,
	    int md);
void	differ_lines(FILE *, const struct rset *, const size_t *rows, size_t nrows,
	    int md);
void	noisy_legend(FILE *, const struct rset *, const char *li, const char *advice);

/* Text with XML's special characters escaped (junit and SVG). */
void	xml_text(FILE *, const char *);

/* Quote a CSV field when it needs it (RFC 4180). */
void	csv_field(FILE *, const char *, int last);

#endif
