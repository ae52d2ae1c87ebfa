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

enum {
	SUSPECT_SHORT = 1,	/* under 1/5 of the median of its load's others */
	SUSPECT_AFTER = 2,	/* after a first run over 5x the median of the rest */
};

/* One timed run of a session, in the order the session ran them. */
struct srun {
	size_t	 group;		/* its load: runs are compared within one */
	double	 wall;
	int	 measured;	/* 0 for a warmup */
};

/* What was found for one run. */
struct sflag {
	unsigned char	 why;	/* SUSPECT_* bits, 0: not suspect */
	double		 ref;	/* the others' median, or the first run's time */
};

/*
 * Mark the runs of one session.  Measured runs of one group under a
 * fifth of the median of the group's other measured runs are suspect;
 * and when the session's first run (warmups included) took over five
 * times the median of all the rest, every run after it is.  Returns how
 * many measured runs were marked.
 */
size_t	suspect_mark(const struct srun *, size_t n, struct sflag *out);

/* A suspect run as a cell's note names it. */
struct suspect {
	long		 runno;
	double		 wall;
	struct sflag	 flag;
};

/*
 * The note under a block: "BLOCK: ROW: run 2 (0.03 s, ...) may have done
 * no work; ..." naming each run and why.
 */
void	suspect_note(FILE *, const char *block, const char *row,
	    const struct suspect *, size_t n);

#endif
