/* responsible_other.c - outside macOS no process is "responsible" for
 * another in the sense a Developer Tools grant follows. */
#include "responsible.h"

#include <stdio.h>

const char *responsible_platform(char *path, size_t len, char *why, size_t wlen)
{
	(void)path;
	(void)len;
	if (why && wlen)
		snprintf(why, wlen, "not macOS: no responsible process");
	return "n/a";
}
