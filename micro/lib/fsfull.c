/* fsfull.c - whether a failed write or compile failed for want of space,
 * and then one line that says so (util.h). */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/statvfs.h>

/* Less than this free is full: a failed linker has removed its output by
 * the time we look, and what it freed is no more than that. */
#define FS_FULL_BYTES (1024.0 * 1024.0)

int fs_full(const char *dir)
{
	struct statvfs sv;

	if (statvfs(dir, &sv) != 0)
		return 0;
	return (double)sv.f_bavail * (double)sv.f_frsize < FS_FULL_BYTES ||
	       (sv.f_files > 0 && sv.f_favail == 0);
}

void die_if_full(int status, const char *dir)
{
	int e = errno;

#ifdef EDQUOT
	if (e == EDQUOT)
		e = ENOSPC;
#endif
	/* no errno (a stdio or library failure): the disk decides */
	if (e == ENOSPC || (e == 0 && fs_full(dir)))
		die(status, "no space left in %s", dir);
	errno = e;
}

void die_if_compile_full(int status, const char *workdir)
{
	const char *tmpdir = getenv("TMPDIR");

	if (fs_full(workdir))
		die(status, "no space left in %s", workdir);
	if (!tmpdir || !*tmpdir)
		tmpdir = "/tmp";
	if (fs_full(tmpdir))
		die(status, "no space left in %s (the compiler's temporaries)", tmpdir);
}
