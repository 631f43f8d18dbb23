/* gatefan_linux.c - the calibration gate's fanotify group (gatefan.h). */
#define _GNU_SOURCE
#include "gatefan.h"
#include "gatecheck.h"
#include "gateout.h"
#include "gateset.h"
#include "gatetree.h"
#include "procfs.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/fanotify.h>
#include <sys/stat.h>

static pid_t self_pid;
static int fan_fd = -1;
static int sig_pipe[2] = { -1, -1 };

void fan_open(void)
{
	self_pid = getpid();
	fan_fd = fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC | FAN_NONBLOCK |
	                       FAN_UNLIMITED_QUEUE | FAN_UNLIMITED_MARKS,
	                       O_RDONLY | O_LARGEFILE | O_CLOEXEC);
	if (fan_fd < 0) {
		int e = errno;
		const char *why =
		    e == EPERM ? " (needs root / CAP_SYS_ADMIN)" :
		    e == ENOSYS ? " (kernel built without CONFIG_FANOTIFY)" :
		    e == EINVAL ? " (kernel lacks CONFIG_FANOTIFY_ACCESS_PERMISSIONS?)" :
		    "";
		die(EXIT_USAGE, "fanotify unavailable: %s%s", strerror(e), why);
	}
}

static void on_signal(int sig)
{
	int saved = errno;
	char c = (char)sig;

	if (write(sig_pipe[1], &c, 1) < 0) {
		/* pipe full: a stop is already pending */
	}
	errno = saved;
}

void fan_catch_stop(void)
{
	if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
		die(EXIT_FAIL, "pipe:");
	catch_signals(on_signal);
	signal(SIGPIPE, SIG_IGN);
}

/* Every folder below the roots, for its children's executions and opens
 * (micro/plat/gatetree_linux.c; the folders made later are marked by a
 * thread of its own, tree_follow). */
void fan_mark_tree(void)
{
	const char *root;

	if (tree_mark(fan_fd, FAN_OPEN_EXEC_PERM | FAN_OPEN_PERM | FAN_EVENT_ON_CHILD, &root) != 0) {
		int e = errno;
		const char *why =
		    e == EINVAL ? " (kernel older than 5.0 lacks FAN_OPEN_EXEC_PERM?)" :
		    e == EPERM ? " (needs root / CAP_SYS_ADMIN)" : "";
		gateout_unready();
		die(EXIT_USAGE, "fanotify unavailable: cannot mark %s: %s%s",
		    root, strerror(e), why);
	}
}

void fan_respond(int fd, uint32_t response)
{
	struct fanotify_response r = { .fd = fd, .response = response };

	while (write(fan_fd, &r, sizeof r) < 0 && errno == EINTR)
		;
	close(fd);
}

void fan_close(void)
{
	close(fan_fd);
}

/* ---- what needs no check ---- */

static bool is_library_name(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n >= 3 && strcmp(base + n - 3, ".so") == 0)
		return true;
	if (n >= 6 && strcmp(base + n - 6, ".dylib") == 0)
		return true;
	/* A versioned soname, libfoo.so.1 or libfoo.so.1.2.3: digits and dots
	 * only after ".so.", so a temporary such as x.so.tmp is no library. */
	for (const char *p = strstr(base, ".so."); p; p = strstr(p + 1, ".so.")) {
		const char *q = p + 4;

		if (!isdigit((unsigned char)*q))
			continue;
		while (isdigit((unsigned char)*q) || *q == '.')
			q++;
		if (*q == '\0')
			return true;
	}
	return false;
}

static bool is_exempt(pid_t pid)
{
	long p = pid;

	if (gs.exempt_pid <= 0)
		return false;
	for (int depth = 0; p > 0 && depth < 4096; depth++) {
		if (p == gs.exempt_pid)
			return true;
		if (p == 1)
			return false;
		p = proc_parent(p);
	}
	return false;
}

/* What an open (not an execution) on fd at path is to the gate: a library
 * or, with --on open, any other file; 0 for one it lets through at once.
 * An empty file is one being created (O_CREAT, or a linker's output):
 * nothing to scan or map yet, so it is neither held nor cached.  --on exec
 * (the default): a plain open (readers, `sh x.sh`, writers) is not held
 * either; only libraries, which a loader maps.  --on open: every open of a
 * file is checked, as a scan-on-open scanner (ClamAV's clamonacc) does. */
static int open_kind(int fd, const char *path, enum obj_kind *kind)
{
	struct stat st;

	if ((!gs.on_open && !is_library_name(path)) || fstat(fd, &st) != 0 ||
	    !S_ISREG(st.st_mode) || st.st_size == 0)
		return 0;
	*kind = is_library_name(path) ? OBJ_LIBRARY : OBJ_OPEN;
	return 1;
}

/* An exempt process's event: let through at once, logged. */
static void let_exempt(const struct fanotify_event_metadata *m, enum obj_kind kind,
		       const char *path)
{
	uint64_t t0 = now_ns(), t1;

	fan_respond(m->fd, FAN_ALLOW);
	t1 = now_ns();
	tally_add(T_EXEMPT);
	gateout_decision(t1, m->pid, kind, path, NULL, "exempt", 0,
			 t1 > t0 ? (double)(t1 - t0) / 1e6 : 0.0, 0.0);
}

/* ---- the reader ---- */

static void handle_event(const struct fanotify_event_metadata *m)
{
	enum obj_kind kind = OBJ_EXEC;
	char *path;

	if (m->fd < 0)
		return; /* no fd, nothing to answer (overflow or kernel error) */
	if (!(m->mask & (FAN_OPEN_EXEC_PERM | FAN_OPEN_PERM))) {
		close(m->fd);
		return;
	}
	if (m->pid == self_pid) {
		fan_respond(m->fd, FAN_ALLOW);
		return;
	}
	path = proc_fd_path(m->fd);
	/* a plain open not held; outside the roots (a marked folder moved
	 * away), or made before the start: let through at once */
	if ((!(m->mask & FAN_OPEN_EXEC_PERM) && !open_kind(m->fd, path, &kind)) ||
	    tree_judge(m->fd, path, kind == OBJ_EXEC) != TREE_NEW) {
		fan_respond(m->fd, FAN_ALLOW);
		free(path);
		return;
	}
	if (is_exempt(m->pid)) {
		let_exempt(m, kind, path);
		free(path);
		return;
	}
	check_queue(m->fd, m->pid, kind, path);
}

static void *reader_main(void *arg)
{
	/* Aligned for struct fanotify_event_metadata. */
	static uint64_t buf[8192];
	struct pollfd pfd[2];

	(void)arg;
	pfd[0].fd = sig_pipe[0];
	pfd[0].events = POLLIN;
	pfd[1].fd = fan_fd;
	pfd[1].events = POLLIN;
	for (;;) {
		ssize_t len;
		const struct fanotify_event_metadata *m;

		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			die(EXIT_FAIL, "poll:");
		}
		if (pfd[0].revents)
			break; /* stop: leave the rest to the kernel (allowed on close) */
		if (!(pfd[1].revents & POLLIN))
			continue;
		len = read(fan_fd, buf, sizeof buf);
		if (len < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			die(EXIT_FAIL, "read fanotify:");
		}
		m = (const struct fanotify_event_metadata *)buf;
		for (; FAN_EVENT_OK(m, len); m = FAN_EVENT_NEXT(m, len)) {
			if (m->vers != FANOTIFY_METADATA_VERSION)
				die(EXIT_FAIL, "fanotify metadata version %d, built for %d",
				    m->vers, FANOTIFY_METADATA_VERSION);
			handle_event(m);
		}
	}
	return NULL;
}

int fan_reader_start(pthread_t *reader)
{
	return pthread_create(reader, NULL, reader_main, NULL);
}
