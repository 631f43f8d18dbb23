/* gatecheck_linux.c - the calibration gate's checks (gatecheck.h). */
#define _GNU_SOURCE
#include "gatecheck.h"
#include "gatecache.h"
#include "gatefan.h"
#include "gateset.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/fanotify.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* Longest single hold slice: a hold is cut into absolute-deadline slices so
 * that a stop request ends it promptly; the last slice ends exactly on the
 * deadline, so precision is that of one clock_nanosleep. */
#define HOLD_SLICE_NS 20000000ull

/* ---- the queue: events waiting for a decision, first in first out ---- */

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
static bool stopping; /* under q_mu */

void check_queue(int fd, pid_t pid, enum obj_kind kind, char *path)
{
	struct job *j = xmalloc(sizeof *j);

	j->fd = fd;
	j->pid = pid;
	j->kind = kind;
	j->path = path;
	j->t_read = now_ns();
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

static void job_free(struct job *j)
{
	free(j->path);
	free(j);
}

/* ---- the cache key ---- */

/* FNV-1a 64 of the bytes behind fd ("fnv1a64:HEX", malloc'd), NULL on error. */
static char *content_key(int fd)
{
	static const size_t chunk = 1 << 16;
	char *data = xmalloc(chunk), buf[96];
	uint64_t h = FNV_OFFSET;
	off_t off = 0;
	ssize_t n;

	for (;;) {
		n = pread(fd, data, chunk, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		h = gate_fnv1a(data, (size_t)n, h);
		off += n;
	}
	free(data);
	if (n < 0)
		return NULL;
	snprintf(buf, sizeof buf, "fnv1a64:%016llx", (unsigned long long)h);
	return xstrdup(buf);
}

/* The cache key of the object behind fd (malloc'd), NULL on error.  An
 * inode is named with its birth time (its change time where the file
 * system keeps none): a file system that gives a deleted file's inode
 * number to a new one (ext4 does; APFS never reuses an object id) would
 * otherwise make the new file a hit (configure's conftest, again and
 * again). */
static char *make_key(int fd, const char *path)
{
	char buf[128];
	struct statx sx;

	switch (gs.key) {
	case KEY_INODE:
	case KEY_INODE_MTIME: {
		const struct statx_timestamp *t;
		int n;

		if (statx(fd, "", AT_EMPTY_PATH, STATX_INO | STATX_BTIME | STATX_CTIME | STATX_MTIME,
			  &sx) != 0)
			return NULL;
		t = (sx.stx_mask & STATX_BTIME) ? &sx.stx_btime : &sx.stx_ctime;
		n = snprintf(buf, sizeof buf, "%llu:%llu:%lld.%09u",
			     (unsigned long long)makedev(sx.stx_dev_major, sx.stx_dev_minor),
			     (unsigned long long)sx.stx_ino, (long long)t->tv_sec, (unsigned)t->tv_nsec);
		/* and the modification time, as fapolicyd's object cache keys
		 * inode and mtime (not the change time: link(2) changes it, so
		 * a hard link would be new) */
		if (gs.key == KEY_INODE_MTIME)
			snprintf(buf + n, sizeof buf - (size_t)n, ":%lld.%09u",
				 (long long)sx.stx_mtime.tv_sec, (unsigned)sx.stx_mtime.tv_nsec);
		return xstrdup(buf);
	}
	case KEY_PATH:
		return strcmp(path, "?") == 0 ? NULL : xstrdup(path);
	case KEY_CONTENT:
		return content_key(fd);
	}
	return NULL;
}

/* ---- the decision ---- */

/* What the gate does with one event. */
struct verdict {
	const char *result;     /* the log's word: hit, miss, wedged, refused */
	enum tally tally;       /* what it counts as */
	uint64_t hold_until;    /* held until then (CLOCK_MONOTONIC ns; UINT64_MAX: until stopped) */
	char *key;              /* its cache key (malloc'd; logged), or NULL */
	bool remember;          /* the key goes into the cache once held */
	uint32_t response;      /* the answer: FAN_ALLOW, or FAN_DENY (exhausted, or --kill) */
};

/* --kill R: whether this miss, the n-th, is answered by a refusal: when
 * floor(n R) grows, so N misses see exactly floor(N R) refusals, evenly
 * spread (the simulator's kill=R alike, sim_refused). */
static bool refuse_next(void)
{
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	static long n;
	bool r;

	if (gs.kill <= 0)
		return false;
	pthread_mutex_lock(&mu);
	n++;
	r = (long)((double)n * gs.kill + 1e-9) > (long)((double)(n - 1) * gs.kill + 1e-9);
	pthread_mutex_unlock(&mu);
	return r;
}

/* --wedge K: whether K checks have been held (misses answered); from then
 * on the gate answers nothing until it is stopped. */
static bool wedged(void)
{
	return gs.wedge > 0 && tally_get(T_MISS) >= (unsigned long)gs.wedge;
}

/* A miss's hold in ms: the latency, every decision's, and for a scanner
 * whose cost grows with the file its size's (the gate's own descriptor,
 * which the kernel opened for the event). */
static double miss_ms(int fd)
{
	double ms = gs.latency_ms + gs.every_ms;
	struct stat st;

	if (gs.per_mb_ms > 0 && fstat(fd, &st) == 0)
		ms += gs.per_mb_ms * (double)st.st_size / 1048576.0;
	return ms;
}

/* The decision on job j, taken at t0. */
static void decide(const struct job *j, uint64_t t0, struct verdict *v)
{
	memset(v, 0, sizeof *v);
	v->response = FAN_ALLOW;
	v->hold_until = t0;
	if (gs.exhausted) {
		/* an exhausted checker: every check refused at once, as
		 * syspolicyd out of descriptors answers every assessment "Too
		 * many open files"; the exec fails with EPERM */
		v->result = "refused";
		v->tally = T_REFUSED;
		v->response = FAN_DENY;
		return;
	}
	if (wedged()) {
		/* a wedged checker: no answer, as one that leaves a process in
		 * execve, until the gate is stopped; then the event is allowed
		 * like any drained one */
		v->result = "wedged";
		v->tally = T_WEDGED;
		v->hold_until = UINT64_MAX;
		return;
	}
	v->key = make_key(j->fd, j->path);
	if (v->key && cache_has(v->key)) {
		v->result = "hit";
		v->tally = T_HIT;
		if (gs.every_ms > 0)
			v->hold_until = t0 + (uint64_t)(gs.every_ms * 1e6 + 0.5);
		return;
	}
	v->result = "miss";
	v->tally = T_MISS;
	v->hold_until = t0 + (uint64_t)(miss_ms(j->fd) * 1e6 + 0.5);
	v->remember = v->key != NULL;
	/* a refused check's object is remembered too: its next launch passes */
	if (refuse_next())
		v->response = FAN_DENY;
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

static double ms_between(uint64_t a, uint64_t b)
{
	return b > a ? (double)(b - a) / 1e6 : 0.0;
}

/* ---- the workers ---- */

static void *worker_main(void *arg)
{
	struct job *j;
	bool drain;

	(void)arg;
	while ((j = dequeue(&drain)) != NULL) {
		uint64_t t0 = now_ns(), t1;
		struct verdict v;

		if (drain) {
			/* Stop requested before this one was assessed: let it go. */
			fan_respond(j->fd, FAN_ALLOW);
			tally_add(T_DRAINED);
			job_free(j);
			continue;
		}
		decide(j, t0, &v);
		hold_until(v.hold_until);
		if (v.remember)
			cache_add(v.key);
		fan_respond(j->fd, v.response);
		t1 = now_ns();
		tally_add(v.tally);
		if (v.response == FAN_DENY)
			tally_add(T_REFUSED);
		gateout_decision(t1, j->pid, j->kind, j->path, v.key, v.result,
				 v.response == FAN_DENY, ms_between(t0, t1), ms_between(j->t_read, t0));
		free(v.key);
		job_free(j);
	}
	return NULL;
}

int checks_start(pthread_t *workers)
{
	int rc;

	for (long i = 0; i < gs.workers; i++)
		if ((rc = pthread_create(&workers[i], NULL, worker_main, NULL)) != 0)
			return rc;
	return 0;
}

void checks_stop(pthread_t *workers)
{
	pthread_mutex_lock(&q_mu);
	stopping = true;
	pthread_cond_broadcast(&q_cv);
	pthread_mutex_unlock(&q_mu);
	for (long i = 0; i < gs.workers; i++)
		pthread_join(workers[i], NULL);
}

void check_unheld(long pid, const char *path)
{
	tally_add(T_UNHELD);
	gateout_decision(now_ns(), (pid_t)pid, OBJ_EXEC, path, NULL, "unheld", 0, 0.0, 0.0);
}
