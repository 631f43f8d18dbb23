/* spawnloop - the bare reference for `make bench`: posix_spawn + waitpid of
 * one program, COUNT times in a plain loop, timed the way launch times a
 * launch.  Prints one duration in nanoseconds per line. */
#define _POSIX_C_SOURCE 200809L
#include "opts.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

extern char **environ;

static void usage(FILE *f)
{
	fputs("usage: spawnloop COUNT PROGRAM [ARG...]\n"
	      "Spawn PROGRAM COUNT times, print each duration in ns.\n", f);
}

int main(int argc, char **argv)
{
	static const struct opt none[] = { OPT_END }; /* COUNT and PROGRAM only */
	posix_spawn_file_actions_t fa;
	uint64_t *dur, t0;
	long count, i;
	char **prog;
	pid_t pid;
	int st, err, at;

	progname = "spawnloop";
	at = opts_parse(argc, argv, none, OPTS_AFTER, usage);
	if (argc - at < 2)
		die(EXIT_USAGE, "COUNT and PROGRAM are required (try --help)");
	if (parse_long(argv[at], 1, 10000000, &count) != 0)
		die(EXIT_USAGE, "COUNT '%s' is not a whole number from 1 to 10000000", argv[at]);
	prog = argv + at + 1;
	dur = xmalloc(sizeof *dur * (size_t)count);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	for (i = 0; i < count; i++) {
		t0 = now_ns();
		err = posix_spawn(&pid, prog[0], &fa, NULL, prog, environ);
		if (err) {
			errno = err;
			die(EXIT_FAIL, "cannot spawn %s:", prog[0]);
		}
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		dur[i] = now_ns() - t0;
	}
	for (i = 0; i < count; i++)
		printf("%llu\n", (unsigned long long)dur[i]);
	return 0;
}
