/* devtoolsauth_other.c - outside macOS there is no Developer Tools list. */
#include "devtoolsauth.h"

#include <stdio.h>

const char *devtools_platform(char *why, size_t len)
{
	if (why && len)
		snprintf(why, len, "not macOS: no Developer Tools authorisation");
	return "n/a";
}
