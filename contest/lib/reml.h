/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Runs within boots, each label a fixed level: y = mu[label] + boot +
 * run, one boot-to-boot variance for every label and one within a boot,
 * fitted by REML as R's nlme fits lme(y ~ label, random = ~1 | boot).
 */
#ifndef CONTEST_REML_H
#define CONTEST_REML_H

#include <stddef.h>

#define REML_LABELS	3	/* the two compared, and one whose boots lend a spread */

/* One boot: its label (0 .. REML_LABELS - 1), its runs' count, their
 * mean and their sum of squares about it. */
struct reml_boot {
	int	 label;
	size_t	 n;
	double	 mean, ss;
};

struct reml_fit {
	double	 mu[REML_LABELS];	/* each label's level (generalized LS) */
	double	 var10;		/* the variance of mu[1] - mu[0] */
	double	 df;		/* its df: boots less labels (nlme's) */
	double	 within, between;	/* the two variances */
};

/* Fit boots b[0..nb-1] of labels 0 .. nlabel - 1 (each with a boot):
 * 0, or -1 where the boots leave no df (as many as the labels). */
int	reml_fit(const struct reml_boot *b, size_t nb, int nlabel,
	    struct reml_fit *);

#endif
