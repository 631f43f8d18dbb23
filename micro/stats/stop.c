/* stop.c - the stopping decision of sequential stopping (stop.h). */
#include "stop.h"
#include "looks.h"
#include "orderstats.h"
#include "thresholds.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>

double stop_unloaded(const double *repeat_sorted, size_t n)
{
	double q1 = n > 0 ? stats_quantile(repeat_sorted, n, 0.25) : NAN;

	return q1 > 0 ? q1 : NAN;
}

double stop_relative(double cost, double unloaded)
{
	if (isnan(cost) || !(unloaded > 0))
		return NAN;
	return (unloaded + cost) / unloaded;
}

double stop_floor(double unloaded)
{
	if (isnan(unloaded) || !(unloaded > 0) || FLOOR_SHARE * unloaded < PENALTY_FLOOR_MS)
		return PENALTY_FLOOR_MS;
	return FLOOR_SHARE * unloaded;
}

const char *stop_verdict(double lo, double hi, double unloaded)
{
	double floor_ms = stop_floor(unloaded);

	if (lo > floor_ms)
		return "slowdown";
	if (hi < floor_ms)
		return "none";
	return NULL;
}

const char *stop_certain_pairs(double *d, size_t n, double coverage, double unloaded)
{
	double lo, hi, cov;

	stats_sort(d, n);
	if (n < MIN_PAIRS || stats_median_ci(d, n, coverage, &lo, &hi, &cov) != 0)
		return NULL;
	return stop_verdict(lo, hi, unloaded);
}

/* The differences first - repeat of the n launches' successful pairs
 * (*d, *nd) and their successful repeats (*p, *np), each ascending; the
 * caller frees both. */
static void split_pairs(const double *first, const double *repeat, long n,
			double **d, size_t *nd, double **p, size_t *np)
{
	size_t slots = n > 0 ? (size_t)n : 1;
	long i;

	*d = xmalloc(slots * sizeof **d);
	*p = xmalloc(slots * sizeof **p);
	*nd = *np = 0;
	for (i = 0; i < n; i++) {
		if (!isnan(repeat[i]))
			(*p)[(*np)++] = repeat[i];
		if (!isnan(first[i]) && !isnan(repeat[i]))
			(*d)[(*nd)++] = first[i] - repeat[i];
	}
	stats_sort(*d, *nd);
	stats_sort(*p, *np);
}

const char *stop_certain(const double *first, const double *repeat, long n, double coverage)
{
	double *d, *p;
	size_t nd, np;
	const char *v;

	split_pairs(first, repeat, n, &d, &nd, &p, &np);
	v = stop_certain_pairs(d, nd, coverage, stop_unloaded(p, np));
	free(d);
	free(p);
	return v;
}

int stop_straddles(const double *first, const double *repeat, long n, double coverage)
{
	double *d, *p, lo, hi, cov, floor_ms;
	size_t nd, np;
	int across = 0;

	split_pairs(first, repeat, n, &d, &nd, &p, &np);
	floor_ms = stop_floor(stop_unloaded(p, np));
	if (nd >= MIN_PAIRS && stats_median_ci(d, nd, coverage, &lo, &hi, &cov) == 0)
		across = lo <= floor_ms && hi >= floor_ms;
	free(d);
	free(p);
	return across;
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
			 long block, long blocks, double coverage, int k)
{
	const char *v;

	if (threads > 1 && blocks < SEQ_SHARP_ROUNDS)
		return NULL;
	v = stop_certain(first, repeat, n, coverage);
	if (v && threads > 1 && blocks < SEQ_MIN_ROUNDS &&
	    !(v[0] == 's' && stop_rounds_sharp(first, repeat, n, block, k)))
		v = NULL;
	return v;
}
