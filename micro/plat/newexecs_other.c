/* newexecs_other.c - no exec listener outside Linux: fanotify is Linux's.
 * On macOS the measure counts the assessments in the unified log instead
 * (scripts/probe/logcount); execwatch still runs and times the command. */
#include "newexecs.h"

#include <stdio.h>
#include <string.h>

int newexecs_start(const char *const *paths, int npaths, char *why, size_t len)
{
	(void)paths;
	(void)npaths;
	snprintf(why, len, "no exec listener here: fanotify is Linux's (on macOS the unified log counts the checks)");
	return -1;
}

int newexecs_pollfds(struct pollfd *pfd, int max)
{
	(void)pfd;
	(void)max;
	return 0;
}

void newexecs_root(pid_t pid)
{
	(void)pid;
}

void newexecs_read(void)
{
}

void newexecs_finish(void)
{
}

void newexecs_result(struct newexecs_seen *out)
{
	memset(out, 0, sizeof *out);
	out->tree = "none";
}
