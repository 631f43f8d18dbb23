/* conditions.h - read conditions.txt (docs/formats.md): key=value lines
 * written by scripts/probe/sysinfo and the runs, the one C reader of it
 * (analyze, measure), and the lookup in a run's (run.h).
 * scripts/lib/conditions is the shell's. */
#ifndef EXECLAG_CONDITIONS_H
#define EXECLAG_CONDITIONS_H

#include <stddef.h>

/* One entry; values stay strings, exactly as written. */
struct condition {
	char *key;
	char *value;
};

/* How conditions_read meets a line that is not key=value: */
#define CONDITIONS_LENIENT 0u /* pass it over; a file that cannot be opened: -1 */
#define CONDITIONS_STRICT 1u  /* "PATH:LINE: why" on stderr, exit 2 (a key
			       * must be [a-z0-9_.]+); cannot open: exit 2 */

/* Read PATH into *OUT (*N entries).  A line ending in CR LF is read as one
 * ending in LF; blank lines and lines starting with # are comments.  A key
 * seen twice keeps its first position and its last value.  Returns 0, or -1
 * (LENIENT) when the file cannot be opened. */
int conditions_read(const char *path, unsigned flags, struct condition **out, size_t *n);

/* The value of KEY, or NULL when absent. */
const char *conditions_get(const struct condition *c, size_t n, const char *key);

/* Set KEY to VALUE: a key already there keeps its position. */
void conditions_set(struct condition **c, size_t *n, const char *key, const char *value);

void conditions_free(struct condition *c, size_t n);

struct run;
/* The value of a run's conditions key (run.h), or NULL when absent. */
const char *run_condition(const struct run *r, const char *key);

#endif
