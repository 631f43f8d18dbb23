/* manifest.c - the manifest's reader (manifest.h, docs/formats.md). */
#define _POSIX_C_SOURCE 200809L
#include "manifest.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_FIELDS 64

static void bad_manifest(const char *path, long line, const char *what)
{
	die(EXIT_USAGE, "%s:%ld: corrupt manifest: %s", path, line, what);
}

/* Line 1: the magic and the format's version. */
static int is_head(char **fld, int nf)
{
	return nf == 2 && strcmp(fld[0], "execlag-manifest") == 0 && strcmp(fld[1], "1") == 0;
}

int manifest_sizes(const char *path, long *pad, long *bytes)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL, *fld[MAX_FIELDS];
	size_t cap = 0;
	long line = 0;
	int nf, bad = 0;

	*pad = 0;
	*bytes = -1;
	if (!f)
		return -1;
	while (!bad && read_line(f, &buf, &cap)) {
		nf = split_tabs(buf, fld, MAX_FIELDS);
		if (++line == 1)
			bad = !is_head(fld, nf);
		else if (strcmp(fld[0], "artifact") == 0)
			break;
		else if (nf == 2 && strcmp(fld[0], "pad") == 0)
			bad = parse_long(fld[1], 0, 1L << 30, pad) != 0;
		else if (nf == 2 && strcmp(fld[0], "bytes") == 0)
			bad = parse_long(fld[1], 0, 1L << 40, bytes) != 0;
	}
	free(buf);
	fclose(f);
	return bad || line == 0 ? -1 : 0;
}

void manifest_read(const char *path, struct manifest *m)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL, *fld[MAX_FIELDS];
	size_t cap = 0;
	long line = 0, seen = 0, idx;
	int nf, i;
	struct stat st;

	if (!f)
		die(EXIT_USAGE, "cannot read manifest %s:", path);
	/* a folder opens for reading and then reads as nothing */
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode))
		die(EXIT_USAGE, "manifest %s is a folder, not a manifest file", path);
	memset(m, 0, sizeof *m);
	m->n = -1;
	while (read_line(f, &buf, &cap)) {
		line++;
		nf = split_tabs(buf, fld, MAX_FIELDS);
		if (line == 1) {
			if (!is_head(fld, nf))
				bad_manifest(path, line, "first line is not 'execlag-manifest<TAB>1'");
			continue;
		}
		if (strcmp(fld[0], "artifact") == 0) {
			if (m->n < 0)
				bad_manifest(path, line, "artifact before the 'n' line");
			if (nf < 4)
				bad_manifest(path, line, "artifact line needs index, object and argv");
			if (parse_long(fld[1], 0, m->n - 1, &idx) != 0 || idx != seen)
				bad_manifest(path, line, "artifact index out of order");
			if (fld[3][0] != '/')
				bad_manifest(path, line, "argv0 is not an absolute path");
			m->art[seen].object = xstrdup(fld[2]);
			m->art[seen].argv = xmalloc(sizeof(char *) * (size_t)(nf - 2));
			for (i = 3; i < nf; i++)
				m->art[seen].argv[i - 3] = xstrdup(fld[i]);
			m->art[seen].argv[nf - 3] = NULL;
			seen++;
		} else if (nf == 2 && strcmp(fld[0], "n") == 0) {
			if (m->n >= 0 || parse_long(fld[1], 1, 10000000, &m->n) != 0)
				bad_manifest(path, line, "bad artifact count");
			m->art = xmalloc(sizeof *m->art * (size_t)m->n);
		} else if (nf == 2 && strcmp(fld[0], "case") == 0) {
			m->kase = xstrdup(fld[1]);
		} else if (nf == 2 && strcmp(fld[0], "kind") == 0) {
			m->kind = xstrdup(fld[1]);
		} else if (nf == 2 && strcmp(fld[0], "pad") == 0) {
			if (parse_long(fld[1], 0, 1L << 30, &m->pad) != 0)
				bad_manifest(path, line, "bad pad size");
		} else if (nf == 2 && strcmp(fld[0], "payload") == 0) {
			m->payload_kill = strcmp(fld[1], "kill") == 0;
		} else if (nf == 2 && strcmp(fld[0], "link_from") == 0) {
			if (m->link_from || fld[1][0] != '/')
				bad_manifest(path, line, "link_from is not one absolute path");
			m->link_from = xstrdup(fld[1]);
		}
	}
	free(buf);
	fclose(f);
	if (line == 0)
		bad_manifest(path, 1, "empty file");
	if (m->n < 0 || seen != m->n)
		bad_manifest(path, line, "artifact count does not match 'n'");
	if (!m->kase || !m->kind)
		bad_manifest(path, line, "missing 'case' or 'kind'");
	for (idx = 0; idx < m->n; idx++)
		m->art[idx].link_from = m->link_from;
}

void manifest_free(struct manifest *m)
{
	long i;

	for (i = 0; i < m->n; i++) {
		char **a;

		for (a = m->art[i].argv; *a; a++)
			free(*a);
		free(m->art[i].argv);
		free(m->art[i].object);
	}
	free(m->art);
	free(m->link_from);
	free(m->kase);
	free(m->kind);
	memset(m, 0, sizeof *m);
}
