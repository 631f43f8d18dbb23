/* stop.c - the stopping decision of sequential stopping (stop.h). */
#include "stop.h"
#include "looks.h"
#include "orderstats.h"
#include "thresholds.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>

double stop_relative(double median_d, const double *repeat_sorted, size_t n)
{
	double q1 = n > 0 ? stats_quantile(repeat_sorted, n, 0.25) : NAN;

	if (isnan(median_d) || !(q1 > 0))
		return NAN;
	return (q1 + median_d) / q1;
}

const char *stop_certain_pairs(double *d, size_t n, double coverage, double relative)
{
	double lo, hi, cov;

	stats_sort(d, n);
	if (n < MIN_PAIRS || stats_median_ci(d, n, coverage, &lo, &hi, &cov) != 0)
		return NULL;
	if (lo > PENALTY_FLOOR_MS && relative > RATIO_FLOOR)
		return "slowdown";
	if (hi < PENALTY_FLOOR_MS)
		return "none";
	return NULL;
}

const char *stop_certain(const double *first, const double *repeat, long n, double coverage)
{
	size_t slots = n > 0 ? (size_t)n : 1, nd = 0, np = 0;
	double *d = xmalloc(slots * sizeof *d), *p = xmalloc(slots * sizeof *p);
	const char *v;
	long i;

	for (i = 0; i < n; i++) {
		if (!isnan(repeat[i]))
			p[np++] = repeat[i];
		if (!isnan(first[i]) && !isnan(repeat[i]))
			d[nd++] = first[i] - repeat[i];
	}
	stats_sort(d, nd);
	stats_sort(p, np);
	v = stop_certain_pairs(d, nd, coverage, stop_relative(stats_median(d, nd), p, np));
	free(d);
	free(p);
	return v;
}

int stop_rounds_sharp(const double *first, const double *repeat, long n, long block, int looks)
{
	long rounds = block > 0 ? n / block : 0, j, i;
	double *x = xmalloc((size_t)(rounds > 0 ? rounds : 1) * sizeof *x), lo, hi, cov;
	size_t nx = 0;
	int sharp = 0;

	for (j = 0; j < rounds; j++) {
		double top_first = 0, top_repeat = 0;
		int good = 1;

		for (i = j * block; i < (j + 1) * block && good; i++) {
			good = !isnan(first[i]) && !isnan(repeat[i]);
			if (good && first[i] > top_first)
				top_first = first[i];
			if (good && repeat[i] > top_repeat)
				top_repeat = repeat[i];
		}
		if (good)
			x[nx++] = top_first - top_repeat;
	}
	stats_sort(x, nx);
	if (nx >= MIN_PAIRS && stats_median_ci(x, nx, looks_confidence(looks), &lo, &hi, &cov) == 0)
		sharp = lo > 0 && hi - lo <= SEQ_SHARP * lo;
	free(x);
	return sharp;
}

const char *stop_at_look(const double *first, const double *repeat, long n, int threads,
			 long block, long blocks, const long looks[], int k, int i)
{
	const char *v;

	if (threads > 1 && blocks < SEQ_SHARP_ROUNDS)
		return NULL;
	v = stop_certain(first, repeat, n, looks_coverage(looks, k, i));
	if (v && threads > 1 && blocks < SEQ_MIN_ROUNDS &&
	    !(v[0] == 's' && stop_rounds_sharp(first, repeat, n, block, k)))
		v = NULL;
	return v;
}
