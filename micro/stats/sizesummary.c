/* sizesummary.c - median, nearest-rank 90th percentile and largest of a
 * command's program sizes (sizesummary.h). */
#include "sizesummary.h"
#include "orderstats.h"
#include "util.h"

#include <stdlib.h>

/* The value at rank ceil(pct/100 n) of n > 0 ascending values: the
 * nearest-rank percentile, one of the values itself. */
static double nearest_rank(const double *sorted, size_t n, size_t pct)
{
	size_t r = (n * pct + 99) / 100;

	return sorted[(r ? r : 1) - 1];
}

void size_summary(const uint64_t *v, size_t n, uint64_t *median, uint64_t *p90, uint64_t *largest)
{
	double *d;
	size_t i;

	*median = *p90 = *largest = 0;
	if (n == 0)
		return;
	d = xmalloc(n * sizeof *d);
	for (i = 0; i < n; i++)
		d[i] = (double)v[i];
	stats_sort(d, n);
	*median = (uint64_t)stats_median(d, n);
	*p90 = (uint64_t)nearest_rank(d, n, 90);
	*largest = (uint64_t)d[n - 1];
	free(d);
}
