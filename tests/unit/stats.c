/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <math.h>

#include "stats.h"
#include "tap.h"

/* A fixed stream of normal draws (xorshift64, Box-Muller). */
static double
gauss(void)
{
	static unsigned long long x = 88172645463325252ULL;
	double u[2];

	for (int i = 0; i < 2; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		u[i] = ((double)(x >> 11) + 0.5) / 9007199254740992.0;
	}
	return sqrt(-2 * log(u[0])) * cos(2 * M_PI * u[1]);
}

/*
 * The gate's 80%-power change against 20,000 simulated comparisons at
 * n = 3, 5 and 10 a side: paired (n differences of sd 1) and Welch's (n
 * runs a side, sd 1 against sd 1 and 3), each with no threshold and a
 * threshold of three standard errors; reported is the estimate beyond
 * the threshold and significant at 0.05.  Within one point of 80%.
 */
static void
gate_simulated(void)
{
	static const int ns[] = { 3, 5, 10 };

	for (size_t k = 0; k < 3; k++)
		for (int kind = 0; kind < 3; kind++)
			for (int t = 0; t < 2; t++) {
				int n = ns[k];
				double sb = kind == 2 ? 3 : 1;
				double var[2] = { kind ? 1.0 / n : 1.0 / n,
				    kind ? sb * sb / n : NAN };
				double df[2] = { n - 1, kind ? n - 1 : NAN };
				double se = sqrt(var[0] + (kind ? var[1] : 0));
				double thr = t ? 3 * se : 0;
				double d = stats_gate_detect(var, df, 0.05, thr, 0.8);
				int hit = 0;
				for (int i = 0; i < 20000; i++) {
					double a[10], b[10];
					struct stats sa, sbs;
					for (int j = 0; j < n; j++) {
						a[j] = kind ? gauss() : d + gauss();
						b[j] = kind ? d + sb * gauss() : 0;
					}
					stats_compute(a, (size_t)n, &sa);
					double tt, dd, p, m;
					if (kind) {
						stats_compute(b, (size_t)n, &sbs);
						p = stats_welch(&sa, &sbs, &tt, &dd);
						m = sbs.mean - sa.mean;
					} else {
						m = sa.mean;
						tt = m / (sa.sd / sqrt(n));
						p = stats_t_pvalue(tt, n - 1);
					}
					hit += m > thr && tt > 0 && p < 0.05;
				}
				is_num(hit / 20000.0, 0.8, 0.01, "gate at its 80%%-power change, "
				    "%s n=%d%s: simulated", kind == 0 ? "paired" :
				    kind == 1 ? "Welch" : "Welch sd 1:3", n,
				    t ? ", threshold 3 se" : "");
			}
}

static void
check_compute(void)
{
	struct stats s;
	static const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

	stats_compute(v, 8, &s);
	ok(s.n == 8, "n");
	is_num(s.mean, 5.0, 1e-12, "mean");
	/* sum of squares 32, n-1 = 7 */
	is_num(s.sd, 2.138089935, 1e-9, "sample sd");
	is_num(s.cv, 2.138089935 / 5, 1e-9, "cv");
	is_num(s.min, 2, 0, "min");
	is_num(s.max, 9, 0, "max");
	is_num(s.median, 4.5, 0, "median of even count");
	is_num(s.ci95, 2.365 * 2.138089935 / sqrt(8), 1e-6, "ci95 uses t(7)");

	static const double odd[] = { 3, 1, 2 };
	stats_compute(odd, 3, &s);
	is_num(s.median, 2, 0, "median of odd count, unsorted input");
	is_num(s.ci95, 4.303 * 1.0 / sqrt(3), 1e-6, "ci95 with t(2)");
	ok(odd[0] == 3 && odd[1] == 1, "input left unsorted");

	static const double one[] = { 7.5 };
	stats_compute(one, 1, &s);
	ok(s.sd == 0 && s.ci95 == 0 && s.median == 7.5, "one sample: no spread");

	stats_compute(NULL, 0, &s);
	ok(s.n == 0 && s.mean == 0, "no samples");
}

static void
check_t95(void)
{
	is_num(stats_t95(1), 12.706, 1e-9, "t(1)");
	is_num(stats_t95(30), 2.042, 1e-9, "t(30)");
	/* past the table, against published two-sided 5% points */
	is_num(stats_t95(31), 2.0395, 1e-3, "t(31)");
	is_num(stats_t95(40), 2.0211, 1e-3, "t(40)");
	is_num(stats_t95(50), 2.0086, 1e-3, "t(50)");
	is_num(stats_t95(60), 2.0003, 1e-3, "t(60)");
	is_num(stats_t95(120), 1.9799, 1e-3, "t(120)");
	is_num(stats_t95(1000), 1.9623, 1e-3, "t(1000) near normal");
	int mono = 1;
	for (size_t df = 1; df < 400; df++)
		if (!(stats_t95(df + 1) < stats_t95(df)))
			mono = 0;
	ok(mono, "t95 falls with every df, across the table's end");
	ok(isinf(stats_t95(0)), "t(0) is infinite");
}

static void
check_ratio(void)
{
	struct stats a = { .n = 3, .mean = 12, .sd = 1.2 };
	struct stats b = { .n = 3, .mean = 10, .sd = 0.5 };
	double sd, r = stats_ratio(&a, &b, &sd);
	is_num(r, 1.2, 1e-12, "ratio of means");
	is_num(sd, 1.2 * sqrt(0.01 + 0.0025), 1e-12, "ratio sd by propagation");
	struct stats z = { .n = 3, .mean = 0 };
	ok(stats_ratio(&a, &z, &sd) == 0 && sd == 0, "ratio over zero is 0, not inf");
	/* Ratio CI95: relative standard errors, Welch-Satterthwaite df. */
	double ua = 1.44 / (3 * 144.0), ub = 0.25 / (3 * 100.0);
	double wdf = (ua + ub) * (ua + ub) / (ua * ua / 2 + ub * ub / 2);
	ok(wdf > 2 && wdf < 3, "ratio df %.3f is between 2 and 3", wdf);
	is_num(stats_ratio_ci95(&a, &b), 4.303 * 1.2 * sqrt(ua + ub), 1e-9,
	    "ratio CI95 uses t at the whole df below (2)");
	struct stats single = { .n = 1, .mean = 10 };
	ok(isnan(stats_ratio_ci95(&a, &single)), "no CI with a single run");
}

static void
check_pvalue(void)
{
	/* Student's t p-values against published tables. */
	is_num(stats_t_pvalue(1, 1), 0.5, 1e-12, "t=1, df=1: p=0.5 (Cauchy)");
	is_num(stats_t_pvalue(12.706, 1), 0.05, 1e-4, "t=12.706, df=1: p=0.05");
	is_num(stats_t_pvalue(2.228, 10), 0.05, 1e-4, "t=2.228, df=10: p=0.05");
	is_num(stats_t_pvalue(-2.228, 10), 0.05, 1e-4, "the sign does not matter");
	is_num(stats_t_pvalue(3.169, 10), 0.01, 1e-4, "t=3.169, df=10: p=0.01");
	is_num(stats_t_pvalue(1.96, 1e6), 0.05, 1e-4, "large df: the normal limit");
	is_num(stats_t_pvalue(0, 5), 1, 1e-12, "t=0: p=1");
	is_num(stats_t_pvalue(2.5, 2.5), 0.10457, 1e-4, "a fractional df (0.10457 by quadrature)");
	ok(isnan(stats_t_pvalue(1, 0)), "df 0 has no p");
}

static void
check_welch(void)
{
	struct stats a = { .n = 3, .mean = 12, .sd = 1.2 };
	struct stats b = { .n = 3, .mean = 10, .sd = 0.5 };
	struct stats single = { .n = 1, .mean = 10 };
	/* Welch: {1..5} against {3..7}: t=2, df=8, p=0.0805. */
	double x[] = { 1, 2, 3, 4, 5 }, y[] = { 3, 4, 5, 6, 7 }, tt, df;
	struct stats sx, sy;
	stats_compute(x, 5, &sx);
	stats_compute(y, 5, &sy);
	is_num(stats_welch(&sx, &sy, &tt, &df), 0.08051, 1e-4, "Welch p");
	is_num(tt, 2, 1e-12, "Welch t is positive when b is larger");
	is_num(df, 8, 1e-12, "equal variances: df = na+nb-2");
	double p = stats_welch(&a, &b, &tt, &df);
	is_num(df, (0.48 + 0.25 / 3) * (0.48 + 0.25 / 3) / (0.48 * 0.48 / 2 +
	    0.25 / 3 * 0.25 / 3 / 2), 1e-9, "unequal variances: Satterthwaite df");
	is_num(p, 0.08593, 1e-4, "12+-1.2 vs 10+-0.5 over 3 runs: p by quadrature");
	struct stats c1 = { .n = 3, .mean = 5 }, c2 = { .n = 3, .mean = 6 };
	ok(stats_welch(&c1, &c2, &tt, &df) == 0 && isinf(tt), "no noise, a difference: p=0");
	ok(stats_welch(&c1, &c1, &tt, &df) == 1, "no noise, no difference: p=1");
	ok(isnan(stats_welch(&c1, &single, &tt, &df)), "no test with a single run");
}

static void
check_se_test(void)
{
	/* Two ratios' standard errors: t 0.3/sqrt(0.02), Welch-Satterthwaite
	 * df (0.02)^2 / (2 * 0.01^2 / 10) = 20; p from t tables 0.04658. */
	double sdf;
	is_num(stats_se_test(1.0, 0.1, 10, 1.3, 0.1, 10, &sdf), 0.046584, 1e-5,
	    "se test p at t 2.1213, df 20");
	is_num(sdf, 20, 1e-9, "se test: Welch-Satterthwaite df");
	/* unequal: va 0.01 (df 4), vb 0.0025 (df 9): df 0.000156/0.0000257 */
	stats_se_test(2.0, 0.1, 4, 2.0, 0.05, 9, &sdf);
	is_num(sdf, 0.0125 * 0.0125 / (1e-4 / 4 + 6.25e-6 / 9), 1e-9,
	    "se test: df of unequal errors");
	ok(isnan(stats_se_test(1.0, NAN, 3, 1.2, 0.1, 3, &sdf)), "se test: no error, no test");
	ok(stats_se_test(1.0, 0, 3, 1.2, 0, 3, &sdf) == 0, "se test: no noise, a difference: p=0");
}

static void
check_percentile(void)
{
	/* Nearest-rank percentiles of 1..1000. */
	static double thousand[1000];
	for (int i = 0; i < 1000; i++)
		thousand[i] = 1000 - i;
	stats_sort(thousand, 1000);
	ok(thousand[0] == 1 && thousand[999] == 1000, "sorted ascending");
	is_num(stats_percentile(thousand, 1000, 0.50), 500, 0, "p50 of 1..1000");
	is_num(stats_percentile(thousand, 1000, 0.99), 990, 0, "p99 of 1..1000");
	is_num(stats_percentile(thousand, 1000, 0.999), 999, 0, "p99.9 of 1..1000");
	is_num(stats_percentile(thousand, 1000, 1.0), 1000, 0, "p100 is the max");
	is_num(stats_percentile(thousand, 1000, 0.0), 1, 0, "p0 is the min");
	double three[] = { 1, 2, 3 };
	is_num(stats_percentile(three, 3, 0.5), 2, 0, "p50 of three: the middle");
	is_num(stats_percentile(three, 3, 0.9), 3, 0, "p90 of three: the top");
	is_num(stats_percentile(three, 0, 0.5), 0, 0, "no samples: 0");
}

static void
check_running(void)
{
	/* Running sums give what the values give, to rounding. */
	static double run[997];
	struct stats whole, inc = { 0 };
	double m2 = 0, worst = 0;
	for (int i = 0; i < 997; i++) {
		run[i] = 1e4 + (double)((i * 7919) % 1000) / 7.0;	/* large mean, small spread */
		stats_add(&inc, &m2, run[i]);
	}
	stats_finish(&inc, m2);
	stats_compute(run, 997, &whole);
	const double pair[][2] = { { inc.mean, whole.mean }, { inc.sd, whole.sd },
	    { inc.cv, whole.cv }, { inc.ci95, whole.ci95 } };
	for (size_t i = 0; i < sizeof pair / sizeof pair[0]; i++)
		if (fabs(pair[i][0] - pair[i][1]) / pair[i][1] > worst)
			worst = fabs(pair[i][0] - pair[i][1]) / pair[i][1];
	ok(inc.n == 997 && inc.min == whole.min && inc.max == whole.max && worst < 1e-12,
	    "running sums: n, min, max exact; mean, sd, cv, ci95 within 1e-12 (worst %.1e)",
	    worst);
	ok(isnan(inc.median), "running sums: no median");

	/* Taking values back out gives what the rest give. */
	struct stats back = inc;
	double m2b = m2;
	for (int i = 0; i < 400; i++)
		stats_remove(&back, &m2b, run[i]);
	stats_finish(&back, m2b);
	stats_compute(run + 400, 597, &whole);
	ok(back.n == 597 && fabs(back.mean - whole.mean) / whole.mean < 1e-12 &&
	    fabs(back.sd - whole.sd) / whole.sd < 1e-9,
	    "stats_remove: 400 of 997 out, mean and sd those of the other 597");
	struct stats lone = { 0 };
	double m2o = 0;
	stats_add(&lone, &m2o, 5);
	stats_remove(&lone, &m2o, 5);
	ok(lone.n == 0 && lone.mean == 0 && m2o == 0, "stats_remove: the last one out leaves nothing");
}

static void
check_power(void)
{
	/* t quantiles: R's qt(0.975, df), qt(0.8, df) */
	is_num(stats_t_inv(0.05, 10), 2.228139, 1e-6, "t(0.975, 10)");
	is_num(stats_t_inv(0.4, 10), 0.8790578, 1e-6, "t(0.8, 10)");
	is_num(stats_t_inv(0.05, 2.5), 3.574655, 1e-5, "t(0.975, 2.5): a fractional df");
	is_num(stats_t_inv(0.05, 1e6), 1.959966, 1e-5, "t(0.975) for a large df: the normal's");
	is_num(stats_t_inv(0.4, 1e6), 0.8416216, 1e-5, "t(0.8) for a large df");
	ok(isnan(stats_t_inv(0.05, 0)) && isnan(stats_t_inv(0, 5)), "t_inv: no df, or p 0: NaN");
	/* R's power.t.test(n = 5, sd = 1, sig.level = 0.05, power = 0.8):
	 * delta 2.024438, by the noncentral t (one variance of df 8) */
	double v8[2] = { 2.0 / 5, NAN }, d8[2] = { 8, NAN };
	is_num(stats_gate_detect(v8, d8, 0.05, 0, 0.8), 2.024438, 2e-3,
	    "gate_detect, no threshold: the noncentral t's power.t.test");
	is_num(stats_gate_power(2.024438, v8, d8, 0.05, 0), 0.8, 1e-4,
	    "gate_power at that delta: 80%%");
	double vn[2] = { NAN, NAN };
	ok(isnan(stats_gate_detect(vn, d8, 0.05, 0, 0.8)), "gate_detect: no variance, no figure");
	double v0[2] = { 0, NAN };
	is_num(stats_gate_detect(v0, d8, 0.05, 3, 0.8), 3, 0, "gate_detect: no noise, the threshold");
	/* a paired test of rounds that all differ alike: a variance far
	 * below a double's spacing at the threshold once hung compare */
	double vt[2] = { 1e-36, NAN };
	is_num(stats_gate_detect(vt, d8, 0.05, 0.05, 0.8), 0.05, 1e-9,
	    "gate_detect: noise below a double's spacing, the threshold (and it ends)");
	gate_simulated();
}

int
main(void)
{
	check_compute();
	check_t95();
	check_ratio();
	check_pvalue();
	check_welch();
	check_se_test();
	check_percentile();
	check_running();
	check_power();
	return tap_done();
}
