#include "config.h"

#include "stats.h"
#include "tap.h"

int
main(void)
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

	is_num(stats_t95(1), 12.706, 1e-9, "t(1)");
	is_num(stats_t95(30), 2.042, 1e-9, "t(30)");
	is_num(stats_t95(60), 2.000, 0.002, "t(60) by approximation");
	is_num(stats_t95(1000), 1.962, 0.002, "t(1000) near normal");
	ok(isinf(stats_t95(0)), "t(0) is infinite");

	struct stats a = { .n = 3, .mean = 12, .sd = 1.2 };
	struct stats b = { .n = 3, .mean = 10, .sd = 0.5 };
	double sd, r = stats_ratio(&a, &b, &sd);
	is_num(r, 1.2, 1e-12, "ratio of means");
	is_num(sd, 1.2 * sqrt(0.01 + 0.0025), 1e-12, "ratio sd by propagation");
	struct stats z = { .n = 3, .mean = 0 };
	ok(stats_ratio(&a, &z, &sd) == 0 && sd == 0, "ratio over zero is 0, not inf");
	/* Buckets [0,10) [10,20) [20,40) [40,inf): 50, 40, 9, 1 samples. */
	static const unsigned long long cnt[] = { 50, 40, 9, 1 };
	static const unsigned long long flo[] = { 0, 10, 20, 40 };
	is_num(stats_hist_quantile(cnt, flo, 4, 0.50), 5, 0, "p50 is the first bucket's midpoint");
	is_num(stats_hist_quantile(cnt, flo, 4, 0.51), 15, 0, "p51 falls in the second bucket");
	is_num(stats_hist_quantile(cnt, flo, 4, 0.99), 30, 0, "p99 in the third");
	is_num(stats_hist_quantile(cnt, flo, 4, 1.0), 40, 0, "max: the last bucket's floor");
	static const unsigned long long none[] = { 0, 0, 0, 0 };
	is_num(stats_hist_quantile(none, flo, 4, 0.5), 0, 0, "empty histogram");
	static const unsigned long long gap[] = { 0, 0, 7, 0 };
	is_num(stats_hist_quantile(gap, flo, 4, 0.01), 30, 0, "empty buckets are skipped");
	return tap_done();
}
