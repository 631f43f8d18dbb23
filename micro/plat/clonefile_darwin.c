/* clonefile_darwin.c - clonefile(2) on APFS (clonefile.h). */
#define _DARWIN_C_SOURCE
#include "clonefile.h"

#include <errno.h>
#include <sys/clonefile.h>
#include <sys/stat.h>
#include <unistd.h>

int clone_file(const char *src, const char *dst, const char **call)
{
	int e;

	*call = "clonefile";
	if (clonefile(src, dst, 0) != 0)
		return -1;
	*call = "chmod";
	if (chmod(dst, 0755) != 0) {
		e = errno;
		unlink(dst);
		errno = e;
		return -1;
	}
	return 0;
}
