/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Runs that may have done no work.  A job that leaves its work done
 * (a build whose targets are up to date) finishes the second time in
 * milliseconds, and every ratio after it is nonsense; the run's table
 * and the report call such runs out instead of averaging them in.
 */
#ifndef CONTEST_SUSPECT_H
#define CONTEST_SUSPECT_H

#include <stddef.h>
#include <stdio.h>

#define SUSPECT_FACTOR	5	/* how far off a run must be to be suspect */
/* and the time it is held against must be this long: a job of a few
 * milliseconds (true, a cached exec) is five times slower cold than warm
 * without anything being wrong */
#define SUSPECT_MIN_S	0.2

enum {
	SUSPECT_SHORT = 1,	/* under 1/5 of the median of its cell's others */
	SUSPECT_AFTER = 2,	/* after a first measured run over 5x the median
				 * of the measured rest of its cell */
};

/* One timed run of a session, in the order the session ran them. */
struct srun {
	size_t	 cell;		/* its load, sweep values and kernel build:
				 * runs are compared within one */
	size_t	 sweep;		/* its sweep values and kernel build, any
				 * load: what the first run is held against */
	double	 wall;
	int	 measured;	/* 0 for a warmup */
};

/* What was found for one run. */
struct sflag {
	unsigned char	 why;	/* SUSPECT_* bits, 0: not suspect */
	double		 ref;	/* the others' median, or the first run's time */
};

/*
 * Mark the runs of one session.  Measured runs of one cell under a
 * fifth of the median of the cell's other measured runs are suspect;
 * and when the session's first measured run took over five times the
 * median of the measured rest of its own cell (of its sweep values'
 * runs, every load's, where its cell ran once: a load slows the job, it
 * does not speed it up five times), every measured run after it is.  Either way only against a time of
 * SUSPECT_MIN_S or more.  A warmup is never held against the measured
 * runs: taking the cold start is what it is for.  Cells of a sweep are
 * never held against each other: a make -j8 cell may well be five times
 * faster than make -j1.  Returns how many measured runs were marked.
 */
size_t	suspect_mark(const struct srun *, size_t n, struct sflag *out);

/*
 * The session's first run, when it is a warmup that took over five times
 * the median of the measured runs of its sweep values (and SUSPECT_MIN_S
 * or more): its time, with that median in *median; else NaN.  Either a
 * cold start or the job's work done once before the measured runs: a
 * report says so, and never leaves a run out for it.
 */
double	suspect_warmup(const struct srun *, size_t n, double *median);

/* A suspect run as a cell's note names it. */
struct suspect {
	long		 runno;
	double		 wall;
	struct sflag	 flag;
};

/*
 * The note under a block: "BLOCK: ROW: run 2 (0.03 s, ...) may have done
 * no work; ..." naming each run and why, and whether it was left out of
 * the figures or kept in them.
 */
void	suspect_note(FILE *, const char *block, const char *row,
	    const struct suspect *, size_t n, int kept);

#endif
