/* samples.c - the samples file's reader (samples.h; docs/formats.md,
 * "Samples"): raw/<name>.samples.tsv, one configuration's launches. */
#define _POSIX_C_SOURCE 200809L
#include "samples.h"
#include "looksmeta.h"
#include "launcherspec.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 16

struct parser {
	const char *path;
	long line;
	struct config *c;
	size_t cap;
	int have_threads, have_n;
	char **sim_launcher; /* samples_read's SIM_LAUNCHER */
};

static long field_long(const struct parser *p, const char *s, long min,
		       long max, const char *what)
{
	long v;

	if (parse_long(s, min, max, &v) != 0)
		die(EXIT_USAGE, "%s:%ld: bad %s '%s' (want an integer in %ld..%ld)",
		    p->path, p->line, what, s, min, max);
	return v;
}

const char *const samples_pass_words[PASS_ALL] = { "first", "repeat", "reference" };

static enum pass field_pass(const struct parser *p, const char *s)
{
	int i;

	for (i = 0; i < PASS_ALL; i++)
		if (strcmp(s, samples_pass_words[i]) == 0)
			return (enum pass)i;
	die(EXIT_USAGE, "%s:%ld: unknown pass '%s' (want first, repeat or reference)",
	    p->path, p->line, s);
	return PASS_FIRST;
}

static void expect_fields(const struct parser *p, int got, int want,
			  const char *record)
{
	if (got != want)
		die(EXIT_USAGE, "%s:%ld: %s line has %d fields, want %d", p->path,
		    p->line, record, got, want);
}

static void set_meta_text(const struct parser *p, char **slot,
			  const char *key, const char *value)
{
	if (value[0] == '\0')
		die(EXIT_USAGE, "%s:%ld: empty meta %s", p->path, p->line, key);
	free(*slot);
	*slot = xstrdup(value);
}

static void parse_meta(struct parser *p, char **f, int nf)
{
	struct config *c = p->c;

	expect_fields(p, nf, 3, "meta");
	if (strcmp(f[1], "case") == 0)
		set_meta_text(p, &c->case_name, f[1], f[2]);
	else if (strcmp(f[1], "kind") == 0)
		set_meta_text(p, &c->kind, f[1], f[2]);
	else if (strcmp(f[1], "class") == 0)
		set_meta_text(p, &c->class_name, f[1], f[2]);
	else if (strcmp(f[1], "threads") == 0) {
		c->threads = field_long(p, f[2], 1, 1000000, "threads");
		p->have_threads = 1;
	} else if (strcmp(f[1], "n") == 0) {
		c->n = field_long(p, f[2], 0, 100000000, "n");
		p->have_n = 1;
	} else if (strcmp(f[1], "cpus") == 0) {
		c->cpus = field_long(p, f[2], 1, 1000000, "cpus");
	} else if (strcmp(f[1], "block") == 0) {
		c->block = field_long(p, f[2], 1, 100000000, "block");
	} else if (strcmp(f[1], "pad") == 0) {
		c->pad = field_long(p, f[2], 0, 1L << 30, "pad");
	} else if (strcmp(f[1], "planned") == 0) {
		c->planned = field_long(p, f[2], 1, 100000000, "planned");
	} else if (strcmp(f[1], "looks") == 0) {
		c->looks = looks_count(f[2]);
		if (c->looks < 0)
			die(EXIT_USAGE, "%s:%ld: bad looks '%s'", p->path, p->line, f[2]);
		set_meta_text(p, &c->looks_at, f[1], f[2]);
	} else if (strcmp(f[1], "stopped") == 0) {
		if (strcmp(f[2], "slowdown") != 0 && strcmp(f[2], "none") != 0 &&
		    strcmp(f[2], "maximum") != 0 && strcmp(f[2], "hang") != 0)
			die(EXIT_USAGE, "%s:%ld: bad stopped '%s' (want slowdown, none, maximum or hang)",
			    p->path, p->line, f[2]);
		set_meta_text(p, &c->stopped, f[1], f[2]);
	} else if (strcmp(f[1], "launcher") == 0) {
		set_meta_text(p, &c->launcher, f[1], f[2]);
		if (!*p->sim_launcher && launcher_is_sim(f[2]))
			*p->sim_launcher = xstrdup(f[2]);
	} else if (strcmp(f[1], "hang_s") == 0) {
		if (parse_double(f[2], 0.1, 3600, &c->hang_s) != 0)
			die(EXIT_USAGE, "%s:%ld: bad hang_s '%s' (want seconds in 0.1..3600)",
			    p->path, p->line, f[2]);
	} else if (strcmp(f[1], "kills") == 0) {
		if (strcmp(f[2], "kept") != 0)
			die(EXIT_USAGE, "%s:%ld: bad kills '%s' (want kept)", p->path, p->line, f[2]);
		c->kills_kept = 1;
	} else if (strcmp(f[1], "idle_first") == 0 || strcmp(f[1], "idle_repeat") == 0) {
		double v;

		if (parse_double(f[2], 0, 1, &v) != 0)
			die(EXIT_USAGE, "%s:%ld: bad %s '%s' (want a fraction in 0..1)",
			    p->path, p->line, f[1], f[2]);
		c->passes[f[1][5] == 'f' ? PASS_FIRST : PASS_REPEAT].idle = v;
	}
	/* Other meta keys are ignored: newer launchers may add some. */
}

static void parse_pass(struct parser *p, char **f, int nf)
{
	enum pass which;
	struct pass_time *pt;
	long wall_ns;

	expect_fields(p, nf, 4, "pass");
	which = field_pass(p, f[1]);
	pt = &p->c->passes[which];
	if (pt->present)
		die(EXIT_USAGE, "%s:%ld: second pass line for '%s'", p->path, p->line, f[1]);
	wall_ns = field_long(p, f[2], 0, MAX_TIME_NS, "WALL_NS");
	pt->launches = field_long(p, f[3], 0, 100000000, "LAUNCHES");
	pt->wall_ms = (double)wall_ns / 1e6;
	pt->launches_per_s = wall_ns > 0 ? (double)pt->launches / ((double)wall_ns / 1e9)
					 : NAN;
	pt->present = 1;
}

static void parse_sample(struct parser *p, char **f, int nf)
{
	struct config *c = p->c;
	struct sample *s;

	/* START_NS, the 9th field, came with the rounds' skew; older files
	 * have 8 */
	if (nf != 9)
		expect_fields(p, nf, 8, "sample");
	if (c->n_samples == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 64;
		c->samples = xrealloc(c->samples, p->cap * sizeof *c->samples);
	}
	s = &c->samples[c->n_samples++];
	/* every field zero first: the realloc'd slot holds whatever was there
	 * (hang, set only by a later hang record, was read uninitialised) */
	memset(s, 0, sizeof *s);
	s->pass = field_pass(p, f[1]);
	s->thread = field_long(p, f[2], 0, 1000000, "THREAD");
	s->index = field_long(p, f[3], 0, 100000000, "INDEX");
	s->dur_ms = (double)field_long(p, f[4], 0, MAX_TIME_NS, "DUR_NS") / 1e6;
	s->exit_status = field_long(p, f[5], -1, 255, "EXIT");
	s->signal = field_long(p, f[6], 0, 1024, "SIGNAL");
	s->spawn_errno = field_long(p, f[7], 0, 1000000, "ERRNO");
	s->start_ms = nf == 9 ? (double)field_long(p, f[8], 0, MAX_TIME_NS, "START_NS") / 1e6 : NAN;
	s->line = p->line;
}

/* hang PASS INDEX PID STATE CPU_S WCHAN killed|unkillable */
static void parse_hang(struct parser *p, char **f, int nf)
{
	struct config *c = p->c;
	struct hang_ev *h;

	expect_fields(p, nf, 8, "hang");
	c->hangs = xrealloc(c->hangs, (c->n_hangs + 1) * sizeof *c->hangs);
	h = &c->hangs[c->n_hangs++];
	memset(h, 0, sizeof *h);
	h->pass = field_pass(p, f[1]);
	h->index = field_long(p, f[2], 0, 100000000, "INDEX");
	h->pid = field_long(p, f[3], 0, 2147483647L, "PID");
	if (!f[4][0] || strlen(f[4]) >= sizeof h->state || !f[6][0] || strlen(f[6]) >= sizeof h->wchan)
		die(EXIT_USAGE, "%s:%ld: bad hang STATE '%s' or WCHAN '%s'", p->path, p->line, f[4], f[6]);
	snprintf(h->state, sizeof h->state, "%s", f[4]);
	snprintf(h->wchan, sizeof h->wchan, "%s", f[6]);
	if (strcmp(f[5], "unknown") == 0)
		h->cpu_s = NAN;
	else if (parse_double(f[5], 0, 1e9, &h->cpu_s) != 0)
		die(EXIT_USAGE, "%s:%ld: bad hang CPU_S '%s' (want seconds or unknown)", p->path,
		    p->line, f[5]);
	if (strcmp(f[7], "killed") != 0 && strcmp(f[7], "unkillable") != 0)
		die(EXIT_USAGE, "%s:%ld: bad hang outcome '%s' (want killed or unkillable)", p->path,
		    p->line, f[7]);
	h->unkillable = f[7][0] == 'u';
}

/* killed PASS INDEX SIGKILL|EPERM: names a sample of its own below
 * (check_samples) */
static void parse_killed(struct parser *p, char **f, int nf)
{
	struct config *c = p->c;
	struct kill_ev *k;

	expect_fields(p, nf, 4, "killed");
	if (strcmp(f[3], "SIGKILL") != 0 && strcmp(f[3], "EPERM") != 0)
		die(EXIT_USAGE, "%s:%ld: bad killed HOW '%s' (want SIGKILL or EPERM)", p->path, p->line,
		    f[3]);
	c->kills = xrealloc(c->kills, (c->n_kills + 1) * sizeof *c->kills);
	k = &c->kills[c->n_kills++];
	memset(k, 0, sizeof *k);
	k->pass = field_pass(p, f[1]);
	k->index = field_long(p, f[2], 0, 100000000, "INDEX");
	k->sigkill = f[3][0] == 'S';
}

static void parse_record(struct parser *p, char *line)
{
	char *f[MAX_FIELDS];
	int nf = split_tabs(line, f, MAX_FIELDS);

	if (nf == 1 && f[0][0] == '\0')
		return; /* a blank line carries nothing */
	if (strcmp(f[0], "meta") == 0)
		parse_meta(p, f, nf);
	else if (strcmp(f[0], "pass") == 0)
		parse_pass(p, f, nf);
	else if (strcmp(f[0], "sample") == 0)
		parse_sample(p, f, nf);
	else if (strcmp(f[0], "hang") == 0)
		parse_hang(p, f, nf);
	else if (strcmp(f[0], "killed") == 0)
		parse_killed(p, f, nf);
	else
		die(EXIT_USAGE, "%s:%ld: unknown record '%s'", p->path, p->line, f[0]);
}

static void check_magic(struct parser *p, char *line)
{
	char *f[MAX_FIELDS];
	int nf = line ? split_tabs(line, f, MAX_FIELDS) : 0;

	if (nf != 2 || strcmp(f[0], "execlag-samples") != 0 || strcmp(f[1], "1") != 0)
		die(EXIT_USAGE, "%s:1: not a samples file (want 'execlag-samples<TAB>1')",
		    p->path);
}

static int cmp_sample(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	if (x->pass != y->pass)
		return (int)x->pass - (int)y->pass;
	if (x->index != y->index)
		return (x->index > y->index) - (x->index < y->index);
	return (x->line > y->line) - (x->line < y->line);
}

static void check_meta(const struct parser *p)
{
	const struct config *c = p->c;
	const char *missing = !c->case_name ? "case" : !c->kind ? "kind"
			      : !c->class_name ? "class" : !p->have_threads ? "threads"
			      : !p->have_n ? "n" : NULL;

	if (missing)
		die(EXIT_USAGE, "%s:%ld: no 'meta %s' line", p->path, p->line, missing);
}

/* Every index within 0..n-1, and at most one sample per pass and index. */
static void check_samples(const struct parser *p)
{
	struct config *c = p->c;
	size_t i;

	for (i = 0; i < c->n_samples; i++)
		if (c->samples[i].index >= c->n)
			die(EXIT_USAGE, "%s:%ld: index %ld out of range (meta n is %ld)",
			    p->path, c->samples[i].line, c->samples[i].index, c->n);
	if (c->n_samples > 1)
		qsort(c->samples, c->n_samples, sizeof *c->samples, cmp_sample);
	for (i = 1; i < c->n_samples; i++) {
		const struct sample *prev = &c->samples[i - 1], *s = &c->samples[i];

		if (prev->pass == s->pass && prev->index == s->index)
			die(EXIT_USAGE, "%s:%ld: duplicate %s sample for index %ld (first at line %ld)",
			    p->path, s->line, samples_pass_words[s->pass], s->index, prev->line);
	}
	/* every hang names a sample of its own, killed by a signal */
	for (i = 0; i < c->n_hangs; i++) {
		const struct hang_ev *h = &c->hangs[i];
		size_t j;

		for (j = 0; j < c->n_samples; j++)
			if (c->samples[j].pass == h->pass && c->samples[j].index == h->index)
				break;
		if (j == c->n_samples || c->samples[j].signal == 0 || c->samples[j].hang)
			die(EXIT_USAGE, "%s: hang %s %ld names no killed sample of its own", p->path,
			    samples_pass_words[h->pass], h->index);
		c->samples[j].hang = 1;
	}
	/* every killed record names a sample of its own that ended so */
	for (i = 0; i < c->n_kills; i++) {
		const struct kill_ev *k = &c->kills[i];
		size_t j;

		for (j = 0; j < c->n_samples; j++)
			if (c->samples[j].pass == k->pass && c->samples[j].index == k->index)
				break;
		if (j == c->n_samples || c->samples[j].hang || c->samples[j].killed ||
		    (k->sigkill ? c->samples[j].signal != 9 : c->samples[j].spawn_errno != EPERM))
			die(EXIT_USAGE, "%s: killed %s %ld names no sample of its own that ended so",
			    p->path, samples_pass_words[k->pass], k->index);
		c->samples[j].killed = 1;
	}
}

void samples_read(const char *path, struct config *c, char **sim_launcher)
{
	struct parser p = { path, 0, c, 0, 0, 0, sim_launcher };
	char *buf = NULL, *line;
	size_t cap = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		die(EXIT_USAGE, "%s: cannot open:", path);
	memset(c, 0, sizeof *c);
	c->passes[PASS_FIRST].idle = c->passes[PASS_REPEAT].idle = NAN;
	c->hang_s = NAN;
	c->file = xstrdup(path);
	line = read_line(f, &buf, &cap);
	p.line = 1;
	check_magic(&p, line);
	while ((line = read_line(f, &buf, &cap)) != NULL) {
		p.line++;
		parse_record(&p, line);
	}
	if (ferror(f))
		die(EXIT_FAIL, "%s: read error:", path);
	fclose(f);
	free(buf);
	check_meta(&p);
	check_samples(&p);
}
