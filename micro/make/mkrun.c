/* mkrun.c - the run mkfresh makes, and the names of its files (mkrun.h). */
#define _POSIX_C_SOURCE 200809L
#include "mkrun.h"
#include "util.h"

#include <time.h>
#include <unistd.h>

struct mkrun mk;

static unsigned long nonce_counter;

char *slot_stem(long i)
{
	return xasprintf("%s-%04ld", mk.prefix, i);
}

char *slot_path(long i, const char *ext)
{
	return xasprintf("%s/%s-%04ld%s", mk.workdir, mk.prefix, i, ext);
}

char *run_path(const char *what)
{
	return xasprintf("%s/%s-%s", mk.workdir, mk.prefix, what);
}

char *make_nonce(const char *stem)
{
	return xasprintf("execlag:%s:%ld:%lld:%llu:%lu", stem, (long)getpid(),
			 (long long)time(NULL), (unsigned long long)now_ns(),
			 ++nonce_counter);
}

void made_before(const char *path)
{
	if (!is_exec_file(path))
		die(EXIT_USAGE, "--first %ld: no %s: the run that made artifact 0 "
		    "makes it, into the same WORKDIR with the same PREFIX", mk.first, path);
}

void mk_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}
