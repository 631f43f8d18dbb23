/* clonefile_linux.c - ioctl(FICLONE) where the file system has reflinks
 * (Btrfs, XFS, bcachefs): EOPNOTSUPP on ext4 and tmpfs, EXDEV across file
 * systems (clonefile.h). */
#define _GNU_SOURCE
#include "clonefile.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

int clone_file(const char *src, const char *dst, const char **call)
{
	int in, out, e;

	*call = "open";
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
	if (out < 0) {
		e = errno;
		close(in);
		errno = e;
		return -1;
	}
	*call = "FICLONE";
	if (ioctl(out, FICLONE, in) != 0)
		goto fail;
	*call = "fchmod";
	if (fchmod(out, 0755) != 0)
		goto fail;
	*call = "close";
	close(in);
	if (close(out) != 0) {
		e = errno;
		unlink(dst);
		errno = e;
		return -1;
	}
	return 0;
fail:
	e = errno;
	close(in);
	close(out);
	unlink(dst);
	errno = e;
	return -1;
}
