/* looks.c - sequential stopping: the plan of looks and the stopping rule
 * (looks.h, docs/method.md). */
#include "looks.h"
#include "looksmeta.h"
#include "orderstats.h"
#include "thresholds.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
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

/* What a look before the last spends: 2^(1 - n), at least 1e-9. */
static double early_spend(long n)
{
	double a = n < 1000 ? ldexp(1.0, (int)(1 - n)) : 0.0;

	return a > 1e-9 ? a : 1e-9;
}

double looks_coverage(const long looks[], int k, int i)
{
	double spent = 0.0;
	int j;

	if (k <= 1)
		return CONFIDENCE;
	for (j = 0; j < k - 1; j++)
		spent += early_spend(looks[j]);
	if (spent >= (1.0 - CONFIDENCE) / 2.0)
		return looks_confidence(k);
	if (i < k - 1)
		return 1.0 - early_spend(looks[i]);
	return CONFIDENCE + spent;
}

int looks_extend(long n, long factor, long ext[LOOKS_EXT_MAX])
{
	int k = 0;
	long f;

	for (f = 2; f <= factor && k < LOOKS_EXT_MAX; f++)
		ext[k++] = f * n;
	return k;
}

/* The coverage an interval of n pairs reaches when asked for c. */
static double achieved(long n, double c)
{
	double *zero = calloc((size_t)(n > 0 ? n : 1), sizeof *zero), lo, hi, cov = c;

	if (!zero || stats_median_ci(zero, (size_t)n, c, &lo, &hi, &cov) != 0)
		cov = c;
	free(zero);
	return cov;
}

double looks_coverage_ext(const long looks[], int k, int kp, int i)
{
	double spent = 0.0, last, budget;
	int j;

	if (kp >= k || kp < 1)
		return looks_coverage(looks, k, i);
	for (j = 0; j < kp - 1; j++)
		spent += early_spend(looks[j]);
	if (spent >= (1.0 - CONFIDENCE) / 2.0)
		return looks_coverage(looks, kp, i < kp ? i : kp - 1);
	if (i < kp - 1)
		return 1.0 - early_spend(looks[i]);
	last = CONFIDENCE + spent + SEQ_EXTEND_SHARE;
	if (i == kp - 1)
		return last;
	budget = achieved(looks[kp - 1], last) - last + SEQ_EXTEND_SHARE;
	if (i < k - 1)
		return 1.0 - early_spend(looks[i]);
	for (j = kp; j < k - 1; j++)
		budget -= early_spend(looks[j]);
	return budget > 1e-9 ? 1.0 - budget : 1.0 - 1e-9;
}

double looks_coverage_at(const char *s, long n, int *which)
{
	long v[LOOKS_META_MAX];
	int kp, k = s ? looks_meta_parse(s, v, &kp) : -1, i;

	if (which)
		*which = 0;
	if (k < 1)
		return CONFIDENCE;
	/* Before the maximum, the last look at or below n: launch takes look
	 * i once n reaches it, and a block of T launches may carry n past it
	 * (the full profile's 15 at T = 2 stops at 16).  Where one block
	 * passes several looks (T above the step), this is the latest of
	 * them, whose coverage is the higher: never a narrower interval than
	 * the one that stopped. */
	if (n >= v[k - 1])
		i = k - 1;
	else
		for (i = k - 2; i > 0 && v[i] > n; i--)
			;
	if (which)
		*which = i + 1;
	return looks_coverage_ext(v, k, kp, i);
}

const char *looks_stop_words(const char *stopped)
{
	if (!stopped || strcmp(stopped, "maximum") == 0)
		return "ran to the maximum";
	if (strcmp(stopped, "slowdown") == 0)
		return "stopped: slowdown certain";
	return "stopped: none certain";
}
