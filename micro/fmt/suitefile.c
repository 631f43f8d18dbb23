/* suitefile.c - the one reader of the suite's results files,
 * raw/<name>.suite.tsv (suitefile.h; docs/formats.md). */
#define _POSIX_C_SOURCE 200809L
#include "suitefile.h"
#include "looksmeta.h"
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
	size_t cap;
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
		long m = num(r, f[2], 1, 100000, "bad meta m");

		/* the programs' slots are counted from the first m */
		if (r->seen[0] && m != c->m)
			bad(r, "'meta m' changed after a pass or sample line", f[2]);
		c->m = m;
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

/* Which programs each pass has a sample of, once m is known. */
static void allocate(struct reader *r)
{
	int p;

	if (!r->have_m)
		bad(r, "a pass or sample before 'meta m'", NULL);
	if (r->seen[0])
		return;
	for (p = 0; p < SP_COUNT; p++) {
		r->seen[p] = calloc((size_t)r->c->m, 1);
		if (!r->seen[p])
			die(EXIT_FAIL, "out of memory");
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
	struct suite_sample *s;
	long exit_status, sig, err;
	int p;

	need_fields(r, nf, 9, "sample");
	allocate(r);
	p = pass_index(r, f[1]);
	num(r, f[2], 0, 100000, "bad JOB");
	if (c->n_samples == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		c->samples = xrealloc(c->samples, r->cap * sizeof *c->samples);
	}
	s = &c->samples[c->n_samples];
	s->pass = (enum suite_pass)p;
	s->index = num(r, f[3], 0, c->m - 1, "INDEX out of range");
	s->compile_ms = ns_to_ms(r, f[4], "bad COMPILE_NS");
	s->run_ms = ns_to_ms(r, f[5], "bad RUN_NS");
	exit_status = num(r, f[6], -1, 255, "bad EXIT");
	sig = num(r, f[7], 0, 1024, "bad SIGNAL");
	err = num(r, f[8], 0, 1000000, "bad ERRNO");
	s->failed = exit_status != 0 || sig != 0 || err != 0;
	if (r->seen[p][s->index])
		bad(r, "duplicate sample for this pass and index", f[3]);
	r->seen[p][s->index] = 1;
	c->n_samples++;
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
		if (!c->pass[p].present)
			die(EXIT_USAGE, "%s: no '%s' pass line", path, suite_pass_names[p]);
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
