/* suitestats.c - the suite case in analyze: results files in (suitefile.c
 * reads them), each pass's sums and medians, the first-launch cost, its
 * share of the fresh pass and the projection, into the model
 * (suiteresult.h) the writers in micro/report show.  The method is in
 * docs/method.md ("The suite case"). */
#define _POSIX_C_SOURCE 200809L
#include "suitestats.h"
#include "suitefile.h"
#include "looks.h"
#include "stop.h"
#include "thresholds.h"
#include "util.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- analysis ----------------------------------------------------------- */

/* Median of the n values of v that are not NAN. */
static double median_of(const double *v, long n)
{
	double *s = xmalloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
	size_t k = 0;
	long i;
	double m;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			s[k++] = v[i];
	stats_sort(s, k);
	m = stats_median(s, k);
	free(s);
	return m;
}

/* Each pass from its samples, in the file's order: the sums of every
 * compile and run, the failures, and the OK programs' compiles and runs
 * by index (run_ms, kept: the pairs are made of it) with their medians;
 * the CPU's share of the pass. */
static void tally(struct suite_config *c)
{
	double *compile_ms[SP_COUNT];
	size_t i;
	long j;
	int p;

	for (p = 0; p < SP_COUNT; p++) {
		c->run_ms[p] = xmalloc(sizeof(double) * (size_t)c->m);
		compile_ms[p] = xmalloc(sizeof(double) * (size_t)c->m);
		for (j = 0; j < c->m; j++)
			c->run_ms[p][j] = compile_ms[p][j] = NAN;
	}
	for (i = 0; i < c->n_samples; i++) {
		const struct suite_sample *s = &c->samples[i];
		struct suite_pass_stats *ps = &c->pass[s->pass];

		if (!isnan(s->compile_ms))
			ps->compile_sum_ms += s->compile_ms;
		if (!isnan(s->run_ms))
			ps->run_sum_ms += s->run_ms;
		if (s->failed) {
			ps->failures++;
			continue;
		}
		compile_ms[s->pass][s->index] = s->compile_ms;
		c->run_ms[s->pass][s->index] = s->run_ms;
	}
	for (p = 0; p < SP_COUNT; p++) {
		struct suite_pass_stats *ps = &c->pass[p];

		ps->utilisation = ps->wall_ms > 0 ? ps->cpu_ms / (ps->wall_ms * (double)c->cores) : NAN;
		ps->median_compile_ms = median_of(compile_ms[p], c->m);
		ps->median_run_ms = median_of(c->run_ms[p], c->m);
		free(compile_ms[p]);
	}
}

/* CONFIDENCE, or for suite --sequential the coverage of the look it
 * ended at (looks_coverage; docs/method.md, "Sequential stopping"). */
static double confidence(const struct suite_config *c)
{
	return c->looks > 0 ? looks_coverage_at(c->looks_at, c->m, NULL) : CONFIDENCE;
}

/* The case's rule (stop_verdict, penalty.c): the interval of the per-launch
 * cost against stop_floor of an unloaded launch, here the re-runs' lower
 * quartile. */
static void decide(struct suite_config *c)
{
	const struct penalty *pen = &c->launch;
	char floor_says[96];
	const char *v;

	if (c->pairs < MIN_PAIRS || isnan(pen->ci_low_ms)) {
		c->verdict = VERDICT_INCONCLUSIVE;
		snprintf(c->reason, sizeof c->reason,
			 "too few successful pairs (%zu) for a %.4g%% interval", c->pairs,
			 confidence(c) * 100.0);
		return;
	}
	stats_floor_words(c->unloaded_ms, floor_says, sizeof floor_says);
	v = stop_verdict(pen->ci_low_ms, pen->ci_high_ms, c->unloaded_ms);
	if (v && strcmp(v, "slowdown") == 0) {
		c->verdict = VERDICT_SLOWDOWN;
		snprintf(c->reason, sizeof c->reason,
			 "first runs alone slower than re-runs by %.2f ms a launch, "
			 "interval [%.2f, %.2f] ms above %s",
			 pen->median_ms, pen->ci_low_ms, pen->ci_high_ms, floor_says);
	} else if (v) {
		c->verdict = VERDICT_NONE;
		snprintf(c->reason, sizeof c->reason,
			 "no measurable first-launch cost: first runs alone and re-runs "
			 "differ by %.2f ms a launch, interval [%.2f, %.2f] ms below %s",
			 pen->median_ms, pen->ci_low_ms, pen->ci_high_ms, floor_says);
	} else {
		c->verdict = VERDICT_INCONCLUSIVE;
		snprintf(c->reason, sizeof c->reason,
			 "interval [%.2f, %.2f] ms a launch includes %s",
			 pen->ci_low_ms, pen->ci_high_ms, floor_says);
	}
}

/* An unloaded launch: the lower quartile of the re-runs (stop_unloaded),
 * NAN where none ran. */
static double unloaded(const struct suite_config *c)
{
	double *v = xmalloc(sizeof(double) * (size_t)(c->m > 0 ? c->m : 1)), q;
	size_t k = 0;
	long i;

	for (i = 0; i < c->m; i++)
		if (!isnan(c->run_ms[SP_RERUN][i]))
			v[k++] = c->run_ms[SP_RERUN][i];
	stats_sort(v, k);
	q = stop_unloaded(v, k);
	free(v);
	return q;
}

static void analyse(struct suite_config *c)
{
	const struct suite_pass_stats *ps = c->pass;
	double *d = xmalloc(sizeof(double) * (size_t)c->m);
	long i;

	c->cost_ms = ps[SP_ALONE].wall_ms - ps[SP_RERUN].wall_ms;
	c->share = ps[SP_FRESH].wall_ms > 0 ? c->cost_ms / ps[SP_FRESH].wall_ms : NAN;
	c->pairs = 0;
	for (i = 0; i < c->m; i++)
		if (!isnan(c->run_ms[SP_ALONE][i]) && !isnan(c->run_ms[SP_RERUN][i]))
			d[c->pairs++] = c->run_ms[SP_ALONE][i] - c->run_ms[SP_RERUN][i];
	stats_sort(d, c->pairs);
	c->launch.median_ms = stats_median(d, c->pairs);
	if (stats_median_ci(d, c->pairs, confidence(c), &c->launch.ci_low_ms,
			    &c->launch.ci_high_ms, &c->launch.coverage) != 0)
		c->launch.ci_low_ms = c->launch.ci_high_ms = c->launch.coverage = NAN;
	free(d);
	c->unloaded_ms = unloaded(c);
	decide(c);
	if (c->looks > 1) {
		size_t len = strlen(c->reason);
		int which;

		looks_coverage_at(c->looks_at, c->m, &which);
		snprintf(c->reason + len, sizeof c->reason - len,
			 " (a %.4g%% interval: look %d of %d; %ld of %ld programs, %s)",
			 confidence(c) * 100.0, which, c->looks, c->m, c->planned,
			 looks_stop_words(c->stopped));
	}
	c->projection_min = NAN;
	if (c->verdict == VERDICT_SLOWDOWN && c->cost_ms > 0)
		c->projection_min = (double)SUITE_PROJECT_PROGRAMS * c->cost_ms /
				    (double)c->m / 60000.0;
}

static int cmp_config(const void *a, const void *b)
{
	const struct suite_config *x = a, *y = b;

	return (x->jobs > y->jobs) - (x->jobs < y->jobs);
}

struct suite_result *suite_read(const char *dir)
{
	size_t len = strlen(dir) + 8, n, i;
	char *raw = xmalloc(len), **names;
	struct suite_result *s;

	snprintf(raw, len, "%s/raw", dir);
	names = suitefile_list(raw, &n);
	if (n == 0) {
		free(raw);
		return NULL;
	}
	s = xmalloc(sizeof *s);
	s->configs = xmalloc(n * sizeof *s->configs);
	s->n_configs = n;
	s->penalty_ms = NAN;
	for (i = 0; i < n; i++) {
		size_t plen = strlen(raw) + strlen(names[i]) + 2;
		char *path = xmalloc(plen);

		snprintf(path, plen, "%s/%s", raw, names[i]);
		suitefile_read(path, &s->configs[i]);
		tally(&s->configs[i]);
		analyse(&s->configs[i]);
		free(path);
		free(names[i]);
	}
	free(names);
	free(raw);
	qsort(s->configs, n, sizeof *s->configs, cmp_config);
	for (i = 1; i < n; i++)
		if (s->configs[i].jobs == s->configs[i - 1].jobs)
			die(EXIT_USAGE, "%s:1: the suite at J=%ld is also in %s", s->configs[i].file,
			    s->configs[i].jobs, s->configs[i - 1].file);
	/* p only where J = 1 measured a cost: a per-launch penalty printed
	 * beside a verdict of "nothing measurable" would contradict it */
	if (s->configs[0].jobs == 1 && s->configs[0].verdict == VERDICT_SLOWDOWN)
		s->penalty_ms = s->configs[0].cost_ms / (double)s->configs[0].m;
	for (i = 0; i < n; i++) {
		struct suite_config *c = &s->configs[i];

		c->concurrency = c->concurrency_est = NAN;
		if (!isnan(s->penalty_ms) && s->penalty_ms > 0 && c->cost_ms > 0 &&
		    c->verdict == VERDICT_SLOWDOWN)
			c->concurrency_est = (double)c->m * s->penalty_ms / c->cost_ms;
		/* J jobs overlap at least 1 and at most J checks: an estimate
		 * just outside that is noise around the bound, one far outside
		 * is noise in one of the two costs, not an overlap */
		if (c->concurrency_est >= 1.0 / (1.0 + SUITE_OVERLAP_SLACK) &&
		    c->concurrency_est <= (double)c->jobs * (1.0 + SUITE_OVERLAP_SLACK))
			c->concurrency = fmin(fmax(c->concurrency_est, 1.0), (double)c->jobs);
	}
	return s;
}
