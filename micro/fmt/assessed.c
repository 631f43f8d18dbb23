/* assessed.c - the assessments' reader (assessed.h, docs/formats.md). */
#define _POSIX_C_SOURCE 200809L
#include "assessed.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FIELDS 4

static void bad_step(const char *path, long line, const char *what)
{
	die(EXIT_USAGE, "%s:%ld: not an assessment (INDEX, TOOL, MS, STATUS): %s", path, line, what);
}

/* A tool's name: spctl, gktool, read (a newer mkfresh's other tools are
 * read as they come: a word of letters and digits). */
static int is_tool(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0 || n >= ASSESS_TOOL_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return 0;
	return 1;
}

int assessed_read(const char *path, struct assess_rec **recs, size_t *n)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL, *fld[FIELDS + 1];
	size_t cap = 0, have = 0;
	long line = 0, status;
	struct stat st;
	int nf;

	*recs = NULL;
	*n = 0;
	if (!f) {
		if (errno == ENOENT)
			return -1;
		die(EXIT_USAGE, "cannot read assessments %s:", path);
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode))
		die(EXIT_USAGE, "assessments %s is a folder, not a file", path);
	while (read_line(f, &buf, &cap)) {
		struct assess_rec *r;

		line++;
		nf = split_tabs(buf, fld, FIELDS + 1);
		if (nf != FIELDS)
			bad_step(path, line, "want 4 tab-separated fields");
		if (*n == have) {
			have = have ? 2 * have : 64;
			*recs = xrealloc(*recs, have * sizeof **recs);
		}
		r = &(*recs)[*n];
		if (parse_long(fld[0], 0, 100000000, &r->index) != 0)
			bad_step(path, line, "INDEX is not a whole number from 0");
		if (!is_tool(fld[1]))
			bad_step(path, line, "TOOL is not a tool's name (spctl, gktool, read)");
		strcpy(r->tool, fld[1]);
		if (parse_double(fld[2], 0, 1e9, &r->ms) != 0)
			bad_step(path, line, "MS is not a time in ms");
		if (parse_long(fld[3], -1, 1000000, &status) != 0)
			bad_step(path, line, "STATUS is not a status (-1: the tool is absent)");
		r->status = (int)status;
		(*n)++;
	}
	if (ferror(f))
		die(EXIT_USAGE, "cannot read assessments %s:", path);
	free(buf);
	fclose(f);
	return 0;
}
