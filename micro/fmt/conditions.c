/* conditions.c - the one C reader of conditions.txt (conditions.h). */
#define _POSIX_C_SOURCE 200809L
#include "conditions.h"
#include "run.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int valid_key(const char *key)
{
	if (!*key)
		return 0;
	for (; *key; key++)
		if (!((*key >= 'a' && *key <= 'z') || (*key >= '0' && *key <= '9') ||
		      *key == '_' || *key == '.'))
			return 0;
	return 1;
}

void conditions_set(struct condition **c, size_t *n, const char *key, const char *value)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (strcmp((*c)[i].key, key) == 0) {
			free((*c)[i].value);
			(*c)[i].value = xstrdup(value);
			return;
		}
	*c = xrealloc(*c, (*n + 1) * sizeof **c);
	(*c)[*n].key = xstrdup(key);
	(*c)[*n].value = xstrdup(value);
	(*n)++;
}

static void strip_newline(char *line)
{
	size_t len = strlen(line);

	if (len > 0 && line[len - 1] == '\n')
		line[--len] = '\0';
	if (len > 0 && line[len - 1] == '\r')
		line[--len] = '\0';
}

int conditions_read(const char *path, unsigned flags, struct condition **out, size_t *n)
{
	int strict = (flags & CONDITIONS_STRICT) != 0;
	char *buf = NULL, *line, *eq;
	size_t cap = 0;
	long lineno = 0;
	FILE *f = fopen(path, "r");

	*out = NULL;
	*n = 0;
	if (!f) {
		if (strict)
			die(EXIT_USAGE, "%s: cannot open:", path);
		return -1;
	}
	while ((line = read_line(f, &buf, &cap)) != NULL) {
		lineno++;
		strip_newline(line);
		if (line[0] == '\0' || line[0] == '#')
			continue;
		eq = strchr(line, '=');
		if (!eq || eq == line) {
			if (strict && !eq)
				die(EXIT_USAGE, "%s:%ld: not a key=value line", path, lineno);
			if (!strict)
				continue;
		}
		*eq = '\0';
		if (strict && !valid_key(line))
			die(EXIT_USAGE, "%s:%ld: bad key '%s' (want [a-z0-9_.]+)", path,
			    lineno, line);
		conditions_set(out, n, line, eq + 1);
	}
	if (ferror(f))
		die(EXIT_FAIL, "%s: read error:", path);
	fclose(f);
	free(buf);
	return 0;
}

const char *conditions_get(const struct condition *c, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(c[i].key, key) == 0)
			return c[i].value;
	return NULL;
}

void conditions_free(struct condition *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(c[i].key);
		free(c[i].value);
	}
	free(c);
}

const char *run_condition(const struct run *r, const char *key)
{
	return conditions_get(r->conditions, r->n_conditions, key);
}
