/* measurejson.h - a finished measure's measure.json (docs/measure.schema.json)
 * read back into the measure (model/measure.h): its one reader, for
 * mcompare (make compare of two measures) and measure --figures.  What
 * they read is checked, each field against the schema; fields a newer kit
 * adds are left alone, and those older measures lack (fresh_range,
 * checker_busy_range_s, share_range, program_sizes, penalty_at_size,
 * penalty_used) may be absent.  micro/report/measure_json.c writes it. */
#ifndef EXECLAG_MEASUREJSON_H
#define EXECLAG_MEASUREJSON_H

#include <stddef.h>

#include "measure.h"

#define MEASURE_SCHEMA_VERSION 1

/* Read WHERE, a measure folder or its measure.json, into M (the command's
 * id, line, W and status; N; L, L at size and the L used; checks at once;
 * B, the share; the services; the conditions): 0, or -1 with why when it
 * is not a measure this kit reads ("PATH is not an execlag measure"; M
 * then holds nothing to free). */
int measurejson_read(const char *where, struct measure *m, char *why, size_t len);

#endif
