/* procstate_other.c - procstate.h where there is no /proc (macOS):
 * `ps -o stat=,time=,wchan= -p PID` (no root), read through a pipe with a
 * bound of 2 s; ps is a system program, outside any first-launch check. */
#define _POSIX_C_SOURCE 200809L
#include "procstate.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define PS_BOUND_MS 2000

static long last_ps; /* the ps run_ps started: a child of ours too */

/* "[[dd-]hh:]mm:ss[.cc]" as ps prints a CPU time, in seconds; -1 if not. */
static double ps_time(const char *s)
{
	double parts[4] = { 0, 0, 0, 0 }, v;
	int n = 0, days = 0;
	const char *p = s, *dash = strchr(s, '-');
	char *end;

	if (dash) {
		days = atoi(s);
		p = dash + 1;
	}
	while (*p && n < 3) {
		v = strtod(p, &end);
		if (end == p)
			return -1;
		parts[n++] = v;
		p = end;
		if (*p == ':')
			p++;
		else
			break;
	}
	if (n == 0 || *p)
		return -1;
	v = 0;
	for (int i = 0; i < n; i++)
		v = v * 60 + parts[i];
	return v + days * 86400.0;
}

/* Run ps with argv, its output (at most len - 1 bytes) into buf, within
 * PS_BOUND_MS; returns the bytes read, -1 when ps could not run. */
static long run_ps(char *const argv[], char *buf, size_t len)
{
	posix_spawn_file_actions_t fa;
	int fds[2], st, err;
	size_t got = 0;
	pid_t ps;
	uint64_t deadline = now_ns() + (uint64_t)PS_BOUND_MS * 1000000u;

	if (pipe(fds) != 0)
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	err = posix_spawnp(&ps, "ps", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (err != 0) {
		close(fds[0]);
		return -1;
	}
	last_ps = (long)ps;
	for (;;) {
		struct pollfd pfd = { fds[0], POLLIN, 0 };
		uint64_t now = now_ns();
		ssize_t n;

		if (now >= deadline)
			break;
		if (poll(&pfd, 1, (int)((deadline - now) / 1000000u) + 1) <= 0)
			continue;
		n = read(fds[0], buf + got, len - 1 - got);
		if (n <= 0)
			break;
		got += (size_t)n;
		if (got >= len - 1)
			break;
	}
	close(fds[0]);
	/* ps that passed its bound is ended; reaped either way */
	if (waitpid(ps, &st, WNOHANG) == 0) {
		kill(ps, SIGKILL);
		while (waitpid(ps, &st, 0) < 0 && errno == EINTR)
			;
	}
	buf[got] = '\0';
	return (long)got;
}

long procstate_thread(void)
{
	return 0;
}

long procstate_child(long thread, const long *known, int n)
{
	char *argv[] = { "ps", "-A", "-o", "pid=,ppid=", NULL };
	static char buf[1 << 16];
	long me = (long)getpid();
	char *line, *save = NULL;

	(void)thread;
	if (run_ps(argv, buf, sizeof buf) <= 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		long pid, ppid;
		int k, mine = 1;

		if (sscanf(line, " %ld %ld", &pid, &ppid) != 2 || ppid != me || pid == last_ps)
			continue;
		for (k = 0; k < n; k++)
			if (known[k] == pid)
				mine = 0;
		if (mine)
			return pid;
	}
	return -1;
}

int procstate_read(long pid, struct procstate *out)
{
	char pidarg[24], buf[256];
	char *argv[] = { "ps", "-o", "stat=,time=,wchan=", "-p", pidarg, NULL };
	char state[16], tm[32], wchan[64];
	int nf;

	procstate_unknown(out, "ps");
	snprintf(pidarg, sizeof pidarg, "%ld", pid);
	if (run_ps(argv, buf, sizeof buf) <= 0)
		return -1;
	nf = sscanf(buf, " %15s %31s %63s", state, tm, wchan);
	if (nf < 2)
		return -1;
	snprintf(out->state, sizeof out->state, "%s", state);
	out->cpu_s = ps_time(tm);
	if (nf == 3 && strcmp(wchan, "-") != 0)
		snprintf(out->wchan, sizeof out->wchan, "%s", wchan);
	return 0;
}
