/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The two-level model by restricted maximum likelihood (reml.h).  A
 * boot's runs reach the likelihood through their mean, whose variance
 * is sw2 (gamma + 1/n), and their sum of squares about it, sw2 times a
 * chi-square of n - 1 df; so the fit needs the boots' summaries only.
 * With sw2 profiled out, -2 REML log-likelihood is, up to a constant,
 *   (N - p) log(W + Q) + sum log u_j + sum over labels log S_L
 * where u_j = gamma + 1/n_j, S_L = sum of 1/u_j over L's boots, W the
 * runs' sum of squares within boots and Q the boot means' weighted sum
 * of squares about their labels' generalized least-squares levels.  One
 * parameter, gamma = between / within: searched on log gamma over a
 * grid (a REML profile can have two dips), then by golden section; zero
 * where the boots spread no more than their runs say (nlme stops a hair
 * above it, which moves no printed digit).  The df are nlme's for a
 * factor constant within a boot: boots less labels.
 */
#include "config.h"

#include <math.h>

#include "reml.h"

#define LG_LO	(-23.0)		/* gamma about 1e-10 */
#define LG_HI	16.0		/* about 9e6: the runs' part long negligible */
#define LG_STEP	0.25

struct prof {
	const struct reml_boot	*b;
	size_t			 nb;
	int			 p;
	double			 n, w, centre;
};

/* -2 REML log-likelihood, profiled, at gamma; the levels and the S_L
 * into mu and s where they are given. */
static double
objective(const struct prof *f, double gamma, double *mu, double *s)
{
	double sl[REML_LABELS] = { 0 }, tl[REML_LABELS] = { 0 }, q = 0, lu = 0;

	for (size_t j = 0; j < f->nb; j++) {
		double u = gamma + 1 / (double)f->b[j].n;
		sl[f->b[j].label] += 1 / u;
		tl[f->b[j].label] += (f->b[j].mean - f->centre) / u;
		lu += log(u);
	}
	for (size_t j = 0; j < f->nb; j++) {
		int l = f->b[j].label;
		double d = f->b[j].mean - f->centre - tl[l] / sl[l];
		q += d * d / (gamma + 1 / (double)f->b[j].n);
	}
	double ls = 0;
	for (int l = 0; l < f->p; l++) {
		ls += log(sl[l]);
		if (mu)
			mu[l] = f->centre + tl[l] / sl[l];
		if (s)
			s[l] = sl[l];
	}
	double wq = f->w + q;
	return (f->n - f->p) * log(wq > 0 ? wq : 1e-300) + lu + ls;
}

int
reml_fit(const struct reml_boot *b, size_t nb, int nlabel, struct reml_fit *out)
{
	struct prof f = { b, nb, nlabel, 0, 0, 0 };
	int seen[REML_LABELS] = { 0 };

	if (nlabel < 1 || nlabel > REML_LABELS || nb <= (size_t)nlabel)
		return -1;
	for (size_t j = 0; j < nb; j++) {
		if (b[j].label < 0 || b[j].label >= nlabel || b[j].n == 0)
			return -1;
		seen[b[j].label] = 1;
		f.n += (double)b[j].n;
		f.w += b[j].ss;
		f.centre += b[j].mean / (double)nb;
	}
	for (int l = 0; l < nlabel; l++)
		if (!seen[l])
			return -1;
	/* the grid, gamma = 0 first */
	double best = objective(&f, 0, NULL, NULL), lg = -INFINITY;
	for (double x = LG_LO; x <= LG_HI; x += LG_STEP) {
		double v = objective(&f, exp(x), NULL, NULL);
		if (v < best)
			best = v, lg = x;
	}
	if (isfinite(lg)) {	/* golden section about the grid's best */
		const double r = (sqrt(5.0) - 1) / 2;
		double lo = lg - LG_STEP, hi = lg + LG_STEP;
		double x1 = hi - r * (hi - lo), x2 = lo + r * (hi - lo);
		double f1 = objective(&f, exp(x1), NULL, NULL);
		double f2 = objective(&f, exp(x2), NULL, NULL);
		for (int i = 0; i < 60; i++) {
			if (f1 <= f2) {
				hi = x2, x2 = x1, f2 = f1;
				x1 = hi - r * (hi - lo);
				f1 = objective(&f, exp(x1), NULL, NULL);
			} else {
				lo = x1, x1 = x2, f1 = f2;
				x2 = lo + r * (hi - lo);
				f2 = objective(&f, exp(x2), NULL, NULL);
			}
		}
		lg = (lo + hi) / 2;
	}
	double gamma = isfinite(lg) ? exp(lg) : 0, s[REML_LABELS], q = 0;
	objective(&f, gamma, out->mu, s);
	for (size_t j = 0; j < nb; j++) {
		double d = b[j].mean - out->mu[b[j].label];
		q += d * d / (gamma + 1 / (double)b[j].n);
	}
	double s2 = (f.w + q) / (f.n - nlabel);
	out->within = s2;
	out->between = gamma * s2;
	out->var10 = nlabel > 1 ? s2 * (1 / s[0] + 1 / s[1]) : NAN;
	out->df = (double)nb - nlabel;
	return 0;
}
