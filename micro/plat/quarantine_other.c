/* quarantine_other.c - no com.apple.quarantine off macOS (quarantine.h). */
#include "quarantine.h"

#include <errno.h>

int quarantine_set(const char *path)
{
	(void)path;
	errno = ENOTSUP;
	return -1;
}
