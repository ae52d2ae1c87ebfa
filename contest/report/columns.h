/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a report's table shows and what a comparison puts side by side, a
 * row per column, described once beside the figures (figures.h): its
 * header, width and form in text and Markdown, its CSV and LAVA names,
 * which way is worse, its gate, and where its value comes from (a pooled
 * figure, or the cell's own).  report_cols[] is the report's table, in
 * its order, and what csv and lava write; cmp_figs[] is compare's rows,
 * in theirs, and --gate's names.  A new column is a row here; the
 * formats walk the rows.
 */
#ifndef CONTEST_COLUMNS_H
#define CONTEST_COLUMNS_H

#include "figures.h"
#include "rset.h"

#define JM_KEY	40	/* "job_" and a metric's name */

/* How a value prints in text and Markdown. */
enum col_form {
	VF_MEANSD,	/* "12.34±0.56" (md "12.34 ± 0.56"), '?' after a noisy cell */
	VF_RATIO,	/* "1.23±0.04": its CI95; "1.23?" without one */
	VF_PCT,		/* "42%" */
	VF_NUM,		/* dec decimals */
	VF_NUMPCT,	/* the same, a "%" after it in md (text's header has it) */
	VF_LAT,		/* "74.2 us": the digits its buckets back */
	VF_RATE,	/* "123/s", "1.23/s": "/s" where the headline has a rate */
};

/* Where a value comes from. */
enum col_src {
	S_FIG,		/* the pooled figure fig: its mean over its runs */
	S_LOADS,	/* the headline counter, mean per run */
	S_RATE,		/* the mean of the runs' headline rates (levels where none) */
	S_RATIO,	/* Time over the same row's no_load mean */
	S_P99,		/* the probe's p99 over every wake-up of the cell's runs */
	S_P99_RUNS,	/* the mean of the runs' own p99s */
	S_MET,		/* the probe's deadlines met over every deadline */
	S_MET_RUNS,	/* the mean of the runs' own Met% */
	S_P999_RUNS,	/* the mean of the runs' own p99.9s */
	S_PMAX_RUNS,	/* the mean of the runs' own maxima (exact) */
	/* Time's other statistics */
	S_MIN, S_MEDIAN, S_MAX, S_SD, S_COV, S_CI95, S_BAMEAN,
	S_JM,		/* a job metric (--job-metric): fig is its rset.jm index */
};

/* Which report tables show a column (0: csv and lava only). */
#define COL_TABLE	1u	/* always */
#define COL_PROBE	2u	/* where some run of the report had the probe */
#define COL_STATS	4u	/* --stats */

/* How CSV writes a report column: NAME, NAME_mean and NAME_sd, Time's
 * seven statistics as NAME_mean...NAME_ci95, or NAME, NAME_sd, NAME_ci95. */
enum csv_form { CSV_NONE, CSV_MEAN, CSV_MEANSD, CSV_STATS, CSV_RATIO };

struct column {
	const char	*head;		/* the header; compare: the figure */
	const char	*md_head;	/* Markdown's, where it differs */
	const char	*stat;		/* compare: "Amean", "Min"... */
	int		 width;		/* text, with the space before it */
	enum col_form	 form;
	int		 dec;
	unsigned	 shown;		/* COL_ */
	enum col_src	 src;
	int		 fig;		/* S_FIG: a figures.h id */
	int		 not_base;	/* none on the no_load block */
	int		 base_one;	/* 1 on the no_load block by definition:
					 * shown bare, never tested or sent */
	/* report: the CSV name; compare: the figure's name in csv, json and
	 * lava */
	const char	*key;
	enum csv_form	 csv;
	int		 csv_dec;
	double		 scale;		/* csv, json and lava: times this (ns to us) */
	const char	*lava, *lava_unit;	/* report --format lava */
	int		 lava_dec;
	int		 worse;		/* +1: higher is worse, -1: lower; 0: untested */
	const char	*gate;		/* its --gate name, or NULL */
	int		 log;		/* a paired test on the log of it */
};

enum { RC_TIME, RC_CPU, RC_WAIT, RC_LOADS, RC_RATE, RC_LOADP, RC_LCPU,
	RC_RATIO, RC_LAT, RC_MET, RC_COV, RC_MIN, RC_MEDIAN, RC_MAX, RC_CI95,
	RC_N };
extern const struct column report_cols[RC_N];

/* compare's rows, in table order. */
enum { CF_MIN, CF_AMEAN, CF_STDDEV, CF_COV, CF_MAX, CF_BAMEAN, CF_RATIO,
	CF_RATE, CF_WAIT, CF_LAT, CF_MET, CF_LOADP, CF_LAT999, CF_LATMAX, CF_NFIG };
extern const struct column cmp_figs[CF_NFIG];

/* --gate: a figure's bit, from its row */
#define CMP_GATE(cf)	(1u << (cf))

/* "time,ratio" as CMP_GATE() bits; 0: a name that is not one. */
unsigned cmp_gate_parse(const char *);
/* --gate's and --figure's list before the results are read: its names
 * of cmp_figs[] as bits in *bits, *metrics set where other names may be
 * job metrics (cmp_gate_metrics() finds them); -1 where a name can be
 * neither. */
int	cmp_gate_split(const char *, unsigned *bits, int *metrics);
/* "time,ratio,..." of the gated rows, in row order, into buf. */
const char *cmp_gate_list(char *buf, size_t len, unsigned gate);

/* compare's rows for one set of results: cmp_figs[], then a row per job
 * metric its runs have (S_JM; its --gate name is the metric's). */
#define CMP_MAXFIG	(CF_NFIG + RSET_JM)
struct cmpfigs {
	struct column	 f[CMP_MAXFIG];
	char		 key[RSET_JM][JM_KEY];
	int		 n;
};
void	cmp_figs_for(struct cmpfigs *, const struct rset *);
/* Row f of a summarised rset's, and how many. */
static inline const struct column *
cmp_fig(const struct rset *rs, int f)
{
	return &rs->figs->f[f];
}
static inline int
cmp_nfig(const struct rset *rs)
{
	return rs->figs->n;
}
/*
 * Names that are no row of cmp_figs[] ("hackbench,rps": --gate's and
 * --figure's job metrics) as CMP_GATE() bits of figs; 0 with the first
 * unknown name in bad.
 */
unsigned cmp_gate_metrics(const struct cmpfigs *, const char *names, char *bad,
	    size_t badlen);
/* Every job metric's bit. */
unsigned cmp_gate_all_metrics(const struct cmpfigs *);

/* Three digits' decimals for a value of this size: 982, 98.2, 9.82, 0.982. */
static inline int
col_sig_dec(double v)
{
	double a = v < 0 ? -v : v;

	return a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
}

/* A column's value in cell c (NULL: none; base: c is a no_load cell);
 * NaN: none. */
double	col_value(const struct column *, const struct rcell *c, int base);
/* v in the unit csv, json and lava give it. */
static inline double
col_scaled(const struct column *k, double v)
{
	return k->scale ? v * k->scale : v;
}
/* The decimals a series' mean shows (history, its robot's block): the
 * column's own, one for a latency or a rate. */
static inline int
col_mean_dec(const struct column *k)
{
	return k->form == VF_LAT || k->form == VF_RATE ? 1 : k->dec;
}
/* Where in a run's rpair.v[] a paired test of it reads; -1: none (Ratio
 * pairs each side with its own no_load). */
int	col_pv(const struct column *);
/* The runs' values a test of it compares; NULL: none. */
const struct stats *col_runs(const struct column *, const struct rcell *c);

#endif
