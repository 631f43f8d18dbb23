/* fsflush_linux.c - syncfs(2) through a descriptor of the folder itself:
 * the folder is opened, none of its files (fanotify reports opens of a
 * marked folder's files, not of the folder, unless FAN_ONDIR is asked for). */
#define _GNU_SOURCE
#include "fsflush.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int fsflush_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc, e;

	if (fd < 0)
		return -1;
	rc = syncfs(fd);
	e = errno;
	close(fd);
	errno = e;
	return rc;
}
