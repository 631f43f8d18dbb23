/* tabfile.c - KEY<TAB>VALUE result files under a head line (tabfile.h). */
#define _POSIX_C_SOURCE 200809L
#include "tabfile.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tabfile_free(struct tabfile *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->lines[i]);
	free(t->lines);
	t->lines = NULL;
	t->n = 0;
}

static int keep_line(char *line, void *ctx)
{
	struct tabfile *t = ctx;

	t->lines = xrealloc(t->lines, (t->n + 1) * sizeof *t->lines);
	t->lines[t->n++] = xstrdup(line);
	return 0;
}

int tabfile_read(const char *path, const char *head, struct tabfile *t)
{
	memset(t, 0, sizeof *t);
	if (each_line(path, keep_line, t) != 0)
		return -1;
	if (t->n == 0 || strcmp(t->lines[0], head) != 0) {
		tabfile_free(t);
		return -2;
	}
	return 0;
}

const char *tabfile_get(const struct tabfile *t, const char *key)
{
	size_t i, k = strlen(key);

	for (i = 1; i < t->n; i++)
		if (strncmp(t->lines[i], key, k) == 0 && t->lines[i][k] == '\t')
			return t->lines[i] + k + 1;
	return NULL;
}

long tabfile_long(const struct tabfile *t, const char *key, long dflt)
{
	const char *v = tabfile_get(t, key);
	long x;

	return v && parse_long(v, 0, 1000000000000L, &x) == 0 ? x : dflt;
}

double tabfile_double(const struct tabfile *t, const char *key)
{
	const char *v = tabfile_get(t, key);
	double x;

	return v && parse_double(v, 0, 1e12, &x) == 0 ? x : NAN;
}
