/* launcher_spawn.c - the spawn backend (launcher.h): T threads that live
 * as long as the launcher, each on its core class, started together on a
 * barrier for every pass.  A launch is timed around posix_spawn + waitpid
 * and nothing else, with the child's standard streams on /dev/null. */
#define _POSIX_C_SOURCE 200809L
#include "launcher.h"
#include "barrier.h"
#include "coreclass.h"
#include "cpuidle.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>

extern char **environ;

#define MAX_THREADS 1024

struct spawner {
	struct launcher pub;
	posix_spawn_file_actions_t fa;
	pthread_t tid[MAX_THREADS];
	int thread_err[MAX_THREADS];
	uint64_t t_start[MAX_THREADS], t_end[MAX_THREADS];
	struct barrier start, end;
	/* the pass the threads are released into */
	const struct artifact *arts, *only;
	struct launch_sample *out;
	long lo, hi;
	int quit;
	posix_spawnattr_t attr; /* T = 1: the calling thread's */
};

struct worker {
	struct spawner *sp;
	int id;
};

static void launch_one(struct spawner *sp, const struct artifact *a, posix_spawnattr_t *attr,
		       struct launch_sample *s)
{
	uint64_t t0, t1;
	pid_t pid;
	int st = 0, err;

	t0 = now_ns();
	err = posix_spawn(&pid, a->argv[0], &sp->fa, attr, a->argv, environ);
	if (err == 0) {
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	t1 = now_ns();
	s->start_ns = t0 - sp->pub.t_base;
	s->dur_ns = t1 - t0;
	s->spawn_errno = err;
	spawn_outcome(err, st, &s->exit_status, &s->signal);
	s->done = 1;
}

/* Thread id's share of the pass: lo + id, lo + id + T, ... */
static void launch_share(struct spawner *sp, int id, posix_spawnattr_t *attr)
{
	long i;

	sp->t_start[id] = now_ns();
	for (i = sp->lo + id; i < sp->hi && !sp->thread_err[id]; i += sp->pub.threads) {
		if (*sp->pub.interrupted)
			break;
		launch_one(sp, sp->only ? sp->only : &sp->arts[i], attr, &sp->out[i]);
		sp->out[i].thread = id;
	}
	sp->t_end[id] = now_ns();
}

/* The calling thread, or a worker, on the core class with attributes that
 * ask the same of its children; 0 or an errno value. */
static int enter_class(struct spawner *sp, posix_spawnattr_t *attr)
{
	int err;

	posix_spawnattr_init(attr);
	/* No signal flags: handlers reset at exec, and the mask is empty, so the
	 * attributes stay as cheap as a bare posix_spawn's. */
	err = coreclass_enter(sp->pub.cls);
	if (err == 0)
		err = coreclass_spawnattr(attr, sp->pub.cls);
	return err;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct spawner *sp = w->sp;
	posix_spawnattr_t attr;

	sp->thread_err[w->id] = enter_class(sp, &attr);
	for (;;) {
		barrier_wait(&sp->start);
		if (sp->quit)
			break;
		launch_share(sp, w->id, &attr);
		barrier_wait(&sp->end);
	}
	posix_spawnattr_destroy(&attr);
	free(w);
	return NULL;
}

static struct pass_time_ns spawn_pass(struct launcher *l, const struct artifact *arts,
				      const struct artifact *only, struct launch_sample *out,
				      long lo, long hi)
{
	struct spawner *sp = (struct spawner *)l;
	struct pass_time_ns r = { 0, 0, 0 };
	uint64_t first = UINT64_MAX, last = 0, i0 = 0, t0 = 0, i1, t1;
	int t, idle_ok;

	sp->arts = arts;
	sp->only = only;
	sp->out = out;
	sp->lo = lo;
	sp->hi = hi;
	/* the idle CPU is read only where the serialisation verdict uses it,
	 * at T > 1: at T = 1 nothing but the launches runs between blocks */
	idle_ok = l->threads > 1 && cpuidle_read(&i0, &t0) == 0;
	if (l->threads == 1) {
		/* one thread: this one, with nothing to hand over between blocks */
		launch_share(sp, 0, &sp->attr);
	} else {
		barrier_wait(&sp->start);
		barrier_wait(&sp->end);
	}
	if (idle_ok && cpuidle_read(&i1, &t1) == 0 && t1 >= t0 && i1 >= i0) {
		r.idle_ticks = (double)(i1 - i0);
		r.total_ticks = (double)(t1 - t0);
	}
	for (t = 0; t < l->threads; t++) {
		if (sp->thread_err[t]) {
			errno = sp->thread_err[t];
			die(EXIT_FAIL, "cannot put thread %d on core class %s:", t, l->cls);
		}
		if (sp->t_start[t] < first)
			first = sp->t_start[t];
		if (sp->t_end[t] > last)
			last = sp->t_end[t];
	}
	r.wall_ns = last - first;
	return r;
}

static void spawn_warm(struct launcher *l, const struct artifact *a, struct launch_sample *out)
{
	struct spawner *sp = (struct spawner *)l;
	posix_spawnattr_t attr;

	posix_spawnattr_init(&attr);
	launch_one(sp, a, &attr, out);
	posix_spawnattr_destroy(&attr);
}

static void spawn_close(struct launcher *l)
{
	struct spawner *sp = (struct spawner *)l;
	int t;

	if (l->threads == 1) {
		posix_spawnattr_destroy(&sp->attr);
	} else {
		sp->quit = 1;
		barrier_wait(&sp->start);
		for (t = 0; t < l->threads; t++)
			pthread_join(sp->tid[t], NULL);
	}
	posix_spawn_file_actions_destroy(&sp->fa);
	free(sp);
}

static const struct launcher_ops spawn_ops = { spawn_pass, spawn_warm, spawn_close };

struct launcher *launcher_spawn(int threads, const char *cls, uint64_t t_base,
				volatile sig_atomic_t *interrupted)
{
	struct spawner *sp = xmalloc(sizeof *sp);
	int t, err;

	if (threads < 1 || threads > MAX_THREADS)
		die(EXIT_USAGE, "threads must be 1..%d", MAX_THREADS);
	memset(sp, 0, sizeof *sp);
	sp->pub.ops = &spawn_ops;
	sp->pub.threads = threads;
	sp->pub.cpus = cpuidle_cpus();
	sp->pub.cls = cls;
	sp->pub.t_base = t_base;
	sp->pub.interrupted = interrupted;
	posix_spawn_file_actions_init(&sp->fa);
	posix_spawn_file_actions_addopen(&sp->fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&sp->fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&sp->fa, 2, "/dev/null", O_WRONLY, 0);
	if (threads == 1) {
		/* launch is one configuration: its only launching thread is this one */
		sp->thread_err[0] = enter_class(sp, &sp->attr);
		return &sp->pub;
	}
	/* the threads and this one meet at both barriers */
	barrier_init(&sp->start, threads + 1);
	barrier_init(&sp->end, threads + 1);
	for (t = 0; t < threads; t++) {
		struct worker *w = xmalloc(sizeof *w);

		w->sp = sp;
		w->id = t;
		err = pthread_create(&sp->tid[t], NULL, worker_main, w);
		if (err) {
			errno = err;
			die(EXIT_FAIL, "cannot start thread %d:", t);
		}
	}
	return &sp->pub;
}
