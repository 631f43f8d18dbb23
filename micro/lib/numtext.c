/* numtext.c - numbers as the kit writes them for people: two decimals,
 * sizes in B, KiB and MiB, counts with their thousands (util.h). */
#include "util.h"

#include <math.h>
#include <string.h>

const char *num2(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (snprintf(buf, len, "%.2f", v) > 0 && strcmp(buf, "-0.00") == 0)
		snprintf(buf, len, "0.00"); /* a value that rounds to zero has no sign */
	return buf;
}

const char *size_text(long bytes, char *buf, size_t len)
{
	if (bytes >= 1048576L && bytes % 1048576L == 0)
		snprintf(buf, len, "%ld MiB", bytes / 1048576L);
	else if (bytes >= 1048576L)
		snprintf(buf, len, "%.1f MiB", (double)bytes / 1048576.0);
	else if (bytes >= 1024 && bytes % 1024 == 0)
		snprintf(buf, len, "%ld KiB", bytes / 1024);
	else if (bytes >= 1024)
		snprintf(buf, len, "%.1f KiB", (double)bytes / 1024.0);
	else
		snprintf(buf, len, "%ld B", bytes);
	return buf;
}

const char *count_text(size_t n, char *buf, size_t len)
{
	char digits[32];
	size_t nd, i, o = 0;

	snprintf(digits, sizeof digits, "%zu", n);
	nd = strlen(digits);
	for (i = 0; i < nd && o + 2 < len; i++) {
		if (i > 0 && (nd - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}
