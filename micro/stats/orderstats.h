/* orderstats.h - order statistics of an ascending array of doubles. */
#ifndef EXECLAG_ORDERSTATS_H
#define EXECLAG_ORDERSTATS_H

#include <stddef.h>

/* Sort v ascending. */
void stats_sort(double *v, size_t n);
/* Order statistics of an ascending array; NAN when n == 0. */
double stats_median(const double *sorted, size_t n);
/* Linear interpolation between order statistics (numpy's default, R type 7). */
double stats_quantile(const double *sorted, size_t n, double q);
/* P(B <= k) for B ~ Binomial(n, 1/2), computed in log space. */
double stats_binom_half_cdf(size_t n, size_t k);
/* Distribution-free interval for the median of an ascending array: the
 * largest k >= 1 with P(B <= k-1) <= (1 - confidence)/2 gives
 * [x_(k), x_(n-k+1)].  Returns 0 and fills low/high/coverage, or -1 when no
 * such k exists (small n). */
int stats_median_ci(const double *sorted, size_t n, double confidence,
		    double *low, double *high, double *coverage);
/* Half the width of that interval; 0 when n is too small for one. */
double stats_median_halfwidth(const double *sorted, size_t n, double confidence);

#endif
