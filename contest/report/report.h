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

enum rfmt { RFMT_TEXT, RFMT_CSV, RFMT_JSON, RFMT_MD, RFMT_JUNIT };


#define CMP_ALPHA 0.05	/* a change is significant below this p */

struct cmpline {
	size_t		 blk;
	const struct rcell *a, *b;
	double		 time_pct, ratio_pct, loads_pct;	/* B over A; NaN: none */
	/* the headline counter per second of job time (a gauge: its level) */
	double		 loads_a, loads_b;
	int		 loads_per_s;
	double		 p_wait;		/* Welch's test of Wait%; NaN: not tested */
	int		 wait_rose;	/* B's Wait% significantly higher */
	double		 p_time, p_ratio;			/* NaN: not tested */
	int		 sig_time, sig_ratio;
	int		 worse_time, worse_ratio;	/* beyond the threshold and significant */
};

struct cmp {
	const struct rset *rs;
	size_t		 a, b;		/* rows: baseline, candidate */
	double		 threshold;	/* percent */
	struct cmpline	*line;
	size_t		 n, regressed, untested;
};

void	cmp_build(struct cmp *, const struct rset *, size_t a, size_t b,
	    double threshold);
void	cmp_free(struct cmp *);

void	report_text(FILE *, const struct rset *, int stats, int md);
/* Name on stderr the runs that may have done no work; how many. */
int	report_warn_suspects(const struct rset *);
void	report_csv(FILE *, const struct rset *);
void	report_json(FILE *, const struct rset *);
/* 0, or -1 after a message. */
int	report_svg(const char *path, const struct rset *);

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
