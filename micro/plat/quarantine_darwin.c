/* quarantine_darwin.c - com.apple.quarantine set with setxattr(2), macOS's
 * six-argument form (quarantine.h). */
#include "quarantine.h"

#include <stdint.h>
#include <string.h>

/* <sys/xattr.h>, declared here: the Apple headers of the cross toolchain
 * (zig cc) lack the file, while libSystem has the function. */
int setxattr(const char *path, const char *name, const void *value, size_t size,
	     uint32_t position, int options);

int quarantine_set(const char *path)
{
	char val[64];

	quarantine_value(val, sizeof val, time(NULL));
	return setxattr(path, QUARANTINE_XATTR, val, strlen(val), 0, 0);
}
