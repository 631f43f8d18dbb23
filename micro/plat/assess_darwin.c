/* assess_darwin.c - spctl -a -t exec, then gktool scan where it exists
 * (assess.h).  Each is run with its output on /dev/null, timed, and
 * killed at its bound. */
#define _DARWIN_C_SOURCE
#include "assess.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define SPCTL "/usr/sbin/spctl"
#define GKTOOL "/usr/bin/gktool"

/* Run argv (argv[0] an absolute path) to its end or its bound: the step. */
static void run_step(char *const argv[], const char *tool, double bound_s, struct assess_step *s)
{
	posix_spawn_file_actions_t fa;
	struct timespec ts = { 0, 2000000 };
	uint64_t t0 = now_ns(), bound = (uint64_t)(bound_s * 1e9);
	pid_t pid;
	int st = 0, err;

	s->tool = tool;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	err = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err != 0) {
		s->ms = (double)(now_ns() - t0) / 1e6;
		s->status = 127;
		return;
	}
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			st = 0;
			break;
		}
		if (now_ns() - t0 > bound) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
			s->ms = (double)(now_ns() - t0) / 1e6;
			s->status = 124;
			return;
		}
		nanosleep(&ts, NULL);
	}
	s->ms = (double)(now_ns() - t0) / 1e6;
	s->status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
}

int assess_file(const char *path, double bound_s, struct assess_step out[ASSESS_MAX_STEPS])
{
	char *spctl[] = { SPCTL, "-a", "-t", "exec", (char *)path, NULL };
	char *gktool[] = { GKTOOL, "scan", (char *)path, NULL };

	run_step(spctl, "spctl", bound_s, &out[0]);
	if (access(GKTOOL, X_OK) != 0) {
		out[1].tool = "gktool";
		out[1].ms = 0;
		out[1].status = -1; /* absent: macOS before 14.4 */
		return 2;
	}
	run_step(gktool, "gktool", bound_s, &out[1]);
	return 2;
}
