#include "config.h"

#include <stdlib.h>

#include "quantile.h"

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void
stats_sort(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
}

double
stats_percentile(const double *sorted, size_t n, double q)
{
	if (n == 0)
		return 0;
	/* the rank ceil(q * n), 1-based, without ceil(3) */
	double want = q * (double)n;
	size_t rank = (size_t)want;

	if ((double)rank < want - 1e-9)
		rank++;
	return sorted[rank == 0 ? 0 : rank - 1 < n ? rank - 1 : n - 1];
}

double
stats_mean(const double *v, size_t n)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return n ? sum / (double)n : 0;
}
