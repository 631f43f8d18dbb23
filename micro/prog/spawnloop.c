/* spawnloop - the bare reference for `make bench`: posix_spawn + waitpid of
 * one program, COUNT times in a plain loop, timed the way launch times a
 * launch.  Prints one duration in nanoseconds per line. */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

extern char **environ;

int main(int argc, char **argv)
{
	posix_spawn_file_actions_t fa;
	uint64_t *dur, t0;
	long count, i;
	pid_t pid;
	int st, err;

	progname = "spawnloop";
	if (argc == 2 && strcmp(argv[1], "--help") == 0) {
		printf("usage: spawnloop COUNT PROGRAM [ARG...]\n"
		       "Spawn PROGRAM COUNT times, print each duration in ns.\n");
		return 0;
	}
	if (argc < 3)
		die(EXIT_USAGE, "usage: spawnloop COUNT PROGRAM [ARG...]");
	if (parse_long(argv[1], 1, 10000000, &count) != 0)
		die(EXIT_USAGE, "COUNT '%s' is not a whole number from 1 to 10000000", argv[1]);
	dur = xmalloc(sizeof *dur * (size_t)count);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	for (i = 0; i < count; i++) {
		t0 = now_ns();
		err = posix_spawn(&pid, argv[2], &fa, NULL, argv + 2, environ);
		if (err) {
			errno = err;
			die(EXIT_FAIL, "cannot spawn %s:", argv[2]);
		}
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		dur[i] = now_ns() - t0;
	}
	for (i = 0; i < count; i++)
		printf("%llu\n", (unsigned long long)dur[i]);
	return 0;
}
