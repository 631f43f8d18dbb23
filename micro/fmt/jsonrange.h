/* jsonrange.h - every number of a JSON document within +-JSON_NUM_MAX.
 *
 * A run's times (ms), counts and ratios are far below it; beyond it a
 * number is a corrupt or hostile file, which would print as hundreds of
 * digits or inf.  For run.json's one reader, runjson.c. */
#ifndef EXECLAG_JSONRANGE_H
#define EXECLAG_JSONRANGE_H

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#define JSON_NUM_MAX 1e9

/* 0 when every number under v is within range; else -1, with the path of
 * the first one out of range ("cases[0].penalty_ms.median") in buf. */
static inline int json_out_of_range(const json_t *v, char *buf, size_t len)
{
	size_t at = strlen(buf), i;
	const char *key;
	json_t *sub;
	double d;

	if (json_is_number(v)) {
		d = json_number_value(v);
		return d >= -JSON_NUM_MAX && d <= JSON_NUM_MAX ? 0 : -1;
	}
	if (json_is_object(v)) {
		json_object_foreach((json_t *)v, key, sub) {
			snprintf(buf + at, len - at, "%s%s", at ? "." : "", key);
			if (json_out_of_range(sub, buf, len) != 0)
				return -1;
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, sub) {
			snprintf(buf + at, len - at, "[%zu]", i);
			if (json_out_of_range(sub, buf, len) != 0)
				return -1;
		}
	}
	buf[at] = '\0';
	return 0;
}

#endif
