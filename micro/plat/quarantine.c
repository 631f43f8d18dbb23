/* quarantine.c - the value of com.apple.quarantine, on every platform
 * (quarantine.h). */
#include "quarantine.h"

#include <stdio.h>

int quarantine_value(char *buf, size_t len, time_t t)
{
	return snprintf(buf, len, "0081;%lx;execlag;", (unsigned long)t);
}
