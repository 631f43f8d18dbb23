/* hfcompare.c - hyperfine's medians against the C harness's.
 *
 * scripts/probe/hfcheck ran, per case, `hyperfine -N --prepare <new file at the
 * same path> --runs K` (every run a first run) and `hyperfine -N --warmup 3
 * --runs K` (repeats), kept the JSON exports as
 * raw/hyperfine-<case>-first.json and -repeat.json, and wrote hyperfine.*
 * lines into conditions.txt. */
#define _POSIX_C_SOURCE 200809L
#include "hfcompare.h"
#include "run.h"
#include "thresholds.h"
#include "conditions.h"
#include "util.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const value_names[HF_NVALUES] = { "first median", "repeat median",
						     "penalty" };

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median (ms) and count of results[0].times (s), and the median's noise
 * (half-width, 0 without times or with too few); falls back on
 * results[0].median when times is absent. */
static double read_export(const char *dir, const char *kase, const char *which, long *runs,
			  double *noise)
{
	char path[4096];
	json_error_t err;
	json_t *root, *res, *times, *med;
	double *v, m;
	size_t i, n;

	snprintf(path, sizeof path, "%s/raw/hyperfine-%s-%s.json", dir, kase, which);
	root = json_load_file(path, 0, &err);
	if (!root)
		die(EXIT_USAGE, "%s:%d: not hyperfine JSON: %s", path, err.line, err.text);
	res = json_array_get(json_object_get(root, "results"), 0);
	if (!json_is_object(res))
		die(EXIT_USAGE, "%s: no results[0] object", path);
	times = json_object_get(res, "times");
	if (json_is_array(times) && json_array_size(times) > 0) {
		n = json_array_size(times);
		v = xmalloc(n * sizeof *v);
		for (i = 0; i < n; i++) {
			json_t *t = json_array_get(times, i);

			/* seconds; the bound is MAX_TIME_NS */
			if (!json_is_number(t) || json_number_value(t) < 0 ||
			    json_number_value(t) > MAX_TIME_NS / 1e9)
				die(EXIT_USAGE, "%s: results[0].times[%zu] is not a time (0 to %g s)",
				    path, i, MAX_TIME_NS / 1e9);
			v[i] = json_number_value(t) * 1000.0;
		}
		qsort(v, n, sizeof *v, cmp_double);
		m = stats_median(v, n);
		*noise = stats_median_halfwidth(v, n, MEDIAN_NOISE_COVERAGE);
		free(v);
		*runs = (long)n;
	} else {
		med = json_object_get(res, "median");
		if (!json_is_number(med))
			die(EXIT_USAGE, "%s: results[0] has neither times nor median", path);
		if (json_number_value(med) < 0 || json_number_value(med) > MAX_TIME_NS / 1e9)
			die(EXIT_USAGE, "%s: results[0].median is not a time (0 to %g s)",
			    path, MAX_TIME_NS / 1e9);
		m = json_number_value(med) * 1000.0;
		*runs = -1;
		*noise = 0.0;
	}
	json_decref(root);
	return m;
}

/* The harness config to compare with: T = 1 class all, else the headline. */
static const struct config *harness_config(const struct run *r, const char *kase)
{
	size_t i, j;

	for (i = 0; i < r->n_cases; i++) {
		const struct case_result *cr = &r->cases[i];

		if (strcmp(cr->name, kase) != 0)
			continue;
		for (j = 0; j < cr->n_configs; j++)
			if (cr->configs[j]->threads == 1 &&
			    strcmp(cr->configs[j]->class_name, "all") == 0)
				return cr->configs[j];
		return cr->headline;
	}
	return NULL;
}

static double tolerance(double harness, double noise)
{
	double rel = HF_TOLERANCE_REL * fabs(harness);

	return (rel > HF_TOLERANCE_MS ? rel : HF_TOLERANCE_MS) + noise;
}

static void compare(struct hf_case *c)
{
	size_t len = 0;
	int k;

	/* above the floor by more than hyperfine's own noise: its penalty is a
	 * difference of two unpaired medians, which a busy minute can part */
	c->penalty_seen = c->hf[HF_PENALTY] - c->hf_noise > PENALTY_FLOOR_MS;
	if (!c->have_harness) {
		c->agree = -1;
		snprintf(c->reason, sizeof c->reason, "the harness did not run this case");
		return;
	}
	c->agree = 1;
	c->reason[0] = '\0';
	for (k = 0; k < HF_NVALUES; k++) {
		double d = c->hf[k] - c->harness[k];

		if (c->incomparable && k != HF_REPEAT)
			continue;
		if (isnan(d)) {
			c->agree = -1;
			snprintf(c->reason, sizeof c->reason, "the harness has no %s to compare",
				 value_names[k]);
			return;
		}
		c->tolerance[k] = tolerance(c->harness[k], c->noise[k]);
		if (fabs(d) > c->tolerance[k]) {
			c->agree = 0;
			len += (size_t)snprintf(c->reason + len, len < sizeof c->reason ?
						sizeof c->reason - len : 0,
						"%s%s differs by %.2f ms (tolerance %.2f ms)",
						len ? "; " : "", value_names[k], d,
						c->tolerance[k]);
			if (len >= sizeof c->reason)
				len = sizeof c->reason - 1;
		}
	}
	if (c->incomparable) {
		if (c->agree)
			snprintf(c->reason, sizeof c->reason,
				 "repeat median within the tolerance (%.2f ms)",
				 c->tolerance[HF_REPEAT]);
		len = strlen(c->reason);
		snprintf(c->reason + len, sizeof c->reason - len,
			 "; first median and penalty not compared: hyperfine's new file has "
			 "the same path and bytes, which a cache keyed by %s (%s) takes for "
			 "a known file", c->incomparable, c->key_source);
		return;
	}
	if (c->agree)
		snprintf(c->reason, sizeof c->reason,
			 "first median, repeat median and penalty each within the tolerance "
			 "(%.2f, %.2f and %.2f ms)", c->tolerance[HF_FIRST],
			 c->tolerance[HF_REPEAT], c->tolerance[HF_PENALTY]);
}

/* The cache key that makes hyperfine's first runs hits: the gate's key on
 * a gate run (the truth), else the key the run's cases point to. */
static const char *incomparable_key(const struct run *r, const char **source)
{
	const char *gate = run_condition(r, "gate.active");
	const char *key;

	if (gate && strcmp(gate, "1") == 0) {
		key = run_condition(r, "gate.key");
		*source = "the gate's key";
	} else {
		key = stats_cache_key_name(r->inference.key);
		*source = "inferred from this run's cases";
	}
	if (key && (strcmp(key, "path") == 0 || strcmp(key, "content") == 0))
		return key;
	return NULL;
}

static char *case_list(const char *list, size_t *n)
{
	char *copy = xstrdup(list ? list : "");

	*n = 0;
	if (*copy) {
		char *p;

		*n = 1;
		for (p = copy; *p; p++)
			if (*p == ',')
				(*n)++;
	}
	return copy;
}

struct hf_result *hf_read(const char *dir, const struct run *r)
{
	const char *status = run_condition(r, "hyperfine.status");
	const char *runs = run_condition(r, "hyperfine.runs");
	struct hf_result *h;
	char *list, *tok, *save = NULL;
	size_t n, i;

	if (!status)
		return NULL;
	h = xmalloc(sizeof *h);
	memset(h, 0, sizeof *h);
	h->status = status;
	h->note = run_condition(r, "hyperfine.note");
	h->version = run_condition(r, "hyperfine.version");
	if (!runs || parse_long(runs, 1, 100000000, &h->runs) != 0)
		h->runs = -1;
	h->agree = -1;
	if (strcmp(status, "done") != 0)
		return h;
	list = case_list(run_condition(r, "hyperfine.cases"), &n);
	h->cases = xmalloc((n ? n : 1) * sizeof *h->cases);
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct hf_case *c = &h->cases[h->n_cases++];
		const struct config *cfg;
		double hw[4];

		memset(c, 0, sizeof *c);
		c->harness[HF_FIRST] = c->harness[HF_REPEAT] = c->harness[HF_PENALTY] = NAN;
		c->tolerance[HF_FIRST] = c->tolerance[HF_REPEAT] = c->tolerance[HF_PENALTY] = NAN;
		c->name = xstrdup(tok);
		if (strchr(tok, '/') || tok[0] == '.')
			die(EXIT_USAGE, "%s/conditions.txt: bad case name '%s' in hyperfine.cases",
			    dir, tok);
		/* half-widths: hyperfine first, repeat; harness first, repeat */
		hw[0] = hw[1] = hw[2] = hw[3] = 0.0;
		c->hf[HF_FIRST] = read_export(dir, tok, "first", &c->runs[0], &hw[0]);
		c->hf[HF_REPEAT] = read_export(dir, tok, "repeat", &c->runs[1], &hw[1]);
		c->hf[HF_PENALTY] = c->hf[HF_FIRST] - c->hf[HF_REPEAT];
		cfg = harness_config(r, tok);
		if (cfg) {
			c->have_harness = 1;
			c->harness_threads = cfg->threads;
			c->harness_class = cfg->class_name;
			c->harness[HF_FIRST] = cfg->pass[PASS_FIRST].median_ms;
			c->harness[HF_REPEAT] = cfg->pass[PASS_REPEAT].median_ms;
			c->harness[HF_PENALTY] = c->harness[HF_FIRST] - c->harness[HF_REPEAT];
			hw[2] = cfg->pass[PASS_FIRST].median_halfwidth_ms;
			hw[3] = cfg->pass[PASS_REPEAT].median_halfwidth_ms;
		}
		/* independent medians: their half-widths add in quadrature */
		c->hf_noise = hypot(hw[0], hw[1]);
		c->noise[HF_FIRST] = hypot(hw[0], hw[2]);
		c->noise[HF_REPEAT] = hypot(hw[1], hw[3]);
		c->noise[HF_PENALTY] = hypot(c->noise[HF_FIRST], c->noise[HF_REPEAT]);
		c->incomparable = incomparable_key(r, &c->key_source);
		compare(c);
	}
	free(list);
	for (i = 0; i < h->n_cases; i++) {
		if (h->cases[i].agree == 0)
			h->agree = 0;
		else if (h->cases[i].agree == 1 && h->agree == -1)
			h->agree = 1;
	}
	return h;
}
