/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The job's own figures (--job-metric): numbers read from what the job
 * printed, by a regular expression with one capture group, or by a
 * preset for the scheduler benchmarks people run as the job (hackbench,
 * perf bench sched messaging, cyclictest, schbench).  A run whose output
 * lacks one has failed, as a job that exits non-zero has.
 */
#ifndef CONTEST_JOBMETRIC_H
#define CONTEST_JOBMETRIC_H

#include <stddef.h>
#include <regex.h>

#include "keys.h"

#define JM_MAX		16
#define JM_REGEX_MAX	256
/* What is scanned of a run's output: its end, where the figures are. */
#define JM_SCAN_MAX	(16u << 20)

/* Which of a run's matches is its figure. */
enum jm_of { JM_LAST, JM_MAXIMUM, JM_MEAN };
extern const char *const jm_of_names[];	/* "last", "max", "mean" */

struct job_metric {
	char		 name[JM_NAME_MAX];
	char		 regex[JM_REGEX_MAX];
	const char	*unit;		/* NULL: none said */
	const char	*preset;	/* the preset it came from, or NULL */
	int		 higher;	/* higher is better (default: lower) */
	enum jm_of	 of;
	int		 lines;		/* ^ $ . by line (REG_NEWLINE) */
	/* a preset's figure that a mode of its program does not print: why
	 * it is absent, the run standing; NULL: absent, the run fails */
	const char	*absent;
	/* what its report follows, the last of it (a redrawn screen's
	 * escape); NULL: the whole output */
	const char	*from;
	int		 compiled;	/* re holds memory jm_free gives back */
	regex_t		 re;
};

struct jm_preset {
	const char	*name, *what;
};
extern const struct jm_preset jm_presets[];	/* NULL-terminated */

/*
 * "NAME[:higher|:lower]=REGEX", or a preset's name: its metrics added
 * to m[*n...] and compiled.  0, or -1 with a one-line reason.
 */
int	jm_parse(const char *arg, struct job_metric *m, size_t *n, char *err,
	    size_t errlen);
/*
 * Each metric's figure from text (len bytes, NUL-terminated): v[i], or
 * NaN with absent[i] its reason where its preset's program may not print
 * it; -1 with the first missing one's reason (or a preset none of whose
 * figures is there).
 */
int	jm_scan(const struct job_metric *m, size_t n, const char *text, size_t len,
	    double *v, const char **absent, char *why, size_t whylen);
/*
 * Where the schbench preset is asked for and the job passes -j FILE (its
 * final figures as JSON; "-": into its output, text), the latencies from
 * it in place of the text's (jobjson.c), FILE relative to dirfd (-1: our
 * directory) and written at or after t0.  0, or -1 with why where the
 * file cannot be read or is not schbench's.
 */
int	jm_json(const struct job_metric *m, size_t n, char *const argv[], int dirfd,
	    double t0, const char *text, double *v, const char **absent, char *why,
	    size_t whylen);
/* Each compiled one of m[0..n) given back; safe to call twice. */
void	jm_free(struct job_metric *m, size_t n);

/*
 * After a run: what the job wrote to cap_fd copied to the end of log_fd
 * (the log keeps every word of it), cap_fd emptied, and the last
 * JM_SCAN_MAX bytes returned NUL-terminated (a NUL in them a newline),
 * their length in *len; NULL with the reason if it cannot be read.
 */
char	*jm_take(int cap_fd, int log_fd, size_t *len, char *why, size_t whylen);

#endif
