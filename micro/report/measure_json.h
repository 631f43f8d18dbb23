/* measure_json.h - the measure.json writer (docs/measure.schema.json):
 * the model (model/measure.h) as JSON, with the text (measure_text.h) as
 * its summary.  Its one reader is micro/fmt/measurejson.c. */
#ifndef EXECLAG_MEASURE_JSON_H
#define EXECLAG_MEASURE_JSON_H

#include <jansson.h>

#include "measure.h"
#include "measurejson.h" /* MEASURE_SCHEMA_VERSION */

/* measure.json's object for M, SUMMARY its text. */
json_t *measure_json(const struct measure *m, const char *summary);

/* Write it to PATH, atomically: 0, or -1 (errno says). */
int measure_json_write(const char *path, const struct measure *m, const char *summary);

#endif
