/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The two-level model's fit against R's nlme: lme(y ~ label, random =
 * ~1 | boot, method = "REML") on the same runs (the figures below are
 * R 4's, printed to ten digits), at the edges compare meets: one boot
 * against three, one run a boot, two against four, a third label whose
 * boots lend their spread, unequal runs a boot, boots no wider than
 * their runs. */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "reml.h"
#include "tap.h"

struct set {
	size_t	 nb;
	int	 label[8];
	size_t	 n[8];
	double	 y[40];
	double	 est, se, df, within, between;	/* nlme's */
};

static const struct set sets[] = {
/* one boot against three */ { 4, { 0, 1, 1, 1 }, { 5, 5, 5, 5 }, { 0.05665, 0.06167, 0.06449, 0.05891, 0.05914, 0.07127, 0.07397, 0.09434, 0.07601, 0.09961, 0.12168, 0.13740, 0.12312, 0.10951, 0.11537, 0.05974, 0.05825, 0.05691, 0.06291, 0.03598 },
    0.02623266667, 0.03863179315, 2, 0.0001003692, 0.0010992377 },
/* four boots of one run against one of five */ { 5, { 0, 0, 0, 0, 1 }, { 1, 1, 1, 1, 5 }, { 0.04003, 0.02849, -0.03225, -0.01894, 0.05253, 0.04911, 0.04770, 0.06329, 0.04227 },
    0.0466475, 0.0388406844, 3, 6.10145e-05, 0.0011849138 },
/* two against four */ { 6, { 0, 0, 1, 1, 1, 1 }, { 5, 5, 5, 5, 5, 5 }, { -0.00112, 0.00792, -0.01126, -0.00712, -0.01738, -0.01575, 0.00177, -0.00582, -0.01073, -0.00242, 0.04204, 0.04579, 0.05919, 0.04936, 0.04693, 0.00615, 0.00462, -0.00604, 0.00373, 0.00456, 0.07336, 0.06950, 0.07740, 0.07400, 0.07784, 0.09483, 0.09215, 0.07859, 0.08166, 0.07915 },
    0.0589315, 0.02758797518, 4, 4.614598e-05, 0.001005566 },
/* one boot each, a third label's two lending the spread */ { 4, { 0, 1, 2, 2 }, { 5, 5, 5, 5 }, { -0.06244, -0.05808, -0.05476, -0.04981, -0.02496, 0.06032, 0.06057, 0.05634, 0.05235, 0.05716, 0.08657, 0.07176, 0.09549, 0.10598, 0.08316, 0.12093, 0.12703, 0.11283, 0.12975, 0.10317 },
    0.107358, 0.03015, 1, 0.0001283694, 0.0004288374 },
/* three against three, 3 to 6 runs a boot */ { 6, { 0, 0, 0, 1, 1, 1 }, { 4, 5, 6, 5, 3, 5 }, { -0.01465, -0.00795, -0.00727, -0.01394, -0.03214, -0.05127, -0.02532, -0.02500, -0.02683, -0.00066, 0.00819, 0.01005, 0.00972, -0.00529, 0.01904, 0.02378, 0.02257, 0.01579, -0.00280, 0.02845, 0.06888, 0.07795, 0.08599, 0.06553, 0.05052, 0.07539, 0.05926, 0.07332 },
    0.06522453715, 0.02145516979, 4, 9.435815e-05, 0.0006692887 },
/* boots no wider than their runs: no boot variance */ { 5, { 0, 0, 1, 1, 1 }, { 3, 3, 3, 3, 3 }, { 0.00412, 0.01178, -0.00714, 0.00938, 0.00292, 0.01030, 0.04052, 0.05092, 0.05134, 0.04952, 0.04135, 0.05510, 0.03919, 0.04661, 0.06114 },
    0.04318333333, 0.003779966127, 3, 5.143732e-05, 6.14002e-14 },
};

int
main(void)
{
	for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
		const struct set *t = &sets[s];
		struct reml_boot b[8];
		struct reml_fit f;
		size_t at = 0;
		int nl = 0;
		for (size_t j = 0; j < t->nb; j++) {
			double sum = 0, ss = 0;
			for (size_t i = 0; i < t->n[j]; i++)
				sum += t->y[at + i];
			double m = sum / (double)t->n[j];
			for (size_t i = 0; i < t->n[j]; i++)
				ss += (t->y[at + i] - m) * (t->y[at + i] - m);
			at += t->n[j];
			b[j] = (struct reml_boot){ t->label[j], t->n[j], m, ss };
			nl = t->label[j] + 1 > nl ? t->label[j] + 1 : nl;
		}
		ok(reml_fit(b, t->nb, nl, &f) == 0, "set %zu: fitted", s + 1);
		is_num(f.mu[1] - f.mu[0], t->est, 1e-7, "set %zu: the change", s + 1);
		is_num(sqrt(f.var10), t->se, 1e-5 * t->se, "set %zu: its standard error", s + 1);
		is_num(f.df, t->df, 0, "set %zu: its df", s + 1);
		is_num(f.within, t->within, 1e-4 * t->within, "set %zu: the variance within a boot", s + 1);
		is_num(f.between, t->between, 1e-4 * t->between + 1e-9, "set %zu: between boots", s + 1);
	}
	struct reml_boot two[2] = { { 0, 5, 1, 0.1 }, { 1, 5, 2, 0.1 } };
	struct reml_fit f;
	ok(reml_fit(two, 2, 2, &f) == -1, "a boot a label: no df, no fit");
	two[1].label = 0;
	ok(reml_fit(two, 2, 2, &f) == -1, "a label with no boot: no fit");
	return tap_done();
}
