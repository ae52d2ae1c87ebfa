/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What report and compare print, one file per format: text and md
 * (report_text.c), csv, json, junit and the SVG chart.  The figures come
 * from rset.h; the comparison of two rows is built once (compare.c) and
 * printed by each format.
 */
#ifndef CONTEST_REPORT_H
#define CONTEST_REPORT_H

#include <stdio.h>

#include "rset.h"

enum rfmt { RFMT_TEXT, RFMT_CSV, RFMT_JSON, RFMT_MD, RFMT_JUNIT, RFMT_LAVA };


#define CMP_ALPHA 0.05	/* default: a change is significant below this p */

/* The figures compare puts side by side, in table order. */
enum { CF_MIN, CF_AMEAN, CF_STDDEV, CF_COV, CF_MAX, CF_BAMEAN, CF_RATIO,
	CF_RATE, CF_WAIT, CF_LAT, CF_MET, CF_LOADP, CF_NFIG };

/* --gate: which figures can fail the comparison */
#define CMP_GATE_TIME	1u
#define CMP_GATE_RATIO	2u
#define CMP_GATE_WAIT	4u
#define CMP_GATE_LAT	8u
#define CMP_GATE_LOAD	16u

struct cmp_figdef {
	const char	*stat, *what, *key;	/* "Amean", "Time"; the CSV/JSON name */
	int		 worse;		/* +1: higher is worse, -1: lower; 0: not tested */
	unsigned	 gate;
	int		 fig;		/* the mean of this figure (figures.h), or -1;
					 * then what and worse are the figure's */
};
extern const struct cmp_figdef cmp_figs[CF_NFIG];

/* "time,ratio" as CMP_GATE_ bits; 0: a name that is not one. */
unsigned cmp_gate_parse(const char *);
const char *cmp_gate_name(unsigned bit);

#define CMP_POWER 0.8	/* what the smallest detectable change is for */

struct cmpval {
	double		 v, pct;	/* the figure; its change against the baseline */
	double		 p, padj;	/* the test; Holm-adjusted; NaN: not tested */
	/* the smallest change its test could have found at the table's
	 * alpha (alpha / tests under Holm) with CMP_POWER, from the runs'
	 * own spread, in percent of the baseline; NaN: not tested */
	double		 mde_pct;
	int		 sig, gated, worse;
};

/* One load (and sweep value): a cell per label, NULL where it never ran. */
struct cmpgroup {
	size_t		 blk;
	const char	*sweep;
	const struct rcell **cell;
	size_t		 nran;		/* labels with successful runs */
	int		 shown[CF_NFIG];	/* some label has the figure */
	struct cmpval	*val;		/* [figure * ncol + label] */
};

struct cmpcol {
	const char	*label;
	size_t		*rows, nrows;	/* one per sweep value */
	size_t		 regressed, untested, compared;	/* loads */
	/* the largest smallest-detectable change among its gated figures:
	 * what its verdict could not have seen; NaN: none tested */
	double		 blind_pct;
	int		 blind_fig;
	size_t		 blind_g;
};

struct cmpopt {
	double		 threshold, alpha;	/* percent; significance level */
	int		 holm;
	unsigned	 gate;
	int		 fig;		/* the mean of this figure (figures.h), or -1;
					 * then what and worse are the figure's */
};

struct cmp {
	const struct rset *rs;
	struct cmpcol	*col;		/* [0]: the baseline */
	size_t		 ncol;
	struct cmpgroup	*g;
	size_t		 ng;
	double		 threshold, alpha;
	int		 holm;
	unsigned	 gate;
	size_t		 regressed, ntests;
	size_t		*rowbuf;
};

/* 0, or -1 after a message (a label with no rows, or an ambiguous one). */
int	cmp_build(struct cmp *, const struct rset *, char *const *labels,
	    size_t nlabels, const struct cmpopt *);
void	cmp_free(struct cmp *);

/* "fork_load" or "fork_load j=2". */
const char *cmp_group_name(char *buf, size_t len, const struct cmp *,
	    const struct cmpgroup *);

void	report_text(FILE *, const struct rset *, int stats, int md);
/* Name on stderr the runs that may have done no work; how many. */
int	report_warn_suspects(const struct rset *);
void	report_csv(FILE *, const struct rset *);
void	report_json(FILE *, const struct rset *);
/* LAVA's "TEST_CASE_ID RESULT MEASUREMENT UNITS" lines. */
void	report_lava(FILE *, const struct rset *);
/* The chart (series: the runs' per-second samples instead); 0, or -1
 * after a message. */
int	report_svg(const char *path, const struct rset *, int series);

void	compare_text(FILE *, const struct cmp *, int stats, int md);
void	compare_csv(FILE *, const struct cmp *);
void	compare_json(FILE *, const struct cmp *);
void	compare_junit(FILE *, const struct cmp *);

/* The one-line verdict compare prints last (text and md), and junit
 * names in its failures. */
void	compare_verdict(FILE *, const struct cmp *);

/* Text with XML's special characters escaped (junit and SVG). */
void	xml_text(FILE *, const char *);

/* Quote a CSV field when it needs it (RFC 4180). */
void	csv_field(FILE *, const char *, int last);

#endif
