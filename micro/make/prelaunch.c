/* prelaunch.c - a launch while making (prelaunch.h). */
#define _POSIX_C_SOURCE 200809L
#include "prelaunch.h"
#include "made.h"
#include "mkrun.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

double prelaunch_bound(void)
{
	const char *hs = getenv("EXECLAG_HANG_S");
	double bound = 30;

	if (hs && *hs && parse_double(hs, 0.1, 3600, &bound) != 0)
		die(EXIT_USAGE, "EXECLAG_HANG_S '%s' is not a number of seconds from 0.1 to 3600", hs);
	return bound;
}

/* The child: its own process group, default signals, /dev/null for its
 * standard files, then path. */
static void run_child(const char *path)
{
	char *argv[2] = { (char *)path, NULL };
	int fd;

	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
	}
	execv(argv[0], argv);
	_exit(127);
}

/* Kill pid's process group and pid; whether it was reaped within 2 s. */
static int kill_reaped(pid_t pid)
{
	uint64_t t;
	int st;

	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	for (t = now_ns(); now_ns() - t < 2000000000u;) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return 1;
		mk_sleep_ms(5);
	}
	return 0;
}

void prelaunch(const char *path)
{
	double bound = prelaunch_bound();
	uint64_t t0 = now_ns();
	pid_t pid, r;
	int st;

	pid = fork();
	if (pid < 0)
		die(EXIT_FAIL, "cannot launch %s: fork:", path);
	if (pid == 0)
		run_child(path);
	setpgid(pid, pid);
	for (;;) {
		r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			return;
		if (r < 0 && errno != EINTR)
			die(EXIT_FAIL, "waitpid:");
		if (made_signal()) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			return; /* the caller sees the signal */
		}
		if (now_ns() - t0 > (uint64_t)(bound * 1e9))
			break;
		mk_sleep_ms(2);
	}
	if (!kill_reaped(pid))
		warnx_("process %ld did not end 2 s after SIGKILL: left behind", (long)pid);
	warnx_("hang: %s did not end within %g s: killed", path, bound);
	exit(4); /* the exit handler removes what was made */
}
