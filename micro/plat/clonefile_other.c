/* clonefile_other.c - no clone call where the platform has none known
 * (clonefile.h). */
#include "clonefile.h"

#include <errno.h>

int clone_file(const char *src, const char *dst, const char **call)
{
	(void)src;
	(void)dst;
	*call = "clone";
	errno = ENOTSUP;
	return -1;
}
