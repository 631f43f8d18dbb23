/* gate.c - the calibration gate, Linux alone: a reference "assessment service".
 *
 * Marks the folders below its roots with fanotify permission events
 * (micro/plat/gatetree_linux.c: the tree, and which files are new) and
 * holds every first launch (exec) or library open of a file made after it
 * started that it has not seen before, for a fixed latency, the way macOS
 * assesses new executables; a file that existed before, and anything
 * outside the roots, pass at once.  What the
 * cache remembers (inode, path or content) and how many workers answer
 * (1 = serialised) are configurable; every decision is logged as JSON.
 *
 * Threads: main (setup, ready file, join), one reader (poll on the
 * fanotify fd and a self-pipe; answers what needs no assessment at once),
 * W workers (FIFO queue; cache lookup; hold on a miss), and with
 * --heartbeat one more that rewrites a counter in a file every 100 ms, so
 * that a watchdog sees when the gate stops running (SIGSTOP, a freezer).
 */
#define _GNU_SOURCE
#include "opts.h"
#include "util.h"
#include "procfs.h"
#include "gatetree.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/fanotify.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

#include <jansson.h>

enum key_kind { KEY_INODE, KEY_PATH, KEY_CONTENT };
static const char *const key_names[] = { "inode", "path", "content" };

enum obj_kind { OBJ_EXEC, OBJ_LIBRARY, OBJ_OPEN };
static const char *const obj_names[] = { "exec", "library", "open" };

/* Longest single hold slice: a hold is cut into absolute-deadline slices so
 * that a stop request ends it promptly; the last slice ends exactly on the
 * deadline, so precision is that of one clock_nanosleep. */
#define HOLD_SLICE_NS 20000000ull

/* ---- settings ----------------------------------------------------------- */

static double opt_latency_ms = -1;
static double opt_every_ms;     /* --every-ms: held on every decision, hit or miss */
static double opt_per_mb_ms;    /* --per-mb-ms: a miss holds this more per MiB */
static long opt_workers = -1;
static long opt_wedge;          /* --wedge K: after K held checks, answer nothing until stopped */
static int opt_key = -1;
static int opt_on_open; /* --on open: every open is checked, as ClamAV does */
static const char *opt_dirs[TREE_MAX_ROOTS];
static int n_dirs;
static long opt_exempt_pid = -1;
static const char *opt_log;
static const char *opt_ready;
static char *ready_tmp;
static const char *opt_heartbeat;
static int beat_fd = -1;

static pid_t self_pid;
static int fan_fd = -1;
static int sig_pipe[2] = { -1, -1 };

/* ---- log ---------------------------------------------------------------- */

static FILE *log_fp;
static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;

/* Write obj as one compact JSON line and flush; steals the reference. */
static void log_json(json_t *obj)
{
	char *s;

	if (!log_fp) {
		json_decref(obj);
		return;
	}
	s = json_dumps(obj, JSON_COMPACT);
	json_decref(obj);
	if (!s)
		return;
	pthread_mutex_lock(&log_mu);
	/* closed at the end while gatetree's thread may still say an unheld one */
	if (log_fp) {
		fputs(s, log_fp);
		fputc('\n', log_fp);
		fflush(log_fp);
	}
	pthread_mutex_unlock(&log_mu);
	free(s);
}

/* ---- counters ----------------------------------------------------------- */

static pthread_mutex_t count_mu = PTHREAD_MUTEX_INITIALIZER;
static unsigned long n_miss, n_hit, n_exempt, n_drained, n_wedged, n_unheld;

static void count(unsigned long *c)
{
	pthread_mutex_lock(&count_mu);
	(*c)++;
	pthread_mutex_unlock(&count_mu);
}

/* ---- cache: a string hash set ------------------------------------------- */

static pthread_mutex_t cache_mu = PTHREAD_MUTEX_INITIALIZER;
static char **cache_slots;
static size_t cache_cap, cache_len;

static uint64_t fnv1a(const void *p, size_t n, uint64_t h)
{
	const unsigned char *b = p;

	while (n--) {
		h ^= *b++;
		h *= 0x100000001b3ull;
	}
	return h;
}
#define FNV_OFFSET 0xcbf29ce484222325ull

/* Index of key's slot, or of the empty slot where it belongs. */
static size_t cache_find(char **slots, size_t cap, const char *key)
{
	size_t i = (size_t)fnv1a(key, strlen(key), FNV_OFFSET) & (cap - 1);

	while (slots[i] && strcmp(slots[i], key) != 0)
		i = (i + 1) & (cap - 1);
	return i;
}

static bool cache_has(const char *key)
{
	bool hit;

	pthread_mutex_lock(&cache_mu);
	hit = cache_slots[cache_find(cache_slots, cache_cap, key)] != NULL;
	pthread_mutex_unlock(&cache_mu);
	return hit;
}

static void cache_add(const char *key)
{
	size_t i;

	pthread_mutex_lock(&cache_mu);
	if (2 * (cache_len + 1) > cache_cap) {
		size_t ncap = cache_cap * 2;
		char **ns = calloc(ncap, sizeof *ns);

		if (!ns)
			die(EXIT_FAIL, "out of memory");
		for (size_t j = 0; j < cache_cap; j++)
			if (cache_slots[j])
				ns[cache_find(ns, ncap, cache_slots[j])] = cache_slots[j];
		free(cache_slots);
		cache_slots = ns;
		cache_cap = ncap;
	}
	i = cache_find(cache_slots, cache_cap, key);
	if (!cache_slots[i]) {
		cache_slots[i] = xstrdup(key);
		cache_len++;
	}
	pthread_mutex_unlock(&cache_mu);
}

/* ---- queue: FIFO of events waiting for a decision ------------------------ */

struct job {
	struct job *next;
	int fd;
	pid_t pid;
	enum obj_kind kind;
	char *path;
	uint64_t t_read;
};

static pthread_mutex_t q_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_cv = PTHREAD_COND_INITIALIZER;
static struct job *q_head, *q_tail;
static bool stopping; /* under q_mu; also read unlocked as a hint */

static void enqueue(struct job *j)
{
	j->next = NULL;
	pthread_mutex_lock(&q_mu);
	if (q_tail)
		q_tail->next = j;
	else
		q_head = j;
	q_tail = j;
	pthread_cond_signal(&q_cv);
	pthread_mutex_unlock(&q_mu);
}

/* Next job, or NULL when stopping and the queue is empty.  *drain is set
 * when the job was taken after the stop request. */
static struct job *dequeue(bool *drain)
{
	struct job *j;

	pthread_mutex_lock(&q_mu);
	while (!q_head && !stopping)
		pthread_cond_wait(&q_cv, &q_mu);
	j = q_head;
	if (j) {
		q_head = j->next;
		if (!q_head)
			q_tail = NULL;
	}
	*drain = stopping;
	pthread_mutex_unlock(&q_mu);
	return j;
}

static bool is_stopping(void)
{
	bool s;

	pthread_mutex_lock(&q_mu);
	s = stopping;
	pthread_mutex_unlock(&q_mu);
	return s;
}

/* ---- fanotify helpers --------------------------------------------------- */

static void respond(int fd)
{
	struct fanotify_response r = { .fd = fd, .response = FAN_ALLOW };

	while (write(fan_fd, &r, sizeof r) < 0 && errno == EINTR)
		;
	close(fd);
}

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

	if (opt_exempt_pid <= 0)
		return false;
	for (int depth = 0; p > 0 && depth < 4096; depth++) {
		if (p == opt_exempt_pid)
			return true;
		if (p == 1)
			return false;
		p = proc_parent(p);
	}
	return false;
}

/* The cache key of the object behind fd (malloc'd), NULL on error.  An
 * inode is named with its birth time (its change time where the file
 * system keeps none): a file system that gives a deleted file's inode
 * number to a new one (ext4 does; APFS never reuses an object id) would
 * otherwise make the new file a hit (configure's conftest, again and
 * again). */
static char *make_key(int fd, const char *path)
{
	char buf[96];
	struct statx sx;

	switch (opt_key) {
	case KEY_INODE: {
		const struct statx_timestamp *t;

		if (statx(fd, "", AT_EMPTY_PATH, STATX_INO | STATX_BTIME | STATX_CTIME, &sx) != 0)
			return NULL;
		t = (sx.stx_mask & STATX_BTIME) ? &sx.stx_btime : &sx.stx_ctime;
		snprintf(buf, sizeof buf, "%llu:%llu:%lld.%09u",
		         (unsigned long long)makedev(sx.stx_dev_major, sx.stx_dev_minor),
		         (unsigned long long)sx.stx_ino, (long long)t->tv_sec, (unsigned)t->tv_nsec);
		return xstrdup(buf);
	}
	case KEY_PATH:
		return strcmp(path, "?") == 0 ? NULL : xstrdup(path);
	case KEY_CONTENT: {
		static const size_t chunk = 1 << 16;
		char *data = xmalloc(chunk);
		uint64_t h = FNV_OFFSET;
		off_t off = 0;
		ssize_t n;

		for (;;) {
			n = pread(fd, data, chunk, off);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			h = fnv1a(data, (size_t)n, h);
			off += n;
		}
		free(data);
		if (n < 0)
			return NULL;
		snprintf(buf, sizeof buf, "fnv1a64:%016llx", (unsigned long long)h);
		return xstrdup(buf);
	}
	}
	return NULL;
}

static double ms_between(uint64_t a, uint64_t b)
{
	return b > a ? (double)(b - a) / 1e6 : 0.0;
}

static void log_decision(uint64_t t, pid_t pid, enum obj_kind kind,
                         const char *path, const char *key,
                         const char *result, double held_ms, double queued_ms)
{
	json_t *o = json_object();

	json_object_set_new(o, "t_ns", json_integer((json_int_t)t));
	json_object_set_new(o, "pid", json_integer(pid));
	json_object_set_new(o, "event", json_string(obj_names[kind]));
	json_object_set_new(o, "object", json_string(path));
	json_object_set_new(o, "key", key ? json_string(key) : json_null());
	json_object_set_new(o, "result", json_string(result));
	json_object_set_new(o, "held_ms", json_real(held_ms));
	json_object_set_new(o, "queued_ms", json_real(queued_ms));
	log_json(o);
}

/* ---- workers ------------------------------------------------------------ */

/* --wedge K: whether K checks have been held (misses answered); from then
 * on the gate answers nothing until it is stopped. */
static bool wedged(void)
{
	bool w;

	if (opt_wedge <= 0)
		return false;
	pthread_mutex_lock(&count_mu);
	w = n_miss >= (unsigned long)opt_wedge;
	pthread_mutex_unlock(&count_mu);
	return w;
}

/* Sleep until deadline (CLOCK_MONOTONIC), in slices so a stop cuts it. */
static void hold_until(uint64_t deadline)
{
	for (;;) {
		uint64_t now = now_ns(), until;
		struct timespec ts;

		if (now >= deadline || is_stopping())
			return;
		until = deadline - now > HOLD_SLICE_NS ? now + HOLD_SLICE_NS : deadline;
		ts.tv_sec = (time_t)(until / 1000000000u);
		ts.tv_nsec = (long)(until % 1000000000u);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
	}
}

static void *worker_main(void *arg)
{
	struct job *j;
	bool drain;

	(void)arg;
	while ((j = dequeue(&drain)) != NULL) {
		uint64_t t0 = now_ns(), t1;
		char *key = NULL;
		const char *result;

		if (drain) {
			/* Stop requested before this one was assessed: let it go. */
			respond(j->fd);
			count(&n_drained);
			free(j->path);
			free(j);
			continue;
		}
		if (wedged()) {
			/* a wedged checker: no answer, as one that leaves a
			 * process in execve, until the gate is stopped; then
			 * the event is allowed like any drained one */
			hold_until(UINT64_MAX);
			respond(j->fd);
			t1 = now_ns();
			count(&n_wedged);
			log_decision(t1, j->pid, j->kind, j->path, NULL, "wedged",
			             ms_between(t0, t1), ms_between(j->t_read, t0));
			free(j->path);
			free(j);
			continue;
		}
		key = make_key(j->fd, j->path);
		if (key && cache_has(key)) {
			result = "hit";
			if (opt_every_ms > 0)
				hold_until(t0 + (uint64_t)(opt_every_ms * 1e6 + 0.5));
		} else {
			double ms = opt_latency_ms + opt_every_ms;
			struct stat st;

			result = "miss";
			/* a scanner whose cost grows with the file: the gate's own
			 * descriptor, which the kernel opened for the event */
			if (opt_per_mb_ms > 0 && fstat(j->fd, &st) == 0)
				ms += opt_per_mb_ms * (double)st.st_size / 1048576.0;
			hold_until(t0 + (uint64_t)(ms * 1e6 + 0.5));
			if (key)
				cache_add(key);
		}
		respond(j->fd);
		t1 = now_ns();
		count(result[0] == 'h' ? &n_hit : &n_miss);
		log_decision(t1, j->pid, j->kind, j->path, key, result,
		             ms_between(t0, t1), ms_between(j->t_read, t0));
		free(key);
		free(j->path);
		free(j);
	}
	return NULL;
}

/* An execution of a new file below a root that was never held: its folder
 * was marked too late (gatetree_linux.c, from its own thread). */
static void on_unheld(long pid, const char *path)
{
	count(&n_unheld);
	log_decision(now_ns(), (pid_t)pid, OBJ_EXEC, path, NULL, "unheld", 0.0, 0.0);
}

/* ---- reader ------------------------------------------------------------- */

static void handle_event(const struct fanotify_event_metadata *m)
{
	enum obj_kind kind;
	char *path;
	struct job *j;

	if (m->fd < 0)
		return; /* no fd, nothing to answer (overflow or kernel error) */
	if (!(m->mask & (FAN_OPEN_EXEC_PERM | FAN_OPEN_PERM))) {
		close(m->fd);
		return;
	}
	if (m->pid == self_pid) {
		respond(m->fd);
		return;
	}
	path = proc_fd_path(m->fd);
	if (m->mask & FAN_OPEN_EXEC_PERM) {
		kind = OBJ_EXEC;
	} else {
		struct stat st;

		/* An empty file is one being created (O_CREAT, or a linker's
		 * output): nothing to scan or map yet, so it is neither held nor
		 * cached.  --on exec (the default): a plain open (readers, `sh
		 * x.sh`, writers) is not held either; only libraries, which a
		 * loader maps.  --on open: every open of a file is checked, as
		 * a scan-on-open scanner (ClamAV's clamonacc) does. */
		if ((!opt_on_open && !is_library_name(path)) || fstat(m->fd, &st) != 0 ||
		    !S_ISREG(st.st_mode) || st.st_size == 0) {
			respond(m->fd);
			free(path);
			return;
		}
		kind = is_library_name(path) ? OBJ_LIBRARY : OBJ_OPEN;
	}
	/* outside the roots (a marked folder moved away), or made before the
	 * start: let through at once */
	if (tree_judge(m->fd, path, kind == OBJ_EXEC) != TREE_NEW) {
		respond(m->fd);
		free(path);
		return;
	}
	if (is_exempt(m->pid)) {
		uint64_t t0 = now_ns(), t1;

		respond(m->fd);
		t1 = now_ns();
		count(&n_exempt);
		log_decision(t1, m->pid, kind, path, NULL, "exempt",
		             ms_between(t0, t1), 0.0);
		free(path);
		return;
	}
	j = xmalloc(sizeof *j);
	j->fd = m->fd;
	j->pid = m->pid;
	j->kind = kind;
	j->path = path;
	j->t_read = now_ns();
	enqueue(j);
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

/* ---- heartbeat ---------------------------------------------------------- */

#define BEAT_NS 100000000ull

/* A counter rewritten in place (fixed width: a reader never sees it half
 * written shorter), every 100 ms for as long as the process runs. */
static void *beat_main(void *arg)
{
	unsigned long long n = 0;
	char line[32];
	struct timespec ts = { 0, (long)BEAT_NS };

	(void)arg;
	for (;;) {
		int len = snprintf(line, sizeof line, "%020llu\n", ++n);

		if (pwrite(beat_fd, line, (size_t)len, 0) != len) {
			/* nothing to say it to: the watchdog sees the beat stop */
		}
		nanosleep(&ts, NULL);
	}
	return NULL;
}

/* ---- signals ------------------------------------------------------------ */

static void on_signal(int sig)
{
	int saved = errno;
	char c = (char)sig;

	if (write(sig_pipe[1], &c, 1) < 0) {
		/* pipe full: a stop is already pending */
	}
	errno = saved;
}

/* ---- startup ------------------------------------------------------------ */

static void usage(FILE *f)
{
	fprintf(f,
	    "usage: gate --dir DIR [--dir DIR]... --latency-ms MS --workers W\n"
	    "            --key inode|path|content [--on exec|open] [--every-ms MS]\n"
	    "            [--per-mb-ms MS] [--exempt-pid PID] [--wedge K] [--log FILE]\n"
	    "            [--ready-file FILE] [--heartbeat FILE]\n"
	    "\n"
	    "Calibration gate (Linux, needs root): holds the first exec of every\n"
	    "file made after it started anywhere below a DIR, and the first open of\n"
	    "every such non-empty library (*.so, *.so.N, *.dylib), for MS\n"
	    "milliseconds per object not seen before, then allows it; later launches\n"
	    "of the same object pass at once, and so do files that existed before\n"
	    "it started and everything outside the DIRs.\n"
	    "\n"
	    "  --dir DIR          a root: every folder below it is marked, also the\n"
	    "                     ones made later (up to 8 roots)\n"
	    "  --latency-ms MS    hold per unseen object, 0..60000 (fractions allowed)\n"
	    "  --workers W        threads answering, 1..64 (1 = serialised)\n"
	    "  --key K            what the cache remembers: inode (dev:ino:birth),\n"
	    "                     path, or content (FNV-1a 64 of the bytes)\n"
	    "  --on exec|open     exec (default): hold executions and library\n"
	    "                     opens; open: hold every open of a non-empty\n"
	    "                     file too, as a scan-on-open scanner does\n"
	    "  --every-ms MS      hold every decision this long too, seen or not\n"
	    "                     (an agent that costs every launch), 0..60000\n"
	    "  --per-mb-ms MS     hold an unseen object MS more per MiB of its\n"
	    "                     size (a scan that reads it all), 0..60000\n"
	    "  --exempt-pid PID   PID and its descendants pass unheld (logged \"exempt\")\n"
	    "  --wedge K          after K held checks (misses), answer nothing more\n"
	    "                     until stopped, as a wedged checker leaves a process\n"
	    "                     in execve; the stop allows them (logged \"wedged\")\n"
	    "  --log FILE         one JSON line per decision\n"
	    "  --ready-file FILE  exists exactly while the marks are in place\n"
	    "                     (removed at start and on a clean stop)\n"
	    "  --heartbeat FILE   a counter rewritten every 100 ms while the gate\n"
	    "                     runs: a watchdog sees a stopped gate by it\n"
	    "\n"
	    "Prints \"gate: ready\" when marking is done.  SIGTERM/SIGINT: stop,\n"
	    "allow what is queued, write the \"stop\" line, exit 0.\n"
	    "Exit status: 0 stopped cleanly, 1 runtime failure, 2 bad usage or\n"
	    "cannot run here.\n");
}

/* The options whose value is a number of ms in 0..60000, and what a bad one is told. */
static const struct {
	double *v;
	const char *bad;
} ms_opts[] = {
	{ &opt_latency_ms, "--latency-ms must be a number of ms in 0..60000 (e.g. 20 or 0.5)" },
	{ &opt_every_ms, "--every-ms must be a number of ms in 0..60000 (e.g. 3 or 0.5)" },
	{ &opt_per_mb_ms, "--per-mb-ms must be a number of ms in 0..60000 (e.g. 2 or 0.5)" },
};

/* The values of the options that are not paths, as given, before check_values. */
struct given {
	const char *ms[3]; /* as ms_opts lists them */
	const char *workers, *key, *on, *exempt, *wedge;
};

/* --key's value: what the cache remembers. */
static int parse_key(const char *s)
{
	for (int i = 0; i < 3; i++)
		if (strcmp(s, key_names[i]) == 0)
			return i;
	die(EXIT_USAGE, "--key must be inode, path or content: %s", s);
	return -1;
}

/* The values given, each checked, into the opt_ variables; a bad value ends here. */
static void check_values(const struct given *g)
{
	size_t i;

	for (i = 0; i < sizeof ms_opts / sizeof ms_opts[0]; i++)
		if (g->ms[i] && parse_double(g->ms[i], 0, 60000, ms_opts[i].v) != 0)
			die(EXIT_USAGE, "%s: %s", ms_opts[i].bad, g->ms[i]);
	if (g->workers && parse_long(g->workers, 1, 64, &opt_workers) != 0)
		die(EXIT_USAGE, "--workers must be an integer in 1..64: %s", g->workers);
	if (g->key)
		opt_key = parse_key(g->key);
	if (g->on) {
		if (strcmp(g->on, "exec") != 0 && strcmp(g->on, "open") != 0)
			die(EXIT_USAGE, "--on must be exec or open: %s", g->on);
		opt_on_open = strcmp(g->on, "open") == 0;
	}
	if (g->exempt && parse_long(g->exempt, 1, INT_MAX, &opt_exempt_pid) != 0)
		die(EXIT_USAGE, "--exempt-pid must be a process id: %s", g->exempt);
	if (g->wedge && parse_long(g->wedge, 0, 1000000, &opt_wedge) != 0)
		die(EXIT_USAGE, "--wedge must be a whole number in 0..1000000: %s", g->wedge);
}

/* What every run needs was given, and each --dir is a directory: the roots. */
static void check_args(void)
{
	const char *bad;

	if (n_dirs == 0)
		die(EXIT_USAGE, "--dir is required (see --help)");
	if (opt_latency_ms < 0)
		die(EXIT_USAGE, "--latency-ms is required (see --help)");
	if (opt_workers < 0)
		die(EXIT_USAGE, "--workers is required (see --help)");
	if (opt_key < 0)
		die(EXIT_USAGE, "--key is required (see --help)");
	if (tree_set_roots(opt_dirs, n_dirs, &bad) != 0) {
		if (errno == ENOTDIR)
			die(EXIT_USAGE, "--dir %s: not a directory", bad);
		die(EXIT_USAGE, "--dir %s:", bad);
	}
}

/* The command line (opts.h), then checked. */
static void parse_args(int argc, char **argv)
{
	struct given g = { { NULL, NULL, NULL }, NULL, NULL, NULL, NULL, NULL };
	const struct opt opts[] = {
		OPT_LIST("--dir", opt_dirs, &n_dirs, TREE_MAX_ROOTS), OPT_VALUE("--log", &opt_log),
		OPT_VALUE("--ready-file", &opt_ready), OPT_VALUE("--heartbeat", &opt_heartbeat),
		OPT_VALUE("--latency-ms", &g.ms[0]), OPT_VALUE("--every-ms", &g.ms[1]),
		OPT_VALUE("--per-mb-ms", &g.ms[2]), OPT_VALUE("--workers", &g.workers),
		OPT_VALUE("--key", &g.key), OPT_VALUE("--on", &g.on),
		OPT_VALUE("--exempt-pid", &g.exempt), OPT_VALUE("--wedge", &g.wedge), OPT_END
	};
	int i = opts_parse(argc, argv, opts, OPTS_AFTER, usage);

	if (i < argc)
		die(EXIT_USAGE, "unexpected argument %s (see --help)", argv[i]);
	check_values(&g);
	check_args();
}

static void fan_setup(void)
{
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

/* Every folder below the roots, for its children's executions and opens
 * (micro/plat/gatetree_linux.c; the folders made later are marked by a
 * thread of its own, tree_follow). */
static void fan_mark(void)
{
	const char *root;

	if (tree_mark(fan_fd, FAN_OPEN_EXEC_PERM | FAN_OPEN_PERM | FAN_EVENT_ON_CHILD, &root) != 0) {
		int e = errno;
		const char *why =
		    e == EINVAL ? " (kernel older than 5.0 lacks FAN_OPEN_EXEC_PERM?)" :
		    e == EPERM ? " (needs root / CAP_SYS_ADMIN)" : "";
		if (ready_tmp)
			unlink(ready_tmp);
		die(EXIT_USAGE, "fanotify unavailable: cannot mark %s: %s%s",
		    root, strerror(e), why);
	}
}

/* The ready file is made under a temporary name before marking (so that
 * an open in DIR by the gate itself can never wait on the gate) and renamed
 * into place once the marks are in place; a stale one goes first. */
static void prepare_ready_file(void)
{
	size_t n = strlen(opt_ready) + 32;
	int fd;

	if (unlink(opt_ready) != 0 && errno != ENOENT)
		die(EXIT_USAGE, "--ready-file %s:", opt_ready);
	ready_tmp = xmalloc(n);
	snprintf(ready_tmp, n, "%s.tmp.%ld", opt_ready, (long)self_pid);
	fd = open(ready_tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		die(EXIT_USAGE, "--ready-file %s:", ready_tmp);
	close(fd);
}

static void publish_ready_file(void)
{
	if (rename(ready_tmp, opt_ready) != 0) {
		int e = errno;

		unlink(ready_tmp);
		errno = e;
		die(EXIT_FAIL, "--ready-file %s:", opt_ready);
	}
}

/* Open what the gate writes (its log, the ready file under its temporary
 * name, the heartbeat), the stop pipe, and the empty cache. */
static void open_outputs(void)
{
	if (opt_log) {
		log_fp = fopen(opt_log, "we");
		if (!log_fp)
			die(EXIT_USAGE, "--log %s:", opt_log);
	}
	if (opt_ready)
		prepare_ready_file();
	if (opt_heartbeat) {
		beat_fd = open(opt_heartbeat, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (beat_fd < 0)
			die(EXIT_USAGE, "--heartbeat %s:", opt_heartbeat);
	}
	if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
		die(EXIT_FAIL, "pipe:");
	cache_cap = 1024;
	cache_slots = calloc(cache_cap, sizeof *cache_slots);
	if (!cache_slots)
		die(EXIT_FAIL, "out of memory");
}

/* The workers and the heartbeat, which never take the stop signals, then the reader. */
static void start_threads(pthread_t *workers, pthread_t *reader)
{
	pthread_t beat;
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (long i = 0; i < opt_workers; i++)
		if ((errno = pthread_create(&workers[i], NULL, worker_main, NULL)) != 0)
			die(EXIT_FAIL, "pthread_create:");
	if (beat_fd >= 0 && (errno = pthread_create(&beat, NULL, beat_main, NULL)) != 0)
		die(EXIT_FAIL, "pthread_create:");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if ((errno = pthread_create(reader, NULL, reader_main, NULL)) != 0)
		die(EXIT_FAIL, "pthread_create:");
}

/* The log's first line: the settings the gate runs with. */
static void log_start(void)
{
	json_t *o = json_object();

	json_object_set_new(o, "gate", json_string("start"));
	json_object_set_new(o, "latency_ms", json_real(opt_latency_ms));
	json_object_set_new(o, "workers", json_integer(opt_workers));
	json_object_set_new(o, "key", json_string(key_names[opt_key]));
	json_object_set_new(o, "on", json_string(opt_on_open ? "open" : "exec"));
	json_object_set_new(o, "every_ms", json_real(opt_every_ms));
	json_object_set_new(o, "per_mb_ms", json_real(opt_per_mb_ms));
	if (opt_wedge > 0)
		json_object_set_new(o, "wedge", json_integer(opt_wedge));
	json_object_set_new(o, "dir", json_string(tree_first_root()));
	tree_log_start(o);
	json_object_set_new(o, "exempt_pid",
	                    opt_exempt_pid > 0 ? json_integer(opt_exempt_pid) : json_null());
	json_object_set_new(o, "pid", json_integer(self_pid));
	json_object_set_new(o, "t_ns", json_integer((json_int_t)now_ns()));
	log_json(o);
}

/* Tell the workers to stop: they let what is queued go, and end. */
static void stop_workers(pthread_t *workers)
{
	pthread_mutex_lock(&q_mu);
	stopping = true;
	pthread_cond_broadcast(&q_cv);
	pthread_mutex_unlock(&q_mu);
	for (long i = 0; i < opt_workers; i++)
		pthread_join(workers[i], NULL);
}

/* The log's last line: what the gate decided, counted. */
static void log_stop(void)
{
	json_t *o = json_object();

	json_object_set_new(o, "gate", json_string("stop"));
	json_object_set_new(o, "decisions", json_integer((json_int_t)(n_miss + n_hit + n_exempt)));
	json_object_set_new(o, "misses", json_integer((json_int_t)n_miss));
	json_object_set_new(o, "hits", json_integer((json_int_t)n_hit));
	json_object_set_new(o, "exempt", json_integer((json_int_t)n_exempt));
	json_object_set_new(o, "drained", json_integer((json_int_t)n_drained));
	if (opt_wedge > 0)
		json_object_set_new(o, "wedged", json_integer((json_int_t)n_wedged));
	json_object_set_new(o, "unheld", json_integer((json_int_t)n_unheld));
	tree_log_stop(o);
	json_object_set_new(o, "t_ns", json_integer((json_int_t)now_ns()));
	log_json(o);
}

int main(int argc, char **argv)
{
	pthread_t reader, workers[64];

	progname = "gate";
	parse_args(argc, argv);
	self_pid = getpid();

	fan_setup();
	open_outputs();
	catch_signals(on_signal);
	signal(SIGPIPE, SIG_IGN);
	tree_start_clock();
	fan_mark();
	start_threads(workers, &reader);
	tree_follow(on_unheld);
	log_start();

	fputs("gate: ready\n", stdout);
	fflush(stdout);
	if (opt_ready)
		publish_ready_file();

	/* The reader returns once a stop signal arrived. */
	pthread_join(reader, NULL);
	stop_workers(workers);
	/* Events not yet read are allowed by the kernel when the group closes. */
	close(fan_fd);
	if (opt_ready)
		unlink(opt_ready); /* the marks are gone */

	log_stop();
	if (log_fp) {
		int bad;

		pthread_mutex_lock(&log_mu);
		bad = fclose(log_fp) != 0;
		log_fp = NULL;
		pthread_mutex_unlock(&log_mu);
		if (bad)
			die(EXIT_FAIL, "--log %s:", opt_log);
	}
	return EXIT_OK;
}
