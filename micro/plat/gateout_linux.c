/* gateout_linux.c - what the calibration gate writes (gateout.h). */
#define _GNU_SOURCE
#include "gateout.h"
#include "gateset.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

static const char *const obj_names[] = { "exec", "library", "open" };

/* ---- counters ---- */

static pthread_mutex_t count_mu = PTHREAD_MUTEX_INITIALIZER;
static unsigned long tallies[N_TALLY];

void tally_add(enum tally t)
{
	pthread_mutex_lock(&count_mu);
	tallies[t]++;
	pthread_mutex_unlock(&count_mu);
}

unsigned long tally_get(enum tally t)
{
	unsigned long n;

	pthread_mutex_lock(&count_mu);
	n = tallies[t];
	pthread_mutex_unlock(&count_mu);
	return n;
}

/* ---- the files ---- */

static FILE *log_fp;
static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static char *ready_tmp;
static int beat_fd = -1;

/* The ready file is made under a temporary name before marking (so that
 * an open in DIR by the gate itself can never wait on the gate) and renamed
 * into place once the marks are in place; a stale one goes first. */
static void prepare_ready_file(long self)
{
	size_t n = strlen(gs.ready) + 32;
	int fd;

	if (unlink(gs.ready) != 0 && errno != ENOENT)
		die(EXIT_USAGE, "--ready-file %s:", gs.ready);
	ready_tmp = xmalloc(n);
	snprintf(ready_tmp, n, "%s.tmp.%ld", gs.ready, self);
	fd = open(ready_tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		die(EXIT_USAGE, "--ready-file %s:", ready_tmp);
	close(fd);
}

void gateout_open(long self)
{
	if (gs.log) {
		log_fp = fopen(gs.log, "we");
		if (!log_fp)
			die(EXIT_USAGE, "--log %s:", gs.log);
	}
	if (gs.ready)
		prepare_ready_file(self);
	if (gs.heartbeat) {
		beat_fd = open(gs.heartbeat, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (beat_fd < 0)
			die(EXIT_USAGE, "--heartbeat %s:", gs.heartbeat);
	}
}

void gateout_ready(void)
{
	if (!gs.ready)
		return;
	if (rename(ready_tmp, gs.ready) != 0) {
		int e = errno;

		unlink(ready_tmp);
		errno = e;
		die(EXIT_FAIL, "--ready-file %s:", gs.ready);
	}
}

void gateout_unready(void)
{
	if (ready_tmp)
		unlink(ready_tmp);
	if (gs.ready)
		unlink(gs.ready);
}

/* ---- heartbeat ---- */

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

int gateout_beat(void)
{
	pthread_t beat;

	return beat_fd >= 0 ? pthread_create(&beat, NULL, beat_main, NULL) : 0;
}

/* ---- the log ---- */

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

void gateout_start(long self)
{
	json_t *o = json_object();

	json_object_set_new(o, "gate", json_string("start"));
	gateset_start_line(o);
	json_object_set_new(o, "pid", json_integer(self));
	json_object_set_new(o, "t_ns", json_integer((json_int_t)now_ns()));
	log_json(o);
}

void gateout_decision(uint64_t t, pid_t pid, enum obj_kind kind, const char *path,
		      const char *key, const char *result, int refused, double held_ms,
		      double queued_ms)
{
	json_t *o = json_object();

	json_object_set_new(o, "t_ns", json_integer((json_int_t)t));
	json_object_set_new(o, "pid", json_integer(pid));
	json_object_set_new(o, "event", json_string(obj_names[kind]));
	json_object_set_new(o, "object", json_string(path));
	json_object_set_new(o, "key", key ? json_string(key) : json_null());
	json_object_set_new(o, "result", json_string(result));
	if (refused)
		json_object_set_new(o, "answer", json_string("refused"));
	json_object_set_new(o, "held_ms", json_real(held_ms));
	json_object_set_new(o, "queued_ms", json_real(queued_ms));
	log_json(o);
}

void gateout_stop(void)
{
	json_t *o = json_object();

	json_object_set_new(o, "gate", json_string("stop"));
	json_object_set_new(o, "decisions", json_integer((json_int_t)(tallies[T_MISS] + tallies[T_HIT] +
									tallies[T_EXEMPT])));
	json_object_set_new(o, "misses", json_integer((json_int_t)tallies[T_MISS]));
	json_object_set_new(o, "hits", json_integer((json_int_t)tallies[T_HIT]));
	json_object_set_new(o, "exempt", json_integer((json_int_t)tallies[T_EXEMPT]));
	json_object_set_new(o, "drained", json_integer((json_int_t)tallies[T_DRAINED]));
	if (gs.wedge > 0)
		json_object_set_new(o, "wedged", json_integer((json_int_t)tallies[T_WEDGED]));
	if (gs.exhausted || gs.kill > 0)
		json_object_set_new(o, "refused", json_integer((json_int_t)tallies[T_REFUSED]));
	json_object_set_new(o, "unheld", json_integer((json_int_t)tallies[T_UNHELD]));
	tree_log_stop(o);
	json_object_set_new(o, "t_ns", json_integer((json_int_t)now_ns()));
	log_json(o);
}

void gateout_close(void)
{
	int bad;

	if (!log_fp)
		return;
	pthread_mutex_lock(&log_mu);
	bad = fclose(log_fp) != 0;
	log_fp = NULL;
	pthread_mutex_unlock(&log_mu);
	if (bad)
		die(EXIT_FAIL, "--log %s:", gs.log);
}
