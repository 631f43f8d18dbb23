/* remediesjson.h - run.json's remedies (make remedies' table; docs/
 * run.schema.json) read back into its model (model/remedies.h), for the
 * programs that work on a finished run: compare, fbtext, measure (the
 * remedy line).  The one reader of that section. */
#ifndef EXECLAG_REMEDIESJSON_H
#define EXECLAG_REMEDIESJSON_H

#include <jansson.h>
#include <stddef.h>

#include "remedies.h"

/* The table of RUN (a loaded run.json) into *T: 1 read, 0 the run has none
 * (not make remedies' run), -1 it is not as the schema says (WHY set).
 * T's strings point into RUN; remediesjson_free frees the rest. */
int remediesjson_read(const json_t *run, struct remedies *t, char *why, size_t len);
void remediesjson_free(struct remedies *t);

#endif
