/* tabfile.h - the one reader of the kit's KEY<TAB>VALUE result files: a
 * head line "NAME<TAB>VERSION", then lines whose first field is a key.
 * execwatch's result ("execlag-execwatch 1", micro/prog/execwatch.c),
 * logcount's ("execlag-logcount 1", scripts/probe/logcount), measure's
 * sizes ("execlag-sizes 1", measure --sizes) and a log excerpt's status
 * ("execlag-log 1", scripts/probe/logs) are read through it. */
#ifndef EXECLAG_TABFILE_H
#define EXECLAG_TABFILE_H

#include <stddef.h>

struct tabfile {
	char **lines; /* each line without its end of line, the head first */
	size_t n;
};

/* Reads PATH whose first line is HEAD (e.g. "execlag-execwatch\t1"): 0; -1
 * when it cannot be read, -2 when its head is another (T left empty). */
int tabfile_read(const char *path, const char *head, struct tabfile *t);

/* The rest of the first line "KEY<TAB>...", after the tab, or NULL. */
const char *tabfile_get(const struct tabfile *t, const char *key);

/* KEY's value as a whole number in 0..1e12 (DFLT when absent or not one),
 * or as a number in 0..1e12 (NAN when absent or not one). */
long tabfile_long(const struct tabfile *t, const char *key, long dflt);
double tabfile_double(const struct tabfile *t, const char *key);

void tabfile_free(struct tabfile *t);

#endif
