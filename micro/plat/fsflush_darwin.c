/* fsflush_darwin.c - macOS has no syncfs(2): sync(2) starts the writing of
 * every dirty buffer, without waiting for it to end (sync(2) man page), which
 * is as close as macOS comes without opening the files themselves. */
#include "fsflush.h"

#include <unistd.h>

int fsflush_dir(const char *dir)
{
	(void)dir;
	sync();
	return 0;
}
