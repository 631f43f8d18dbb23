/* suitestats.c - the suite case in analyze: results files in, the
 * first-launch cost, its share of the fresh pass and the projection out.
 * The method is in docs/method.md ("The suite case"). */
#define _POSIX_C_SOURCE 200809L
#include "suitestats.h"
#include "jsonnum.h"
#include "looks.h"
#include "stop.h"
#include "thresholds.h"
#include "util.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 16

static const char *const pass_names[SP_COUNT] = { "fresh", "rerun", "build", "alone" };
static const char *const pass_titles[SP_COUNT] = {
	"fresh", "re-run", "build", "first runs alone"
};

/* ---- reading ------------------------------------------------------------ */

struct reader {
	const char *path;
	long line;
	struct suite_config *c;
	int have_m, have_jobs, have_cores;
	double *compile_ms[SP_COUNT];
	char *seen[SP_COUNT];
};

static void bad(const struct reader *r, const char *what, const char *value)
{
	die(EXIT_USAGE, "%s:%ld: %s%s%s%s", r->path, r->line, what,
	    value ? " '" : "", value ? value : "", value ? "'" : "");
}

static long num(const struct reader *r, const char *s, long min, long max, const char *what)
{
	long v;

	if (parse_long(s, min, max, &v) != 0)
		bad(r, what, s);
	return v;
}

/* A duration in ns, or "-" for a step that did not happen (NAN). */
static double ns_to_ms(const struct reader *r, const char *s, const char *what)
{
	if (strcmp(s, "-") == 0)
		return NAN;
	return (double)num(r, s, 0, MAX_TIME_NS, what) / 1e6;
}

static int pass_index(const struct reader *r, const char *name)
{
	int p;

	for (p = 0; p < SP_COUNT; p++)
		if (strcmp(name, pass_names[p]) == 0)
			return p;
	bad(r, "unknown pass (want fresh, rerun, build or alone)", name);
	return 0;
}

static void need_fields(const struct reader *r, int got, int want, const char *record)
{
	char what[64];

	if (got != want) {
		snprintf(what, sizeof what, "%s line has %d fields, want %d", record, got, want);
		bad(r, what, NULL);
	}
}

static void read_meta(struct reader *r, char **f, int nf)
{
	struct suite_config *c = r->c;

	need_fields(r, nf, 3, "meta");
	if (strcmp(f[1], "m") == 0) {
		c->m = num(r, f[2], 1, 100000, "bad meta m");
		r->have_m = 1;
	} else if (strcmp(f[1], "jobs") == 0) {
		c->jobs = num(r, f[2], 1, 100000, "bad meta jobs");
		r->have_jobs = 1;
	} else if (strcmp(f[1], "cores") == 0) {
		c->cores = num(r, f[2], 1, 100000, "bad meta cores");
		r->have_cores = 1;
	} else if (strcmp(f[1], "cc") == 0) {
		free(c->cc);
		c->cc = xstrdup(f[2]);
	} else if (strcmp(f[1], "planned") == 0) {
		c->planned = num(r, f[2], 1, 100000, "bad meta planned");
	} else if (strcmp(f[1], "looks") == 0) {
		c->looks = looks_count(f[2]);
		if (c->looks < 0)
			bad(r, "bad meta looks", f[2]);
		free(c->looks_at);
		c->looks_at = xstrdup(f[2]);
	} else if (strcmp(f[1], "stopped") == 0) {
		if (strcmp(f[2], "slowdown") != 0 && strcmp(f[2], "none") != 0 &&
		    strcmp(f[2], "maximum") != 0)
			bad(r, "bad meta stopped (want slowdown, none or maximum)", f[2]);
		free(c->stopped);
		c->stopped = xstrdup(f[2]);
	}
	/* other meta keys are ignored: newer instruments may add some */
}

/* The per-program arrays, once m is known. */
static void allocate(struct reader *r)
{
	struct suite_config *c = r->c;
	int p;
	long i;

	if (!r->have_m)
		bad(r, "a pass or sample before 'meta m'", NULL);
	if (c->run_ms[0])
		return;
	for (p = 0; p < SP_COUNT; p++) {
		c->run_ms[p] = xmalloc(sizeof(double) * (size_t)c->m);
		r->compile_ms[p] = xmalloc(sizeof(double) * (size_t)c->m);
		r->seen[p] = calloc((size_t)c->m, 1);
		if (!r->seen[p])
			die(EXIT_FAIL, "out of memory");
		for (i = 0; i < c->m; i++)
			c->run_ms[p][i] = r->compile_ms[p][i] = NAN;
	}
}

static void read_pass(struct reader *r, char **f, int nf)
{
	struct suite_pass_stats *ps;
	long wall_ns, user_us, sys_us;

	need_fields(r, nf, 6, "pass");
	allocate(r);
	ps = &r->c->pass[pass_index(r, f[1])];
	if (ps->present)
		bad(r, "second pass line for", f[1]);
	wall_ns = num(r, f[2], 0, MAX_TIME_NS, "bad WALL_NS");
	user_us = num(r, f[3], 0, MAX_TIME_US, "bad USER_US");
	sys_us = num(r, f[4], 0, MAX_TIME_US, "bad SYS_US");
	ps->programs = num(r, f[5], 0, 100000000, "bad PROGRAMS");
	ps->wall_ms = (double)wall_ns / 1e6;
	ps->cpu_ms = (double)(user_us + sys_us) / 1e3;
	ps->present = 1;
}

static void read_sample(struct reader *r, char **f, int nf)
{
	struct suite_config *c = r->c;
	double compile, run;
	long idx, exit_status, sig, err;
	int p;

	need_fields(r, nf, 9, "sample");
	allocate(r);
	p = pass_index(r, f[1]);
	num(r, f[2], 0, 100000, "bad JOB");
	idx = num(r, f[3], 0, c->m - 1, "INDEX out of range");
	compile = ns_to_ms(r, f[4], "bad COMPILE_NS");
	run = ns_to_ms(r, f[5], "bad RUN_NS");
	exit_status = num(r, f[6], -1, 255, "bad EXIT");
	sig = num(r, f[7], 0, 1024, "bad SIGNAL");
	err = num(r, f[8], 0, 1000000, "bad ERRNO");
	if (r->seen[p][idx])
		bad(r, "duplicate sample for this pass and index", f[3]);
	r->seen[p][idx] = 1;
	if (!isnan(compile))
		c->pass[p].compile_sum_ms += compile;
	if (!isnan(run))
		c->pass[p].run_sum_ms += run;
	if (exit_status != 0 || sig != 0 || err != 0) {
		c->pass[p].failures++;
		return;
	}
	r->compile_ms[p][idx] = compile;
	c->run_ms[p][idx] = run;
}

/* Median of the values that are not NAN. */
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

static void read_file(const char *path, struct suite_config *c)
{
	struct reader r;
	char *buf = NULL, *line, *f[MAX_FIELDS];
	size_t cap = 0;
	FILE *fp = fopen(path, "r");
	int nf, p;

	if (!fp)
		die(EXIT_USAGE, "%s: cannot open:", path);
	memset(&r, 0, sizeof r);
	memset(c, 0, sizeof *c);
	r.path = path;
	r.c = c;
	c->file = xstrdup(path);
	line = read_line(fp, &buf, &cap);
	r.line = 1;
	nf = line ? split_tabs(line, f, MAX_FIELDS) : 0;
	if (nf != 2 || strcmp(f[0], "execlag-suite") != 0 || strcmp(f[1], "1") != 0)
		bad(&r, "not a suite results file (want 'execlag-suite<TAB>1')", NULL);
	while ((line = read_line(fp, &buf, &cap)) != NULL) {
		r.line++;
		nf = split_tabs(line, f, MAX_FIELDS);
		if (nf == 1 && f[0][0] == '\0')
			continue;
		if (strcmp(f[0], "meta") == 0)
			read_meta(&r, f, nf);
		else if (strcmp(f[0], "pass") == 0)
			read_pass(&r, f, nf);
		else if (strcmp(f[0], "sample") == 0)
			read_sample(&r, f, nf);
		else
			bad(&r, "unknown record", f[0]);
	}
	if (ferror(fp))
		die(EXIT_FAIL, "%s: read error:", path);
	fclose(fp);
	free(buf);
	if (!r.have_m || !r.have_jobs || !r.have_cores)
		bad(&r, "missing 'meta m', 'meta jobs' or 'meta cores'", NULL);
	allocate(&r);
	for (p = 0; p < SP_COUNT; p++) {
		struct suite_pass_stats *ps = &c->pass[p];

		if (!ps->present)
			die(EXIT_USAGE, "%s: no '%s' pass line", path, pass_names[p]);
		ps->utilisation = ps->wall_ms > 0 ? ps->cpu_ms / (ps->wall_ms * (double)c->cores) : NAN;
		ps->median_compile_ms = median_of(r.compile_ms[p], c->m);
		ps->median_run_ms = median_of(c->run_ms[p], c->m);
		free(r.compile_ms[p]);
		free(r.seen[p]);
	}
	if (!c->cc)
		c->cc = xstrdup("?");
}

/* ---- analysis ----------------------------------------------------------- */

/* CONFIDENCE, or for suite --sequential the coverage of the look it
 * ended at (looks_coverage; docs/method.md, "Sequential stopping"). */
static double confidence(const struct suite_config *c)
{
	return c->looks > 0 ? looks_coverage_at(c->looks_at, c->m, NULL) : CONFIDENCE;
}

/* The case's rule (stop_verdict, stats.c): the interval of the per-launch
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

static int has_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), s = strlen(suffix);

	return n > s && strcmp(name + n - s, suffix) == 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char **list_files(const char *raw, size_t *count)
{
	DIR *d = opendir(raw);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;

	*count = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d)) != NULL) {
		if (!has_suffix(e->d_name, SUITE_SUFFIX))
			continue;
		names = xrealloc(names, (n + 1) * sizeof *names);
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof *names, cmp_str);
	*count = n;
	return names;
}

int suite_present(const char *rawdir)
{
	size_t n, i;
	char **names = list_files(rawdir, &n);

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return n > 0;
}

struct suite_result *suite_read(const char *dir)
{
	size_t len = strlen(dir) + 8, n, i;
	char *raw = xmalloc(len), **names;
	struct suite_result *s;

	snprintf(raw, len, "%s/raw", dir);
	names = list_files(raw, &n);
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
		read_file(path, &s->configs[i]);
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
		json_object_set_new(passes, pass_names[p], pass_json(&c->pass[p]));
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
		fprintf(f, "no measurable first-launch cost at this run's noise (the per-launch "
			"interval [%.2f, %.2f] ms includes the %g ms floor), so no projection for "
			"%ld job%s", c->launch.ci_low_ms, c->launch.ci_high_ms, PENALTY_FLOOR_MS,
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
		"the %g ms floor. "
		"The share of the fresh pass is (A_J − R_J) ÷ fresh wall. See docs/method.md.\n\n",
		SUITE_PROJECT_PROGRAMS, PENALTY_FLOOR_MS);
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
