/* healthfile.c - the checker's health record (healthfile.h), read through
 * tabfile. */
#define _POSIX_C_SOURCE 200809L
#include "healthfile.h"
#include "tabfile.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *word;
	enum health_assess a;
} assess_words[] = {
	{ "accepted", HEALTH_ASSESS_ACCEPTED }, { "rejected", HEALTH_ASSESS_REJECTED },
	{ "too-many-open-files", HEALTH_ASSESS_EMFILE }, { "timeout", HEALTH_ASSESS_TIMEOUT },
	{ "missing", HEALTH_ASSESS_MISSING }, { "refused", HEALTH_ASSESS_REFUSED },
};

static const struct {
	const char *word;
	int checker;
} checker_words[] = {
	{ "none", HEALTH_CHECKER_NONE },
	{ "syspolicyd", HEALTH_CHECKER_SYSPOLICYD },
	{ "gate", HEALTH_CHECKER_GATE },
};

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* A count the record gives, or -1. */
static long count(const struct tabfile *t, const char *key)
{
	return tabfile_long(t, key, -1);
}

static void read_proc(const struct tabfile *t, const char *name, struct health_proc *p)
{
	char key[64];

	snprintf(key, sizeof key, "%s_count", name);
	p->count = count(t, key);
	snprintf(key, sizeof key, "%s_cpu_pct", name);
	p->cpu_pct = tabfile_double(t, key);
	snprintf(key, sizeof key, "%s_rss_kb", name);
	p->rss_kb = count(t, key);
	snprintf(key, sizeof key, "%s_etime_s", name);
	p->etime_s = count(t, key);
	snprintf(key, sizeof key, "%s_time_s", name);
	p->time_s = tabfile_double(t, key);
}

static enum health_assess assess_of(const char *v)
{
	size_t i;

	if (!v)
		return HEALTH_ASSESS_NONE;
	for (i = 0; i < sizeof assess_words / sizeof assess_words[0]; i++)
		if (strcmp(v, assess_words[i].word) == 0)
			return assess_words[i].a;
	return HEALTH_ASSESS_OTHER;
}

static int is(const char *v, const char *word)
{
	return v && strcmp(v, word) == 0;
}

/* "1m", "60m", "2h": the window logcount read (its `last`), in seconds;
 * 0 when it is not that. */
static double window_of(const char *last)
{
	long n;
	size_t k = last ? strlen(last) : 0;
	char num[16];

	if (k < 2 || k >= sizeof num || (last[k - 1] != 'm' && last[k - 1] != 'h'))
		return 0;
	memcpy(num, last, k - 1);
	num[k - 1] = '\0';
	if (parse_long(num, 1, 99, &n) != 0)
		return 0;
	return (double)n * (last[k - 1] == 'm' ? 60 : 3600);
}

/* The log's part: logcount's file, each key under "log." (scripts/probe/health). */
static void read_log(const struct tabfile *t, struct health_record *h)
{
	h->log_result = dup_or_null(tabfile_get(t, "log.result"));
	h->log_message = dup_or_null(tabfile_get(t, "log.message"));
	h->log_ok = is(h->log_result, "ok");
	if (!h->log_ok)
		return;
	h->window_s = window_of(tabfile_get(t, "log.last"));
	h->log_lines = count(t, "log.syspolicyd_lines");
	h->own_lines = count(t, "log.own_lines");
	h->emfile_lines = count(t, "log.emfile_lines");
	h->asp_lines = count(t, "log.asp_lines");
	h->driver = dup_or_null(tabfile_get(t, "log.top_program"));
	h->driver_lines = count(t, "log.top_program_lines");
}

static void read_quotes(const struct tabfile *t, struct health_record *h)
{
	size_t i;

	for (i = 1; i < t->n; i++) {
		if (strncmp(t->lines[i], "quote\t", 6) != 0)
			continue;
		h->quotes = xrealloc(h->quotes, (h->nquotes + 1) * sizeof *h->quotes);
		h->quotes[h->nquotes++] = xstrdup(t->lines[i] + 6);
	}
}

int healthfile_read(const char *path, struct health_record *h)
{
	struct tabfile t;
	const char *v;
	size_t i;
	int rc;

	memset(h, 0, sizeof *h);
	h->checker = HEALTH_CHECKER_UNSAID;
	h->syspolicyd.count = h->trustd.count = -1;
	h->assess_exit = -1;
	h->assess_bound_s = NAN;
	h->log_lines = h->own_lines = h->emfile_lines = h->asp_lines = h->driver_lines = -1;
	rc = tabfile_read(path, "execlag-health\t1", &t);
	if (rc != 0)
		return rc;
	v = tabfile_get(&t, "checker");
	for (i = 0; i < sizeof checker_words / sizeof checker_words[0]; i++)
		if (is(v, checker_words[i].word))
			h->checker = checker_words[i].checker;
	h->system = dup_or_null(tabfile_get(&t, "system"));
	h->simulated = dup_or_null(tabfile_get(&t, "simulated"));
	h->ps_ok = is(tabfile_get(&t, "ps"), "ok");
	if (h->ps_ok) {
		read_proc(&t, "syspolicyd", &h->syspolicyd);
		read_proc(&t, "trustd", &h->trustd);
	}
	h->assess = assess_of(tabfile_get(&t, "assess"));
	h->assess_exit = count(&t, "assess_exit");
	h->assess_bound_s = tabfile_double(&t, "assess_bound_s");
	h->assess_line = dup_or_null(tabfile_get(&t, "assess_line"));
	read_log(&t, h);
	read_quotes(&t, h);
	tabfile_free(&t);
	return 0;
}

void healthfile_free(struct health_record *h)
{
	size_t i;

	free(h->system);
	free(h->simulated);
	free(h->assess_line);
	free(h->log_result);
	free(h->log_message);
	free(h->driver);
	for (i = 0; i < h->nquotes; i++)
		free(h->quotes[i]);
	free(h->quotes);
	memset(h, 0, sizeof *h);
}

/* ---- the writer ----------------------------------------------------------------------- */

static void put_proc(FILE *f, const char *name, const struct health_proc *p)
{
	fprintf(f, "%s_count\t%ld\n", name, p->count);
	if (p->count <= 0)
		return;
	if (!isnan(p->cpu_pct))
		fprintf(f, "%s_cpu_pct\t%.1f\n", name, p->cpu_pct);
	if (p->rss_kb >= 0)
		fprintf(f, "%s_rss_kb\t%ld\n", name, p->rss_kb);
	if (p->etime_s >= 0)
		fprintf(f, "%s_etime_s\t%ld\n", name, p->etime_s);
	if (!isnan(p->time_s))
		fprintf(f, "%s_time_s\t%.2f\n", name, p->time_s);
}

static const char *assess_word(enum health_assess a)
{
	size_t i;

	for (i = 0; i < sizeof assess_words / sizeof assess_words[0]; i++)
		if (assess_words[i].a == a)
			return assess_words[i].word;
	return "other";
}

/* a count the record has, under KEY */
static void put_count(FILE *f, const char *key, long n)
{
	if (n >= 0)
		fprintf(f, "%s\t%ld\n", key, n);
}

int healthfile_write(FILE *f, const struct health_record *h)
{
	size_t i;

	fprintf(f, "execlag-health\t1\nsystem\t%s\n", h->system ? h->system : "unknown");
	for (i = 0; i < sizeof checker_words / sizeof checker_words[0]; i++)
		if (checker_words[i].checker == h->checker)
			fprintf(f, "checker\t%s\n", checker_words[i].word);
	if (h->simulated)
		fprintf(f, "simulated\t%s\n", h->simulated);
	if (h->ps_ok) {
		fputs("ps\tok\n", f);
		put_proc(f, "syspolicyd", &h->syspolicyd);
		put_proc(f, "trustd", &h->trustd);
	}
	if (!isnan(h->assess_bound_s))
		fprintf(f, "assess_bound_s\t%g\n", h->assess_bound_s);
	if (h->assess != HEALTH_ASSESS_NONE)
		fprintf(f, "assess\t%s\n", assess_word(h->assess));
	put_count(f, "assess_exit", h->assess_exit);
	if (h->assess_line)
		fprintf(f, "assess_line\t%s\n", h->assess_line);
	if (h->log_result)
		fprintf(f, "log.result\t%s\n", h->log_result);
	if (h->log_ok) {
		if (h->window_s > 0)
			fprintf(f, "log.last\t%ldm\n", (long)(h->window_s / 60));
		put_count(f, "log.syspolicyd_lines", h->log_lines);
		put_count(f, "log.own_lines", h->own_lines);
		put_count(f, "log.emfile_lines", h->emfile_lines);
		put_count(f, "log.asp_lines", h->asp_lines);
		if (h->driver) {
			fprintf(f, "log.top_program\t%s\n", h->driver);
			put_count(f, "log.top_program_lines", h->driver_lines);
		}
	}
	for (i = 0; i < h->nquotes; i++)
		fprintf(f, "quote\t%s\n", h->quotes[i]);
	return fflush(f) != 0 || ferror(f) ? -1 : 0;
}
