/* killlog.c - the kill lines of a log (killlog.h). */
#define _POSIX_C_SOURCE 200809L
#include "killlog.h"
#include "logexcerpt.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const family_names[KILL_FAMILIES] = {
	"page-denied", "page-rejected", "load-signature", "policy", "crash-report",
};

const char *killlog_family_name(enum kill_family f)
{
	return f >= 0 && f < KILL_FAMILIES ? family_names[f] : "?";
}

/* A whole number at s (digits), into *v; where it ends, or NULL. */
static const char *number_at(const char *s, long *v)
{
	char *end;
	long n;

	if (*s < '0' || *s > '9')
		return NULL;
	n = strtol(s, &end, 10);
	*v = n;
	return end;
}

/* The text from s to the first of stop (or the line's end) into buf. */
static void copy_until(const char *s, const char *stop, char *buf, size_t len)
{
	size_t n = strcspn(s, stop);

	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
}

/* "p=PID[" or "process PID[" after at: the pid */
static void pid_in_brackets(const char *at, const char *key, struct killline *k)
{
	const char *p = strstr(at, key);

	if (p && number_at(p + strlen(key), &k->pid) == NULL)
		k->pid = -1;
}

static int page_line(const char *cs, struct killline *k)
{
	const char *f, *t;

	if (strstr(cs, "cs_invalid_page(") && strstr(cs, "SIGKILL")) {
		k->family = KILL_PAGE_DENIED;
		pid_in_brackets(cs, "p=", k);
		return 1;
	}
	if (!strstr(cs, "rejecting invalid page"))
		return 0;
	k->family = KILL_PAGE_REJECTED;
	pid_in_brackets(cs, "process ", k);
	f = strstr(cs, " in file \"");
	if (f)
		copy_until(f + 10, "\"", k->file, sizeof k->file);
	t = strstr(cs, "(cs_mtime:");
	if (t && strstr(t, " != mtime:"))
		k->changed = 1;
	else if (t && strstr(t, " == mtime:"))
		k->changed = 0;
	return 1;
}

int killlog_parse(const char *line, struct killline *k)
{
	const char *at;

	memset(k, 0, sizeof *k);
	k->pid = -1;
	k->changed = -1;
	if ((at = strstr(line, "CODE SIGNING: ")) != NULL)
		return page_line(at, k);
	if ((at = strstr(line, "rejecting invalid page")) != NULL) /* a fragment */
		return page_line(at, k);
	if ((at = strstr(line, "proc ")) != NULL && strstr(at, ": load code signature error ")) {
		k->family = KILL_LOAD_SIGNATURE;
		if (!number_at(at + 5, &k->pid))
			k->pid = -1;
		at = strstr(at, " for file \"");
		if (at)
			copy_until(at + 11, "\"", k->file, sizeof k->file);
		return 1;
	}
	if ((at = strstr(line, "ASP: Security policy would not allow process")) != NULL) {
		k->family = KILL_POLICY;
		at += strlen("ASP: Security policy would not allow process");
		if (at[0] == ':' && at[1] == ' ' && (at = number_at(at + 2, &k->pid)) != NULL &&
		    at[0] == ',' && at[1] == ' ')
			copy_until(at + 2, "\t\r\n", k->file, sizeof k->file);
		return 1;
	}
	if (strstr(line, "SIGKILL (Code Signature Invalid)") || strstr(line, "Namespace CODESIGNING") ||
	    strstr(line, "\"namespace\":\"CODESIGNING\"") || strstr(line, "namespace CODESIGNING")) {
		k->family = KILL_CRASH_REPORT;
		return 1;
	}
	return 0;
}

int killlog_names(const struct killline *k, long pid, const char *path)
{
	const char *base;

	if (pid > 0 && k->pid == pid)
		return 1;
	if (!path || !k->file[0])
		return 0;
	if (strcmp(k->file, path) == 0)
		return 1;
	/* a name, not a path: the program's last part (the kernel may cut it) */
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return !strchr(k->file, '/') && strncmp(base, k->file, strlen(k->file)) == 0;
}

static void add_line(struct killlog *kl, const char *text)
{
	struct killline k;

	kl->at++;
	if (!text || !killlog_parse(text, &k))
		return;
	kl->k = xrealloc(kl->k, (kl->n + 1) * sizeof *kl->k);
	kl->line = xrealloc(kl->line, (kl->n + 1) * sizeof *kl->line);
	kl->k[kl->n] = k;
	kl->line[kl->n++] = kl->at;
}

static void add_event(const struct logex_event *ev, void *ctx)
{
	add_line(ctx, ev->message);
}

int killlog_read(const char *path, struct killlog *kl)
{
	struct logex_counts counts;
	char *buf = NULL, *line;
	size_t cap = 0;
	FILE *f = fopen(path, "r");
	int c;

	memset(kl, 0, sizeof *kl);
	if (!f)
		return -1;
	while ((c = getc(f)) == ' ' || c == '\n')
		;
	if (c == '{') {
		fclose(f);
		return logex_each(path, add_event, kl, &counts);
	}
	rewind(f);
	while ((line = read_line(f, &buf, &cap)) != NULL)
		add_line(kl, line);
	fclose(f);
	free(buf);
	return 0;
}

void killlog_free(struct killlog *kl)
{
	free(kl->k);
	free(kl->line);
	memset(kl, 0, sizeof *kl);
}

/* Whether line j names one of the programs. */
static int names_one(const struct killline *k, const char *const *paths, size_t n)
{
	size_t p;

	for (p = 0; p < n; p++)
		if (killlog_names(k, -1, paths[p]))
			return 1;
	return 0;
}

int killlog_of(const struct killlog *kl, size_t i, const char *const *paths, size_t n)
{
	size_t j;

	if (n == 0)
		return 1;
	for (j = 0; j < kl->n; j++)
		if (names_one(&kl->k[j], paths, n) &&
		    (j == i || (kl->k[j].pid > 0 && kl->k[j].pid == kl->k[i].pid)))
			return 1;
	return 0;
}
