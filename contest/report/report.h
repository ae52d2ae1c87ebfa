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

/*
 * One row of the classic block, shared by the run's table and the
 * report: "Kernel [runs] Time CPU% Loads LCPU% Ratio", Time and Ratio
 * with their standard deviation; stats adds CoV, min, median, max and
 * the CI95 of Time and of Ratio.  NaN prints as "-".
 */
struct trow {
	const char	*name;
	size_t		 ok, failed;
	const struct stats *time;
	double		 cpu_pct, loads, lcpu_pct;
	double		 ratio, ratio_sd, ratio_ci95;
	char		 mark;		/* after Time: ' ' or '?' */
};

void	table_head(FILE *, int stats);
void	table_line(FILE *, const struct trow *, int stats);

void	report_text(FILE *, const struct rset *, int stats, int md);
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
