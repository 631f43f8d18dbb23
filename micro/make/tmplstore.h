/* tmplstore.h - EXECLAG_TEMPLATES (a folder, made if missing): the
 * templates (template.h) kept for the next mkfresh that needs the same
 * one, so that a run (scripts/repro sets it to the run's own scratch) or a
 * test suite (tests/test_helper) compiles each template once, not once a
 * call.
 *
 * A template is the same one where everything that shapes its bytes but
 * the placeholder is the same: the unit, the payload, the padding's size,
 * the placeholder's length, the length of the source's name (it is in the
 * program's symbols) and the compiler's command.  Its bytes then carry the
 * name of the artifact it was first compiled for (as long): harmless where
 * nothing is launched.  (A compiler told to record the source's folder
 * too, as -g does, records the first one's.)  An entry is written to a new
 * file and renamed into place (two makers at once each see a whole one or
 * none); one that cannot be read or written is compiled as without the
 * folder. */
#ifndef EXECLAG_TMPLSTORE_H
#define EXECLAG_TMPLSTORE_H

#include <stddef.h>

#include "mkrun.h"

/* The key of the template of unit u with a placeholder plen long, named
 * as stem (malloc'd); NULL where it cannot be kept. */
char *tmplstore_key(enum unit u, size_t plen, const char *stem);

/* A kept template for key: its bytes (*len) and its placeholder (*ph, plen
 * long), or NULL. */
char *tmplstore_load(const char *key, size_t plen, char **ph, size_t *len);

/* Keep a template (best effort: a failure leaves no file). */
void tmplstore_save(const char *key, const char *ph, const char *bytes, size_t len);

/* The whole of the file path into *len bytes (NUL after them), or NULL
 * where it cannot be read. */
char *tmplstore_read(const char *path, size_t *len);

#endif
