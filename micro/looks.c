/* looks.c - sequential stopping: the plan of looks and the stopping rule
 * (looks.h, docs/method.md). */
#include "looks.h"
#include "orderstats.h"
#include "thresholds.h"
#include "util.h"

#include <string.h>

int looks_plan(long first, long n, long looks[LOOKS_MAX])
{
	long step, at;
	int k = 0;

	if (first < LOOKS_FIRST)
		first = LOOKS_FIRST;
	step = (n - first + (LOOKS_MAX - 1) - 1) / (LOOKS_MAX - 1);
	if (step < 4)
		step = 4;
	for (at = first; at < n && k < LOOKS_MAX - 1; at += step)
		looks[k++] = at;
	looks[k++] = n;
	return k;
}

double looks_confidence(int k)
{
	return k > 1 ? 1.0 - (1.0 - CONFIDENCE) / k : CONFIDENCE;
}

const char *looks_certain(double *d, size_t n, int k, double ratio)
{
	double lo, hi, cov;

	stats_sort(d, n);
	if (n < MIN_PAIRS || stats_median_ci(d, n, looks_confidence(k), &lo, &hi, &cov) != 0)
		return NULL;
	if (lo > PENALTY_FLOOR_MS && ratio > RATIO_FLOOR)
		return "slowdown";
	if (hi < PENALTY_FLOOR_MS)
		return "none";
	return NULL;
}

int looks_count(const char *s)
{
	long v, last = 0;
	int k = 0;

	while (*s) {
		char num[24];
		size_t len = strcspn(s, ",");

		if (len == 0 || len >= sizeof num || k >= 64)
			return -1;
		memcpy(num, s, len);
		num[len] = '\0';
		if (parse_long(num, 1, 100000000, &v) != 0 || v <= last)
			return -1;
		last = v;
		k++;
		s += len;
		if (*s == ',' && *++s == '\0')
			return -1;
	}
	return k > 0 ? k : -1;
}

const char *looks_stop_words(const char *stopped)
{
	if (!stopped || strcmp(stopped, "maximum") == 0)
		return "ran to the maximum";
	if (strcmp(stopped, "slowdown") == 0)
		return "stopped: slowdown certain";
	return "stopped: none certain";
}
