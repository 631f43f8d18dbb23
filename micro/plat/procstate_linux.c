/* procstate_linux.c - procstate.h on Linux: /proc/PID/stat's state and
 * CPU time, /proc/PID/wchan (no root needed for one's own child). */
#define _GNU_SOURCE
#include "procstate.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static ssize_t slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

int procstate_read(long pid, struct procstate *out)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st;
	char state;
	long hz = sysconf(_SC_CLK_TCK);

	procstate_unknown(out, "proc");
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if (slurp(path, buf, sizeof buf) <= 0)
		return -1;
	/* "pid (comm) state ppid ... utime(14) stime(15)": comm may hold ')' */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &state, &ut, &st) != 3)
		return -1;
	snprintf(out->state, sizeof out->state, "%c", state);
	if (hz > 0)
		out->cpu_s = (double)(ut + st) / (double)hz;
	snprintf(path, sizeof path, "/proc/%ld/wchan", pid);
	if (slurp(path, buf, sizeof buf) > 0 && strcmp(buf, "0") != 0) {
		size_t n = strcspn(buf, " \t\n");

		if (n >= sizeof out->wchan)
			n = sizeof out->wchan - 1;
		if (n > 0) {
			memcpy(out->wchan, buf, n);
			out->wchan[n] = '\0';
		}
	}
	return 0;
}

long procstate_thread(void)
{
	return (long)syscall(SYS_gettid);
}

static int is_known(long pid, const long *known, int n)
{
	for (int i = 0; i < n; i++)
		if (known[i] == pid)
			return 1;
	return 0;
}

long procstate_child(long thread, const long *known, int n)
{
	char path[96], buf[4096], *p, *end;
	long me = (long)getpid(), found = -1;
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof path, "/proc/self/task/%ld/children", thread);
	if (thread > 0 && slurp(path, buf, sizeof buf) >= 0) {
		for (p = buf;; p = end) {
			long pid = strtol(p, &end, 10);

			if (end == p)
				break;
			if (!is_known(pid, known, n))
				return pid;
		}
		return -1;
	}
	/* no children file (CONFIG_PROC_CHILDREN off): any child of ours */
	d = opendir("/proc");
	if (!d)
		return -1;
	while (found < 0 && (e = readdir(d)) != NULL) {
		long pid = strtol(e->d_name, &end, 10), ppid;

		if (*end || pid <= 0 || is_known(pid, known, n))
			continue;
		snprintf(path, sizeof path, "/proc/%ld/stat", pid);
		if (slurp(path, buf, sizeof buf) <= 0 || !(p = strrchr(buf, ')')))
			continue;
		if (sscanf(p + 1, " %*c %ld", &ppid) == 1 && ppid == me)
			found = pid;
	}
	closedir(d);
	return found;
}
