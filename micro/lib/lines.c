/* lines.c - text files a line at a time: whole lines of any length, their
 * ends removed, split at tabs (util.h). */
#include "util.h"

#include <stdlib.h>
#include <string.h>

int split_tabs(char *line, char **fields, int max)
{
	int n = 0;
	size_t len = strlen(line);

	if (len > 0 && line[len - 1] == '\n')
		line[--len] = '\0';
	if (len > 0 && line[len - 1] == '\r')
		line[--len] = '\0';
	while (n < max) {
		fields[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

void strip_eol(char *line)
{
	size_t n = strlen(line);

	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
}

char *read_line(FILE *f, char **buf, size_t *cap)
{
	size_t len = 0;
	int c;

	if (!*buf) {
		*cap = 256;
		*buf = xmalloc(*cap);
	}
	while ((c = getc(f)) != EOF) {
		if (len + 2 > *cap) {
			*cap *= 2;
			*buf = xrealloc(*buf, *cap);
		}
		(*buf)[len++] = (char)c;
		if (c == '\n')
			break;
	}
	if (len == 0)
		return NULL;
	(*buf)[len] = '\0';
	return *buf;
}

int each_line(const char *path, int (*fn)(char *line, void *ctx), void *ctx)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL, *line;
	size_t cap = 0;

	if (!f)
		return -1;
	while ((line = read_line(f, &buf, &cap)) != NULL) {
		strip_eol(line);
		if (fn(line, ctx) != 0)
			break;
	}
	fclose(f);
	free(buf);
	return 0;
}
