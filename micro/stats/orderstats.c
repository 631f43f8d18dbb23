/* orderstats.c - the median, quantiles, and the distribution-free interval
 * for the median (docs/method.md), for analyze and for launch's stopping
 * rule. */
#include "orderstats.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void stats_sort(double *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof *v, cmp_double);
}

double stats_median(const double *sorted, size_t n)
{
	if (n == 0)
		return NAN;
	if (n % 2 == 1)
		return sorted[n / 2];
	return (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
}

double stats_quantile(const double *sorted, size_t n, double q)
{
	double h, frac;
	size_t lo;

	if (n == 0)
		return NAN;
	h = (double)(n - 1) * q;
	lo = (size_t)floor(h);
	if (lo + 1 >= n)
		return sorted[n - 1];
	frac = h - (double)lo;
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

/* ---- the binomial tail behind the interval -------------------------------- */

/* log P(B = i), B ~ Binomial(n, 1/2).  Log space because 2^-n underflows a
 * double from n = 1075 on, and C(n, i) overflows far earlier. */
static double log_binom_half_pmf(size_t n, size_t i)
{
	double dn = (double)n, di = (double)i;

	return lgamma(dn + 1.0) - lgamma(di + 1.0) - lgamma(dn - di + 1.0) -
	       dn * log(2.0);
}

double stats_binom_half_cdf(size_t n, size_t k)
{
	double sum = 0.0;
	size_t i;

	if (k >= n)
		return 1.0;
	for (i = 0; i <= k; i++)
		sum += exp(log_binom_half_pmf(n, i));
	return sum > 1.0 ? 1.0 : sum;
}

int stats_median_ci(const double *sorted, size_t n, double confidence,
		    double *low, double *high, double *coverage)
{
	/* The tail probabilities are exact dyadic fractions; the slack only
	 * absorbs rounding from the log-space sum, never a real difference. */
	double tail = (1.0 - confidence) / 2.0 * (1.0 + 1e-12);
	double cdf = 0.0, best_cdf = 0.0;
	size_t k = 0, j;

	/* P(B <= k-1) grows with k, so walk up until it passes the tail. */
	for (j = 0; j < n / 2; j++) {
		cdf += exp(log_binom_half_pmf(n, j));
		if (cdf > tail)
			break;
		k = j + 1;
		best_cdf = cdf;
	}
	if (k == 0)
		return -1;
	*low = sorted[k - 1];
	*high = sorted[n - k];
	*coverage = 1.0 - 2.0 * best_cdf;
	return 0;
}

double stats_median_halfwidth(const double *sorted, size_t n, double confidence)
{
	double lo, hi, cov;

	if (stats_median_ci(sorted, n, confidence, &lo, &hi, &cov) != 0)
		return 0.0;
	return (hi - lo) / 2.0;
}
