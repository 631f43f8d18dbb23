/* sizesummary.h - the sizes of a command's new programs in three numbers
 * (make measure: execwatch's "sizes" line, measure --program-sizes). */
#ifndef EXECLAG_SIZESUMMARY_H
#define EXECLAG_SIZESUMMARY_H

#include <stddef.h>
#include <stdint.h>

/* The n > 0 values of v (below 2^53, as file sizes are; v is left as it
 * was) to their median (stats_median: the mean of the two middle values
 * when n is even, rounded down), their 90th percentile and their largest.
 * The percentile is the nearest rank, the value at rank ceil(0.9 n), not
 * stats_quantile's interpolation: a size some program has, as measure's
 * output has always given it.  All 0 when n is 0. */
void size_summary(const uint64_t *v, size_t n, uint64_t *median, uint64_t *p90, uint64_t *largest);

#endif
