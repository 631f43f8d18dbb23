/* suitefile.c - the one reader of the suite's results files,
 * raw/<name>.suite.tsv (suitefile.h; docs/formats.md). */
#define _POSIX_C_SOURCE 200809L
#include "suitefile.h"
#include "looks.h"
#include "orderstats.h"
#include "util.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 16

const char *const suite_pass_names[SP_COUNT] = { "fresh", "rerun", "build", "alone" };

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
		if (strcmp(name, suite_pass_names[p]) == 0)
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

void suitefile_read(const char *path, struct suite_config *c)
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
			die(EXIT_USAGE, "%s: no '%s' pass line", path, suite_pass_names[p]);
		ps->utilisation = ps->wall_ms > 0 ? ps->cpu_ms / (ps->wall_ms * (double)c->cores) : NAN;
		ps->median_compile_ms = median_of(r.compile_ms[p], c->m);
		ps->median_run_ms = median_of(c->run_ms[p], c->m);
		free(r.compile_ms[p]);
		free(r.seen[p]);
	}
	if (!c->cc)
		c->cc = xstrdup("?");
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

char **suitefile_list(const char *raw, size_t *count)
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
	char **names = suitefile_list(rawdir, &n);

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return n > 0;
}
