/* newexecs_linux.c - which new programs the command executed, on Linux.
 *
 * fanotify(7): a notification group (FAN_CLASS_NOTIF; "Permission decisions
 * before the file is accessed are not possible", fanotify_init(2)) with a
 * FAN_MARK_FILESYSTEM mark for FAN_OPEN_EXEC on each watched file system:
 * the kernel queues one event per execve(2) of a file there, from any
 * process, and the exec does not wait for it.  An interpreter that only
 * reads a script (`sh x.sh`) raises none; the dynamic linker raises one
 * more, for an old file.
 *
 * Whose: the proc connector's fork events (netlink, root) give every
 * process the command's tree makes, even one gone before its exec event is
 * read, and every other process's, so that a number a process of the tree
 * had is taken from the tree when another process's child gets it (a
 * machine whose pid_max is 32768 gives numbers again within minutes);
 * without them, /proc's parent links of a process still running.
 *
 * New: the executed file's birth time (statx STATX_BTIME; a zero birth
 * time is an old file, as the images of some systems carry) at or after
 * the release of the command, on the coarse clock the file systems stamp
 * with; where a file system keeps none, its ctime (which chmod and link
 * also move: an old file chmod'ed during the run counts as new).
 *
 * A queue overflow (FAN_Q_OVERFLOW) is said: the counts are then lower
 * bounds. */
#define _GNU_SOURCE
#include "newexecs.h"
#include "keyset.h"
#include "procfs.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <sys/fanotify.h>
#include <sys/socket.h>
#include <sys/stat.h>

#define MAX_FS 8
#define MAX_LISTED 10000 /* program lines written; the counts stay exact */

static int fan_fd = -1, nl_fd = -1;
static int nl_ok;        /* the connector reported our own fork of the root */
static int nl_lost;      /* it dropped messages (ENOBUFS) */
static pid_t root_pid;
static struct timespec start_rt; /* coarse realtime at the release */
static uint64_t start_mono;

static struct { dev_t dev; char *path; int mount_only; } fs[MAX_FS];
static int n_fs;

static struct newexecs_counts count;

static struct keyset tree;  /* tgids of the command's processes */
static struct keyset seen;  /* new files executed: dev, inode, birth */

/* ---- the listed programs ------------------------------------------------- */

static struct newexecs_program *list;
static size_t n_list, cap_list;

/* The size of every new file executed, at its first launch (statx on the
 * event's descriptor: the file that ran, even if it is gone by the end),
 * for the measure's median, 90th percentile and largest. */
static uint64_t *sizes;
static size_t n_sizes, cap_sizes;

/* ---- the proc connector -------------------------------------------------- */

static void nl_open(void)
{
	struct sockaddr_nl sa;
	/* nlmsghdr, cn_msg (whose data ends it), then the operation */
	union {
		struct nlmsghdr h;
		char b[NLMSG_LENGTH(sizeof(struct cn_msg) + sizeof(enum proc_cn_mcast_op))];
	} msg;
	struct cn_msg *cn;
	enum proc_cn_mcast_op op = PROC_CN_MCAST_LISTEN;
	int sz = 8 << 20;

	nl_fd = socket(PF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_CONNECTOR);
	if (nl_fd < 0)
		return;
	setsockopt(nl_fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof sz);
	memset(&sa, 0, sizeof sa);
	sa.nl_family = AF_NETLINK;
	sa.nl_groups = CN_IDX_PROC;
	memset(&msg, 0, sizeof msg);
	msg.h.nlmsg_len = NLMSG_LENGTH(sizeof *cn + sizeof op);
	msg.h.nlmsg_type = NLMSG_DONE;
	cn = NLMSG_DATA(&msg.h);
	cn->id.idx = CN_IDX_PROC;
	cn->id.val = CN_VAL_PROC;
	cn->len = sizeof op;
	memcpy(cn->data, &op, sizeof op);
	if (bind(nl_fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
	    send(nl_fd, &msg, msg.h.nlmsg_len, 0) < 0) {
		close(nl_fd);
		nl_fd = -1;
	}
}

/* Every fork message queued now: a child of the tree joins it. */
static void nl_drain(void)
{
	union {
		struct nlmsghdr h;
		char b[8192];
	} buf;

	if (nl_fd < 0)
		return;
	for (;;) {
		ssize_t n = recv(nl_fd, buf.b, sizeof buf.b, 0);
		struct nlmsghdr *h;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				nl_lost = 1;
				continue;
			}
			return; /* EAGAIN: nothing more */
		}
		for (h = &buf.h; NLMSG_OK(h, (unsigned)n); h = NLMSG_NEXT(h, n)) {
			struct cn_msg *cn = NLMSG_DATA(h);
			struct proc_event evbuf, *ev = &evbuf;
			size_t len;

			if (h->nlmsg_type == NLMSG_ERROR || h->nlmsg_type == NLMSG_NOOP)
				continue;
			/* cn->data sits at a 4-byte offset; the event holds 8-byte
			 * fields, so it is copied out rather than read in place */
			memset(&evbuf, 0, sizeof evbuf);
			len = cn->len < sizeof evbuf ? cn->len : sizeof evbuf;
			memcpy(&evbuf, cn->data, len);
			if (ev->what != PROC_EVENT_FORK)
				continue;
			if ((pid_t)ev->event_data.fork.child_tgid == root_pid &&
			    (pid_t)ev->event_data.fork.parent_tgid == getpid()) {
				nl_ok = 1;
				continue;
			}
			if (keyset_has(&tree, (uint64_t)ev->event_data.fork.parent_tgid))
				keyset_add(&tree, (uint64_t)ev->event_data.fork.child_tgid);
			else
				/* a process of the command's that ended gave its
				 * number to another's: a machine that forks much
				 * and counts to 32768 (pid_max) does in minutes */
				keyset_del(&tree, (uint64_t)ev->event_data.fork.child_tgid);
		}
	}
}

/* ---- /proc parent links (a process still running) ------------------------ */

/* 1 in the tree, 0 outside, -1 cannot tell (gone). */
static int in_tree(long pid)
{
	long p = pid;
	int depth;

	if (keyset_has(&tree, (uint64_t)pid))
		return 1;
	if (nl_ok && !nl_lost)
		return 0; /* every fork of the tree was seen */
	for (depth = 0; p > 1 && depth < 4096; depth++) {
		if (keyset_has(&tree, (uint64_t)p)) {
			keyset_add(&tree, (uint64_t)pid);
			return 1;
		}
		p = proc_parent(p);
		if (p < 0)
			return depth == 0 ? -1 : 0;
	}
	return 0;
}

/* ---- events -------------------------------------------------------------- */

static int after_start(const struct statx_timestamp *t)
{
	if ((long long)t->tv_sec != (long long)start_rt.tv_sec)
		return (long long)t->tv_sec > (long long)start_rt.tv_sec;
	return (long)t->tv_nsec >= start_rt.tv_nsec;
}

static void on_exec(const struct fanotify_event_metadata *m)
{
	struct statx sx;
	const char *how;
	int fresh, whose;
	uint64_t key;

	if (statx(m->fd, "", AT_EMPTY_PATH, STATX_BTIME | STATX_CTIME | STATX_INO | STATX_SIZE, &sx) != 0)
		return;
	if (sx.stx_mask & STATX_BTIME) {
		how = "btime";
		/* a zero birth time is an old file's, not an unknown one */
		fresh = (sx.stx_btime.tv_sec != 0 || sx.stx_btime.tv_nsec != 0) &&
			after_start(&sx.stx_btime);
	} else {
		how = "ctime";
		fresh = after_start(&sx.stx_ctime);
	}
	whose = in_tree(m->pid);
	if (whose == 0) {
		if (fresh)
			count.outside++;
		return;
	}
	if (!fresh) {
		if (whose > 0)
			count.old_execs++;
		return;
	}
	if (whose < 0) {
		count.unplaced++;
		return;
	}
	count.fresh_execs++;
	key = ((uint64_t)sx.stx_dev_major << 52) ^ ((uint64_t)sx.stx_dev_minor << 40) ^
	      sx.stx_ino * 0x9e3779b97f4a7c15ull ^
	      (uint64_t)(strcmp(how, "btime") == 0 ? sx.stx_btime.tv_nsec : sx.stx_ctime.tv_nsec);
	if (!keyset_add(&seen, key))
		return; /* its first launch was counted */
	count.fresh_launches++;
	if (sx.stx_mask & STATX_SIZE) {
		if (n_sizes == cap_sizes) {
			cap_sizes = cap_sizes ? cap_sizes * 2 : 256;
			sizes = xrealloc(sizes, cap_sizes * sizeof *sizes);
		}
		sizes[n_sizes++] = sx.stx_size;
	}
	if (how[0] == 'b')
		count.by_btime++;
	else
		count.by_ctime++;
	if (n_list < MAX_LISTED) {
		if (n_list == cap_list) {
			cap_list = cap_list ? cap_list * 2 : 64;
			list = xrealloc(list, cap_list * sizeof *list);
		}
		list[n_list].ms = (double)(now_ns() - start_mono) / 1e6;
		list[n_list].pid = m->pid;
		list[n_list].how = how;
		list[n_list].path = proc_fd_path(m->fd);
		n_list++;
	}
}

static void fan_drain(void)
{
	static uint64_t buf[4096]; /* aligned for the metadata */

	if (fan_fd < 0)
		return;
	for (;;) {
		ssize_t len = read(fan_fd, buf, sizeof buf);
		const struct fanotify_event_metadata *m;

		if (len < 0 && errno == EINTR)
			continue;
		if (len <= 0)
			return;
		/* the forks before these execs are queued already */
		nl_drain();
		m = (const struct fanotify_event_metadata *)buf;
		for (; FAN_EVENT_OK(m, len); m = FAN_EVENT_NEXT(m, len)) {
			if (m->vers != FANOTIFY_METADATA_VERSION)
				continue;
			if (m->mask & FAN_Q_OVERFLOW)
				count.overflow = 1;
			if (m->fd >= 0) {
				if (m->mask & FAN_OPEN_EXEC)
					on_exec(m);
				close(m->fd);
			}
		}
	}
}

/* ---- interface ------------------------------------------------------------ */

int newexecs_start(const char *const *paths, int npaths, char *why, size_t len)
{
	int i;
	const char *off = getenv("EXECLAG_FANOTIFY");

	if (off && strcmp(off, "off") == 0) {
		snprintf(why, len, "fanotify turned off (EXECLAG_FANOTIFY=off)");
		return -1;
	}
	fan_fd = fanotify_init(FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK | FAN_UNLIMITED_QUEUE,
			       O_RDONLY | O_LARGEFILE | O_CLOEXEC);
	if (fan_fd < 0 && errno == EPERM) {
		snprintf(why, len, "no root: fanotify needs CAP_SYS_ADMIN to watch a file system (run as root, e.g. with sudo)");
		return -1;
	}
	if (fan_fd < 0) {
		snprintf(why, len, "fanotify_init failed: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < npaths; i++) {
		struct stat st;
		int j, mount_only = 0;

		if (stat(paths[i], &st) != 0) {
			if (i > 0)
				continue; /* a TMPDIR that is not there holds no program */
			snprintf(why, len, "cannot watch %s: %s", paths[i], strerror(errno));
			goto fail;
		}
		for (j = 0; j < n_fs; j++)
			if (fs[j].dev == st.st_dev)
				break;
		if (j < n_fs || n_fs == MAX_FS)
			continue;
		if (fanotify_mark(fan_fd, FAN_MARK_ADD | FAN_MARK_FILESYSTEM, FAN_OPEN_EXEC,
				  AT_FDCWD, paths[i]) != 0) {
			/* before Linux 4.20 only a mount could be marked */
			if (errno != EINVAL ||
			    fanotify_mark(fan_fd, FAN_MARK_ADD | FAN_MARK_MOUNT, FAN_OPEN_EXEC,
					  AT_FDCWD, paths[i]) != 0) {
				snprintf(why, len, "fanotify_mark %s failed: %s%s", paths[i],
					 strerror(errno),
					 errno == EINVAL ? " (FAN_OPEN_EXEC needs Linux 5.0)" : "");
				goto fail;
			}
			mount_only = 1;
		}
		fs[n_fs].dev = st.st_dev;
		fs[n_fs].path = xstrdup(paths[i]);
		fs[n_fs].mount_only = mount_only;
		n_fs++;
	}
	nl_open();
	return 0;
fail:
	close(fan_fd);
	fan_fd = -1;
	return -1;
}

int newexecs_pollfds(struct pollfd *pfd, int max)
{
	if (fan_fd < 0 || max < 1)
		return 0;
	pfd[0].fd = fan_fd;
	pfd[0].events = POLLIN;
	return 1;
}

void newexecs_root(pid_t pid)
{
	int i;

	root_pid = pid;
	keyset_add(&tree, (uint64_t)pid);
	/* the connector's own report of this fork shows it speaks of the
	 * pids this process sees (not so in another pid namespace) */
	for (i = 0; i < 100 && nl_fd >= 0 && !nl_ok; i++) {
		struct pollfd p = { nl_fd, POLLIN, 0 };

		nl_drain();
		if (!nl_ok)
			poll(&p, 1, 10);
	}
	if (!nl_ok && nl_fd >= 0) {
		close(nl_fd);
		nl_fd = -1;
	}
	clock_gettime(CLOCK_REALTIME_COARSE, &start_rt);
	start_mono = now_ns();
}

void newexecs_read(void)
{
	fan_drain();
	nl_drain();
}

void newexecs_finish(void)
{
	/* the last execs were queued before the command's exit was */
	fan_drain();
	if (fan_fd >= 0)
		close(fan_fd);
	if (nl_fd >= 0)
		close(nl_fd);
	fan_fd = nl_fd = -1;
}

void newexecs_result(struct newexecs_seen *out)
{
	static struct newexecs_fs view[MAX_FS];
	int j;

	memset(out, 0, sizeof *out);
	for (j = 0; j < n_fs; j++) {
		view[j].path = fs[j].path;
		view[j].mount_only = fs[j].mount_only;
	}
	out->fs = view;
	out->n_fs = n_fs;
	out->tree = nl_ok ? (nl_lost ? "proc connector, lost messages: /proc for the rest"
				     : "proc connector")
			  : "/proc parent links (no proc connector)";
	out->count = count;
	out->sizes = sizes;
	out->n_sizes = n_sizes;
	out->programs = list;
	out->n_programs = n_list;
}
