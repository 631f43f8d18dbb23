/* atomic.c - a file written whole or not at all: a temporary beside it,
 * synced and renamed over it (util.h). */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int atomic_open(struct atomic_file *af, const char *path)
{
	size_t n = strlen(path) + 16;
	int fd;

	af->path = xstrdup(path);
	af->tmp = xmalloc(n);
	snprintf(af->tmp, n, "%s.tmp.XXXXXX", path);
	fd = mkstemp(af->tmp);
	if (fd < 0) {
		free(af->path);
		free(af->tmp);
		af->path = af->tmp = NULL;
		return -1;
	}
	fchmod(fd, 0644);
	fcntl(fd, F_SETFD, FD_CLOEXEC); /* not for the programs a writer launches */
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		close(fd);
		unlink(af->tmp);
		return -1;
	}
	return 0;
}

int atomic_commit(struct atomic_file *af)
{
	int rc = 0;

	if (fflush(af->fp) != 0 || ferror(af->fp) || fsync(fileno(af->fp)) != 0)
		rc = -1;
	if (fclose(af->fp) != 0)
		rc = -1;
	af->fp = NULL;
	if (rc == 0 && rename(af->tmp, af->path) != 0)
		rc = -1;
	if (rc != 0) {
		int e = errno; /* the caller reports why */

		unlink(af->tmp);
		errno = e;
	}
	free(af->tmp);
	free(af->path);
	af->tmp = af->path = NULL;
	return rc;
}

void atomic_abort(struct atomic_file *af)
{
	int e = errno; /* the caller reports why */

	if (af->fp)
		fclose(af->fp);
	if (af->tmp)
		unlink(af->tmp);
	free(af->tmp);
	free(af->path);
	af->fp = NULL;
	af->tmp = af->path = NULL;
	errno = e;
}
