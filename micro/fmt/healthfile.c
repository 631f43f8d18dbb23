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
	{ "missing", HEALTH_ASSESS_MISSING },
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
	int rc;

	memset(h, 0, sizeof *h);
	h->checker = -1;
	h->syspolicyd.count = h->trustd.count = -1;
	h->assess_exit = -1;
	h->assess_bound_s = NAN;
	h->log_lines = h->own_lines = h->emfile_lines = h->asp_lines = h->driver_lines = -1;
	rc = tabfile_read(path, "execlag-health\t1", &t);
	if (rc != 0)
		return rc;
	v = tabfile_get(&t, "checker");
	h->checker = is(v, "syspolicyd") ? 1 : is(v, "none") ? 0 : -1;
	h->system = dup_or_null(tabfile_get(&t, "system"));
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
	free(h->assess_line);
	free(h->log_result);
	free(h->log_message);
	free(h->driver);
	for (i = 0; i < h->nquotes; i++)
		free(h->quotes[i]);
	free(h->quotes);
	memset(h, 0, sizeof *h);
}
