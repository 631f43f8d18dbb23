/* suitestats.c - the suite case in analyze: results files in (suitefile.c
 * reads them), each pass's sums and medians, the first-launch cost, its
 * share of the fresh pass and the projection out.
 * The method is in docs/method.md ("The suite case"). */
#define _POSIX_C_SOURCE 200809L
#include "suitestats.h"
#include "suitefile.h"
#include "jsonnum.h"
#include "looks.h"
#include "stop.h"
#include "thresholds.h"
#include "util.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const pass_titles[SP_COUNT] = {
	"fresh", "re-run", "build", "first runs alone"
};

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

/* ---- run.json ----------------------------------------------------------- */

/* jansson refuses text that is not UTF-8 (CC comes from the environment). */
static json_t *jtext(const char *s)
{
	json_t *j = json_string(s);

	return j ? j : json_string("?");
}

static json_t *pass_json(const struct suite_pass_stats *ps)
{
	json_t *o = json_object();

	json_object_set_new(o, "wall_ms", json_num(ps->wall_ms));
	json_object_set_new(o, "cpu_ms", json_num(ps->cpu_ms));
	json_object_set_new(o, "utilisation", json_num(ps->utilisation));
	json_object_set_new(o, "programs", json_integer(ps->programs));
	json_object_set_new(o, "failures", json_integer((json_int_t)ps->failures));
	json_object_set_new(o, "median_compile_ms", json_num(ps->median_compile_ms));
	json_object_set_new(o, "median_run_ms", json_num(ps->median_run_ms));
	json_object_set_new(o, "compile_sum_ms", json_num(ps->compile_sum_ms));
	json_object_set_new(o, "run_sum_ms", json_num(ps->run_sum_ms));
	return o;
}

static json_t *config_json(const struct suite_config *c)
{
	json_t *o = json_object(), *passes = json_object(), *pen = json_object();
	int p;

	json_object_set_new(o, "jobs", json_integer(c->jobs));
	json_object_set_new(o, "programs", json_integer(c->m));
	json_object_set_new(o, "cores", json_integer(c->cores));
	for (p = 0; p < SP_COUNT; p++)
		json_object_set_new(passes, suite_pass_names[p], pass_json(&c->pass[p]));
	json_object_set_new(o, "passes", passes);
	json_object_set_new(o, "first_launch_cost_ms", json_num(c->cost_ms));
	json_object_set_new(o, "share_of_fresh", json_num(c->share));
	json_object_set_new(o, "pairs", json_integer((json_int_t)c->pairs));
	json_object_set_new(pen, "median", json_num(c->launch.median_ms));
	json_object_set_new(pen, "ci_low", json_num(c->launch.ci_low_ms));
	json_object_set_new(pen, "ci_high", json_num(c->launch.ci_high_ms));
	json_object_set_new(pen, "coverage", json_num(c->launch.coverage));
	json_object_set_new(o, "launch_penalty_ms", pen);
	json_object_set_new(o, "concurrency", json_num(c->concurrency));
	json_object_set_new(o, "verdict", json_string(stats_verdict_name(c->verdict)));
	json_object_set_new(o, "reason", json_string(c->reason));
	json_object_set_new(o, "projection_min", json_num(c->projection_min));
	if (c->looks > 0)
		json_object_set_new(o, "sequential",
				    json_pack("{s:s?, s:I, s:I, s:s?}", "looks", c->looks_at,
					      "planned", (json_int_t)c->planned,
					      "launched", (json_int_t)c->m, "stopped", c->stopped));
	return o;
}

static const char formula_text[] =
	"minutes = N * p / s_J / 60000 = N * (A_J - R_J) / M / 60000, where A_J and R_J are "
	"the wall times (ms) of the first-runs-alone and re-run passes at J jobs, M the "
	"programs per pass, p = (A_1 - R_1) / M the per-launch penalty at J = 1 and "
	"s_J = M * p / (A_J - R_J) the number of first-launch checks overlapped at J jobs; "
	"only where the first-launch cost is measurable";

json_t *suite_json(const struct suite_result *s)
{
	json_t *o, *runs;
	size_t i;

	if (!s)
		return json_null();
	o = json_object();
	runs = json_array();
	json_object_set_new(o, "programs", json_integer(s->configs[0].m));
	json_object_set_new(o, "cc", jtext(s->configs[0].cc));
	json_object_set_new(o, "project_programs", json_integer(SUITE_PROJECT_PROGRAMS));
	json_object_set_new(o, "penalty_per_launch_ms", json_num(s->penalty_ms));
	json_object_set_new(o, "formula", json_string(formula_text));
	for (i = 0; i < s->n_configs; i++)
		json_array_append_new(runs, config_json(&s->configs[i]));
	json_object_set_new(o, "runs", runs);
	return o;
}

/* ---- report.md and terminal --------------------------------------------- */

static const char *sec(double ms, char *buf, size_t len)
{
	if (isnan(ms))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f", ms / 1000.0);
	return buf;
}

static const char *pct(double frac, char *buf, size_t len)
{
	if (isnan(frac))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.0f%%", frac * 100.0);
	return buf;
}

/* "14,000" */
static const char *thousands(long v, char *buf, size_t len)
{
	if (v >= 1000)
		snprintf(buf, len, "%ld,%03ld", v / 1000, v % 1000);
	else
		snprintf(buf, len, "%ld", v);
	return buf;
}

static const char *launch_cell(const struct penalty *p, char *buf, size_t len)
{
	if (isnan(p->median_ms))
		snprintf(buf, len, "-");
	else if (isnan(p->ci_low_ms))
		snprintf(buf, len, "%.2f [no interval]", p->median_ms);
	else
		snprintf(buf, len, "%.2f [%.2f, %.2f]", p->median_ms, p->ci_low_ms, p->ci_high_ms);
	return buf;
}

/* The projection sentence for one J, without a trailing period. */
static void projection_sentence(const struct suite_result *s, const struct suite_config *c,
				FILE *f)
{
	char n[32];

	thousands(SUITE_PROJECT_PROGRAMS, n, sizeof n);
	if (c->verdict == VERDICT_SLOWDOWN && !isnan(c->projection_min)) {
		fprintf(f, "a suite of %s programs at %ld job%s would spend at least %.1f "
			"minutes in first-launch checks", n, c->jobs, c->jobs == 1 ? "" : "s",
			c->projection_min);
		if (!isnan(s->penalty_ms) && !isnan(c->concurrency) &&
		    c->concurrency != c->concurrency_est)
			fprintf(f, " (%s × %.1f ms ÷ %ld; %.0f check%s at once: %.2f measured is "
				"noise around that bound)", n, c->cost_ms, c->m, c->concurrency,
				c->concurrency == 1.0 ? "" : "s", c->concurrency_est);
		else if (!isnan(s->penalty_ms) && !isnan(c->concurrency))
			fprintf(f, " (%s × %.2f ms ÷ %.2f = %s × %.1f ms ÷ %ld)", n, s->penalty_ms,
				c->concurrency, n, c->cost_ms, c->m);
		else if (!isnan(c->concurrency_est))
			fprintf(f, " (%s × %.1f ms ÷ %ld; the overlap is not given: %.2f checks at "
				"once at %ld job%s is outside 1..%ld, noise in one of the costs)", n,
				c->cost_ms, c->m, c->concurrency_est, c->jobs, c->jobs == 1 ? "" : "s",
				c->jobs);
		else
			fprintf(f, " (%s × %.1f ms ÷ %ld)", n, c->cost_ms, c->m);
	} else if (c->verdict == VERDICT_NONE) {
		fprintf(f, "no measurable first-launch cost: a suite of %s programs at %ld "
			"job%s would spend no measurable time in first-launch checks", n, c->jobs,
			c->jobs == 1 ? "" : "s");
	} else if (!isnan(c->launch.ci_low_ms)) {
		char floor_says[96];

		fprintf(f, "no measurable first-launch cost at this run's noise (the per-launch "
			"interval [%.2f, %.2f] ms includes %s), so no projection for "
			"%ld job%s", c->launch.ci_low_ms, c->launch.ci_high_ms,
			stats_floor_words(c->unloaded_ms, floor_says, sizeof floor_says),
			c->jobs, c->jobs == 1 ? "" : "s");
	} else {
		fprintf(f, "no projection for %ld job%s: too few programs ran", c->jobs,
			c->jobs == 1 ? "" : "s");
	}
}

void suite_markdown(const struct suite_result *s, FILE *f)
{
	char a[32], b[32], c3[32], d[32], e[32], g[32], h[32], k[32], l[32], m[64];
	size_t i;
	int p;

	if (!s)
		return;
	fprintf(f, "## Test suite\n\n");
	fprintf(f, "%ld small C programs (each with a nonce), each compiled with `%s` and "
		"run, J at a time. Passes, in the order run: **fresh** (compile + first "
		"run), **build** (compile %ld new programs; not part of the next pass), "
		"**first runs alone** (the new programs' first runs only), **re-run** (the "
		"fresh pass's binaries again). Wall times in seconds; CPU is the pass's CPU "
		"time ÷ (wall × cores).\n\n",
		s->configs[0].m, s->configs[0].cc, s->configs[0].m);
	fputs("| J | fresh s | build s | first runs alone s | re-run s | CPU fresh | "
	      "CPU alone | CPU re-run | first-launch cost s (alone − re-run) | share of "
	      "fresh | alone − re-run a launch, ms [95% CI] | verdict |\n", f);
	fputs("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n", f);
	for (i = 0; i < s->n_configs; i++) {
		const struct suite_config *c = &s->configs[i];

		fprintf(f, "| %ld | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			c->jobs, sec(c->pass[SP_FRESH].wall_ms, a, sizeof a),
			sec(c->pass[SP_BUILD].wall_ms, c3, sizeof c3),
			sec(c->pass[SP_ALONE].wall_ms, d, sizeof d),
			sec(c->pass[SP_RERUN].wall_ms, b, sizeof b),
			pct(c->pass[SP_FRESH].utilisation, e, sizeof e),
			pct(c->pass[SP_ALONE].utilisation, h, sizeof h),
			pct(c->pass[SP_RERUN].utilisation, g, sizeof g),
			sec(c->cost_ms, k, sizeof k),
			c->verdict == VERDICT_NONE ? "none measurable" : pct(c->share, l, sizeof l),
			launch_cell(&c->launch, m, sizeof m), stats_verdict_name(c->verdict));
	}
	fputc('\n', f);
	for (i = 0; i < s->n_configs; i++)
		for (p = 0; p < SP_COUNT; p++)
			if (s->configs[i].pass[p].failures)
				fprintf(f, "- J=%ld %s: %zu program%s did not compile or exit 0\n",
					s->configs[i].jobs, pass_titles[p], s->configs[i].pass[p].failures,
					s->configs[i].pass[p].failures == 1 ? "" : "s");
	fputs("### Projection\n\n", f);
	for (i = 0; i < s->n_configs; i++) {
		fprintf(f, "- J=%ld: ", s->configs[i].jobs);
		projection_sentence(s, &s->configs[i], f);
		fprintf(f, ". Measured: %s.\n", s->configs[i].reason);
	}
	if (!isnan(s->penalty_ms))
		fprintf(f, "\nPer-launch penalty p = (A₁ − R₁) ÷ M = %.2f ms (measured at J = 1).\n",
			s->penalty_ms);
	else if (s->configs[0].jobs == 1)
		fprintf(f, "\nNo per-launch penalty p: at J = 1 the first-launch cost was %s "
			"(%s).\n", s->configs[0].verdict == VERDICT_NONE ? "not measurable" :
			"not shown", stats_verdict_name(s->configs[0].verdict));
	else
		fputs("\nNo per-launch penalty p: the suite was not run at J = 1.\n", f);
	fprintf(f, "\nFormula: X_J = N × p ÷ s_J = N × (A_J − R_J) ÷ M, with N = %ld programs, "
		"A_J and R_J the wall times of the first-runs-alone and re-run passes at J "
		"jobs, M the programs per pass, p = (A₁ − R₁) ÷ M the per-launch penalty at "
		"J = 1 and s_J = M × p ÷ (A_J − R_J) the number of first-launch checks the "
		"machine overlapped at J jobs (1 when they queue on one checker). "
		"It is a lower bound on the wall time those checks take at the measured "
		"overlap, and is given only where the per-launch penalty's interval lies above "
		"the floor every case is held to: %g ms, or %g × an unloaded launch (the re-runs' "
		"lower quartile) where that is more. "
		"The share of the fresh pass is (A_J − R_J) ÷ fresh wall. See docs/method.md.\n\n",
		SUITE_PROJECT_PROGRAMS, PENALTY_FLOOR_MS, FLOOR_SHARE);
}

void suite_print(const struct suite_result *s, FILE *f)
{
	char a[32], b[32], d[32], e[32], g[32], h[32];
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n_configs; i++) {
		const struct suite_config *c = &s->configs[i];

		fprintf(f, "suite J=%ld (M=%ld): fresh %s s, re-run %s s, first runs alone %s s "
			"(CPU %s, %s, %s); ", c->jobs, c->m, sec(c->pass[SP_FRESH].wall_ms, a, sizeof a),
			sec(c->pass[SP_RERUN].wall_ms, b, sizeof b),
			sec(c->pass[SP_ALONE].wall_ms, d, sizeof d),
			pct(c->pass[SP_FRESH].utilisation, e, sizeof e),
			pct(c->pass[SP_RERUN].utilisation, g, sizeof g),
			pct(c->pass[SP_ALONE].utilisation, h, sizeof h));
		projection_sentence(s, c, f);
		fputc('\n', f);
	}
}
