/* jsonnum.h - numbers in and out of the kit's JSON files (run.json,
 * measure.json), one rule for every writer and reader: a number that
 * cannot be computed is null, never NaN (jansson refuses NaN, and the
 * schemas promise null). */
#ifndef EXECLAG_JSONNUM_H
#define EXECLAG_JSONNUM_H

#include <jansson.h>

/* v as a JSON number, or null when it is not finite. */
json_t *json_num(double v);
/* The number at key in object o, or NAN when it is missing, null or not a
 * number (o may be NULL). */
double json_num_at(const json_t *o, const char *key);

#endif
