/* parse.c - a decimal number in a range, all of the text or nothing
 * (util.h). */
#include "util.h"

#include <errno.h>
#include <stdlib.h>

int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !(v >= min && v <= max))
		return -1;
	*out = v;
	return 0;
}
