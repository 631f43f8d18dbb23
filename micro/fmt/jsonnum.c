/* jsonnum.c - jsonnum.h. */
#include "jsonnum.h"

#include <math.h>

json_t *json_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

double json_num_at(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}
