/* gatetree_linux.c - gatetree.h: the calibration gate's tree (fanotify).
 *
 * Marks: an inode mark on every folder below each root, in the gate's
 * permission group (FAN_OPEN_EXEC_PERM, FAN_OPEN_PERM, FAN_EVENT_ON_CHILD:
 * its children's executions and opens wait for the gate's answer), and in
 * a notification group of this file's own (FAN_CREATE | FAN_MOVED_TO |
 * FAN_ONDIR with FAN_REPORT_DFID_NAME, Linux 5.9: "the directory entry
 * modification events" report the parent folder's file handle and the
 * entry's name, fanotify_init(2)).  A folder made or moved in below a root
 * is opened through that handle (open_by_handle_at(2)) and marked, with
 * every folder it already holds, by one thread.  A permission group cannot
 * report file handles (fanotify_init refuses FAN_REPORT_FID with
 * FAN_CLASS_CONTENT), hence two groups.
 *
 * The one gap: a program executed in a new folder before that thread has
 * marked it passes unheld.  Between a folder's creation and a program's
 * execution there lies at least the making of the program (a compiler, a
 * copy); the thread answers in microseconds.  So that the log stays the
 * truth even then, a third group (notification only, nothing waits) holds
 * a FAN_OPEN_EXEC mark on each root's file system, read by a thread of its
 * own (not the gate's reader: the machine's every execution must never
 * queue ahead of a permission event): an execution of a new file below a
 * root that raised no permission event first is one the gate let pass
 * unheld, and gate.c logs it so ("unheld").  The permission event of an
 * execution always comes first: the notification is raised only once the
 * open, and so the gate's answer, is done, and the reader has noted the
 * file before it answered.
 *
 * New: the file's birth time (statx STATX_BTIME; a zero one is an old
 * file's) at or after the gate's start on the coarse realtime clock file
 * systems stamp with; where a file system keeps none, its ctime, which
 * chmod also moves.  A file made within the clock's tick before the start
 * can count as new. */
#define _GNU_SOURCE
#include "gatetree.h"
#include "keyset.h"
#include "procfs.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/fanotify.h>
#include <sys/stat.h>
#include <sys/statfs.h>

static char *roots[TREE_MAX_ROOTS];
static size_t root_len[TREE_MAX_ROOTS];
static dev_t root_dev[TREE_MAX_ROOTS]; /* a walk stays on its root's file system */
static int n_roots;

static struct timespec start_rt;

static int perm_fd = -1;
static uint64_t perm_mask;
static int follow_fd = -1;
static int watch_fd = -1;      /* every execution on the roots' file systems */
static void (*unheld_cb)(long pid, const char *path);
static const char *follow_why; /* why new folders are not followed, or NULL */
static const char *unheld_why; /* why unheld executions are not seen, or NULL */
static int follow_rt;          /* the follower runs at a real-time priority */

/* The file systems met (a file handle is opened against one of their folders). */
#define MAX_FS 16
static struct {
	dev_t dev;
	fsid_t fsid;
	int fd;
} fs[MAX_FS];
static int n_fs;

/* Counted by the reader (old, outside) and the follower (the rest);
 * read at the stop. */
static unsigned long n_old, n_outside, n_dirs, n_mark_failed, n_followed, n_follow_failed;

/* ---- the new files whose execution raised a permission event (the reader's) -- */

static struct keyset judged;
static pthread_mutex_t judged_mu = PTHREAD_MUTEX_INITIALIZER;

/* A file, as a 64-bit key: its device, inode and birth (or change) time. */
static uint64_t file_key(const struct statx *sx)
{
	const struct statx_timestamp *t = (sx->stx_mask & STATX_BTIME) ? &sx->stx_btime : &sx->stx_ctime;

	return ((uint64_t)sx->stx_dev_major << 52) ^ ((uint64_t)sx->stx_dev_minor << 40) ^
	       sx->stx_ino * 0x9e3779b97f4a7c15ull ^ (uint64_t)t->tv_sec * 1000000007ull ^
	       (uint64_t)t->tv_nsec;
}

/* 1 when k was added, 0 when it was there already. */
static int judged_add(uint64_t k)
{
	int r;

	pthread_mutex_lock(&judged_mu);
	r = keyset_add(&judged, k);
	pthread_mutex_unlock(&judged_mu);
	return r;
}

static void bump(unsigned long *c)
{
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

static unsigned long get(unsigned long *c)
{
	return __atomic_load_n(c, __ATOMIC_RELAXED);
}

/* ---- roots ------------------------------------------------------------------ */

int tree_set_roots(const char *const *dirs, int n, const char **bad)
{
	int i;

	for (i = 0; i < n && i < TREE_MAX_ROOTS; i++) {
		struct stat st;
		char *r;

		*bad = dirs[i];
		if (stat(dirs[i], &st) != 0)
			return -1;
		if (!S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			return -1;
		}
		r = realpath(dirs[i], NULL);
		if (!r)
			return -1;
		roots[n_roots] = r;
		root_len[n_roots] = strlen(r);
		root_dev[n_roots] = st.st_dev;
		n_roots++;
	}
	*bad = NULL;
	return 0;
}

const char *tree_first_root(void)
{
	return n_roots ? roots[0] : "";
}

/* 1 + the index of the root path lies below, or 0. */
static int root_of(const char *path)
{
	int i;

	for (i = 0; i < n_roots; i++) {
		size_t n = root_len[i];

		if (n == 1 && path[0] == '/')
			return i + 1; /* the root folder itself */
		if (strncmp(path, roots[i], n) == 0 && (path[n] == '/' || path[n] == '\0'))
			return i + 1;
	}
	return 0;
}

static int under_roots(const char *path)
{
	return root_of(path) != 0;
}

/* ---- new ----------------------------------------------------------------------- */

void tree_start_clock(void)
{
	clock_gettime(CLOCK_REALTIME_COARSE, &start_rt);
}

static int after_start(const struct statx_timestamp *t)
{
	if ((long long)t->tv_sec != (long long)start_rt.tv_sec)
		return (long long)t->tv_sec > (long long)start_rt.tv_sec;
	return (long)t->tv_nsec >= start_rt.tv_nsec;
}

/* Whether the file sx describes was made after the start. */
static int is_new(const struct statx *sx)
{
	if (sx->stx_mask & STATX_BTIME)
		return (sx->stx_btime.tv_sec != 0 || sx->stx_btime.tv_nsec != 0) &&
		       after_start(&sx->stx_btime);
	return after_start(&sx->stx_ctime);
}

enum tree_verdict tree_judge(int fd, const char *path, int exec)
{
	struct statx sx;

	if (!under_roots(path)) {
		bump(&n_outside);
		return TREE_OUTSIDE;
	}
	/* what cannot be read is judged (held), not waved through */
	if (statx(fd, "", AT_EMPTY_PATH, STATX_BTIME | STATX_CTIME | STATX_INO, &sx) != 0)
		return TREE_NEW;
	if (is_new(&sx)) {
		if (exec)
			judged_add(file_key(&sx));
		return TREE_NEW;
	}
	bump(&n_old);
	return TREE_OLD;
}

static int tree_unheld(int fd, const char *path)
{
	struct statx sx;

	if (!under_roots(path) ||
	    statx(fd, "", AT_EMPTY_PATH, STATX_BTIME | STATX_CTIME | STATX_INO, &sx) != 0 ||
	    !is_new(&sx))
		return 0;
	/* judged before: its permission event came first; else it passed
	 * unheld, and is said once */
	return judged_add(file_key(&sx));
}

/* ---- marking ------------------------------------------------------------------- */

/* Remember the file system of the folder behind fd, for open_by_handle_at. */
static void note_fs(int fd)
{
	struct stat st;
	struct statfs sf;
	int i, d;

	if (n_fs == MAX_FS || fstat(fd, &st) != 0)
		return;
	for (i = 0; i < n_fs; i++)
		if (fs[i].dev == st.st_dev)
			return;
	if (fstatfs(fd, &sf) != 0 || (d = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0)
		return;
	fs[n_fs].dev = st.st_dev;
	fs[n_fs].fsid = sf.f_fsid;
	fs[n_fs].fd = d;
	n_fs++;
}

/* Mark the folder behind fd: first for new entries (so that a folder made
 * in it from now on is reported), then for its children's executions. */
static int mark_one(int fd)
{
	if (follow_fd >= 0) {
		if (fanotify_mark(follow_fd, FAN_MARK_ADD, FAN_CREATE | FAN_MOVED_TO | FAN_ONDIR,
				  fd, NULL) != 0)
			bump(&n_follow_failed); /* e.g. a file system without file handles */
		else
			note_fs(fd);
	}
	if (fanotify_mark(perm_fd, FAN_MARK_ADD, perm_mask, fd, NULL) != 0)
		return -1;
	bump(&n_dirs);
	return 0;
}

/* Paths still to be walked. */
struct stack {
	char **v;
	size_t n, cap;
};

static void push(struct stack *s, char *p)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->v = xrealloc(s->v, s->cap * sizeof *s->v);
	}
	s->v[s->n++] = p;
}

/* Mark top and every folder below it on the file system dev (symbolic
 * links and mount points are not followed, as find -xdev: a root's own
 * tree, never /proc below a root of /), one descriptor open at a time.  -1
 * (errno set) when top itself cannot be marked; what vanishes meanwhile is
 * skipped. */
static int walk(const char *top, dev_t dev)
{
	struct stack s = { NULL, 0, 0 };
	char *p;
	int rc = 0, first = 1;

	push(&s, xstrdup(top));
	while (s.n) {
		DIR *d;
		struct dirent *e;
		int fd;

		p = s.v[--s.n];
		fd = open(p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0 && !first) {
			struct stat st;

			if (fstat(fd, &st) != 0 || st.st_dev != dev) {
				close(fd);
				free(p);
				continue;
			}
		}
		if (fd < 0 || mark_one(fd) != 0) {
			int err = errno;

			if (fd >= 0)
				close(fd);
			free(p);
			if (first) {
				rc = -1;
				while (s.n)
					free(s.v[--s.n]);
				errno = err;
				break;
			}
			bump(&n_mark_failed);
			continue;
		}
		first = 0;
		d = fdopendir(fd);
		if (!d) {
			close(fd);
			free(p);
			continue;
		}
		while ((e = readdir(d)) != NULL) {
			size_t n;
			char *c;

			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			if (e->d_type == DT_UNKNOWN) {
				struct stat st;

				if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
				    !S_ISDIR(st.st_mode))
					continue;
			} else if (e->d_type != DT_DIR) {
				continue;
			}
			n = strlen(p) + strlen(e->d_name) + 2;
			if (n > PATH_MAX)
				continue;
			c = xmalloc(n);
			snprintf(c, n, "%s/%s", strcmp(p, "/") == 0 ? "" : p, e->d_name);
			push(&s, c);
		}
		closedir(d);
		free(p);
	}
	free(s.v);
	return rc;
}

int tree_mark(int pfd, uint64_t mask, const char **root)
{
	int i;

	perm_fd = pfd;
	perm_mask = mask;
	follow_fd = fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_DFID_NAME | FAN_CLOEXEC |
				  FAN_UNLIMITED_QUEUE | FAN_UNLIMITED_MARKS,
				  O_RDONLY | O_LARGEFILE | O_CLOEXEC);
	if (follow_fd < 0)
		follow_why = errno == EINVAL ? "the kernel cannot report new folders (FAN_REPORT_DFID_NAME needs Linux 5.9)"
					     : "fanotify refused a second group";
	for (i = 0; i < n_roots; i++) {
		*root = roots[i];
		if (walk(roots[i], root_dev[i]) != 0)
			return -1;
	}
	*root = NULL;
	/* every execution on the roots' file systems, as a notification: the
	 * ones that were not held are seen (tree_unheld) */
	watch_fd = fanotify_init(FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_UNLIMITED_QUEUE,
				 O_RDONLY | O_LARGEFILE | O_CLOEXEC);
	if (watch_fd < 0)
		unheld_why = "fanotify refused a third group";
	for (i = 0; i < n_roots && !unheld_why; i++)
		if (fanotify_mark(watch_fd, FAN_MARK_ADD | FAN_MARK_FILESYSTEM, FAN_OPEN_EXEC,
				  AT_FDCWD, roots[i]) != 0 &&
		    fanotify_mark(watch_fd, FAN_MARK_ADD | FAN_MARK_MOUNT, FAN_OPEN_EXEC,
				  AT_FDCWD, roots[i]) != 0)
			unheld_why = "the kernel cannot report every execution (FAN_OPEN_EXEC needs Linux 5.0)";
	if (unheld_why && watch_fd >= 0) {
		close(watch_fd);
		watch_fd = -1;
	}
	if (follow_fd >= 0 && n_fs == 0) {
		/* not one folder took the mark: the file system keeps no handles */
		close(follow_fd);
		follow_fd = -1;
		follow_why = "the file system cannot report new folders (no file handles)";
	}
	return 0;
}

/* ---- following new folders ----------------------------------------------------- */

/* A folder was made (or moved in) as name in the folder fh names: mark it
 * and everything below it, when it lies below a root. */
static void follow_new(const __kernel_fsid_t *fsid, struct file_handle *fh, const char *name)
{
	int i, pfd, cfd;
	char *path;

	for (i = 0; i < n_fs; i++)
		if (memcmp(&fs[i].fsid, fsid, sizeof fs[i].fsid) == 0)
			break;
	if (i == n_fs) {
		bump(&n_follow_failed);
		return;
	}
	pfd = open_by_handle_at(fs[i].fd, fh, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		return; /* the parent is gone: so is the new folder */
	cfd = openat(pfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(pfd);
	if (cfd < 0)
		return; /* gone, or renamed on: its own event follows */
	path = proc_fd_path(cfd);
	close(cfd);
	if ((i = root_of(path)) != 0) {
		bump(&n_followed);
		if (walk(path, root_dev[i - 1]) != 0)
			bump(&n_mark_failed);
	}
	free(path);
}

/* Read fd's events until it fails or ends, handing each of this version to
 * each(); buf holds size bytes, aligned for the metadata. */
static void read_events(int fd, uint64_t *buf, size_t size,
			void (*each)(const struct fanotify_event_metadata *m))
{
	for (;;) {
		ssize_t len = read(fd, buf, size);
		const struct fanotify_event_metadata *m;

		if (len < 0 && errno == EINTR)
			continue;
		if (len <= 0)
			return;
		m = (const struct fanotify_event_metadata *)buf;
		for (; FAN_EVENT_OK(m, len); m = FAN_EVENT_NEXT(m, len))
			if (m->vers == FANOTIFY_METADATA_VERSION)
				each(m);
	}
}

/* A folder made or moved in below a root: followed (its info records). */
static void follow_event(const struct fanotify_event_metadata *m)
{
	const char *p = (const char *)(m + 1), *end = (const char *)m + m->event_len;

	if (!(m->mask & FAN_ONDIR) || !(m->mask & (FAN_CREATE | FAN_MOVED_TO)))
		return;
	while (p + sizeof(struct fanotify_event_info_header) <= end) {
		const struct fanotify_event_info_header *h = (const void *)p;

		if (h->len == 0)
			break;
		if (h->info_type == FAN_EVENT_INFO_TYPE_DFID_NAME) {
			struct fanotify_event_info_fid *fid = (void *)p;
			struct file_handle *fh = (struct file_handle *)fid->handle;

			follow_new(&fid->fsid, fh, (const char *)(fh->f_handle + fh->handle_bytes));
		}
		p += h->len;
	}
}

static void *follow_main(void *arg)
{
	static uint64_t buf[8192];

	(void)arg;
	read_events(follow_fd, buf, sizeof buf, follow_event);
	return NULL;
}

static pid_t watch_self;

/* An execution of a new file below a root that raised no permission event
 * passed unheld. */
static void watch_event(const struct fanotify_event_metadata *m)
{
	if (m->fd < 0)
		return;
	if ((m->mask & FAN_OPEN_EXEC) && m->pid != watch_self) {
		char *path = proc_fd_path(m->fd);

		if (tree_unheld(m->fd, path) && unheld_cb)
			unheld_cb((long)m->pid, path);
		free(path);
	}
	close(m->fd);
}

/* The executions on the roots' file systems, told after the fact. */
static void *watch_main(void *arg)
{
	static uint64_t buf[4096];

	(void)arg;
	watch_self = getpid();
	read_events(watch_fd, buf, sizeof buf, watch_event);
	return NULL;
}

/* a detached thread running fn; dies when it cannot be made */
static pthread_t start_thread(void *(*fn)(void *))
{
	pthread_t t;

	if ((errno = pthread_create(&t, NULL, fn, NULL)) != 0)
		die(EXIT_FAIL, "pthread_create:");
	pthread_detach(t);
	return t;
}

void tree_follow(void (*unheld)(long pid, const char *path))
{
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	unheld_cb = unheld;
	if (watch_fd >= 0)
		start_thread(watch_main);
	if (follow_fd >= 0) {
		pthread_t t = start_thread(follow_main);
		/* the gap: a folder made and a program run in it before this
		 * thread marked it.  On a machine whose every core is busy (a
		 * build's jobs), a thread woken by an event can wait a
		 * scheduler's slice for a core, longer than a copy and an exec
		 * take: as root the thread takes the lowest real-time priority,
		 * so that it runs as soon as it is woken.  It only marks
		 * folders, in microseconds each; a real-time thread that spun
		 * would still leave 5% of each core to the rest
		 * (sched_rt_runtime_us).  Where it is refused, it runs as it is. */
		struct sched_param sp = { .sched_priority = 1 };

		if (pthread_setschedparam(t, SCHED_FIFO, &sp) == 0)
			follow_rt = 1;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* ---- the log -------------------------------------------------------------------- */

void tree_log_start(json_t *o)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < n_roots; i++)
		json_array_append_new(a, json_string(roots[i]));
	json_object_set_new(o, "roots", a);
	json_object_set_new(o, "folders_marked", json_integer((json_int_t)get(&n_dirs)));
	json_object_set_new(o, "new_folders", json_string(follow_fd >= 0 ? "followed" : follow_why));
	json_object_set_new(o, "follower", json_string(follow_rt ? "SCHED_FIFO 1" : "normal"));
	json_object_set_new(o, "unheld_executions", json_string(unheld_why ? unheld_why : "seen"));
	json_object_set_new(o, "new_since_s", json_integer((json_int_t)start_rt.tv_sec));
	json_object_set_new(o, "new_since_ns", json_integer((json_int_t)start_rt.tv_nsec));
}

void tree_log_stop(json_t *o)
{
	json_object_set_new(o, "passed_old", json_integer((json_int_t)get(&n_old)));
	json_object_set_new(o, "passed_outside", json_integer((json_int_t)get(&n_outside)));
	json_object_set_new(o, "folders_marked", json_integer((json_int_t)get(&n_dirs)));
	json_object_set_new(o, "folders_followed", json_integer((json_int_t)get(&n_followed)));
	json_object_set_new(o, "mark_failures", json_integer((json_int_t)(get(&n_mark_failed) + get(&n_follow_failed))));
}
