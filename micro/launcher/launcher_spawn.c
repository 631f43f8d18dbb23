/* launcher_spawn.c - the spawn backend (launcher.h): T threads that live
 * as long as the launcher, each on its core class, started together on a
 * barrier for every pass.  A launch is timed around posix_spawn + waitpid
 * and nothing else, with the child's standard streams on /dev/null.
 *
 * No launch waits for ever: a monitor thread watches every running child.
 * One that passes the bound (hang_s) is a hang: its state, CPU time and
 * wait channel are read (procstate.h), the checking services sampled, and
 * it is killed; one that does not go within HANG_REAP_S of SIGKILL (stuck
 * in the kernel) is given up on: its launching thread is woken from
 * waitpid, the sample says unkillable with its pid, and the run goes on.
 * After a hang no thread starts another launch: the case stops there. */
#define _POSIX_C_SOURCE 200809L
#include "launcher.h"
#include "barrier.h"
#include "coreclass.h"
#include "cpuidle.h"
#include "procstate.h"
#include "outcome.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define MAX_THREADS 1024

/* A launching thread's running child, as the monitor sees it (under mu). */
struct running {
	int busy;             /* a launch is under way (pid may be unknown yet) */
	long tid;             /* the launching thread (procstate_thread) */
	pid_t pid;            /* 0: not known yet (in posix_spawn) or none */
	uint64_t t0;
	pthread_t who;        /* the launching thread, to wake from waitpid */
	struct launch_sample *s;
	int killed;           /* 1: past the bound, 2: the run was interrupted */
	uint64_t killed_at;
	int abandon;          /* not reaped in HANG_REAP_S: stop waiting for it */
};

struct spawner {
	struct launcher pub;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct running run[MAX_THREADS];
	pthread_t monitor;
	int monitoring, mon_quit, services_before, services_after;
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

/* hangs, under mu: read by the launching threads before each launch */
static int hung(struct spawner *sp)
{
	int h;

	pthread_mutex_lock(&sp->mu);
	h = sp->pub.hangs;
	pthread_mutex_unlock(&sp->mu);
	return h;
}

static void launch_one(struct spawner *sp, int id, const struct artifact *a,
		       posix_spawnattr_t *attr, struct launch_sample *s)
{
	struct running *r = &sp->run[id];
	uint64_t t0, t1;
	pid_t pid;
	int st = 0, err, gone = 1;

	memset(s, 0, sizeof *s);
	/* exe-freshlink: the object a hard link made just before its first
	 * launch, untimed (a link already there is that launch's: a repeat) */
	if (a->link_from && link(a->link_from, a->object) != 0 && errno != EEXIST) {
		s->spawn_errno = errno;
		s->exit_status = -1;
		s->done = 1;
		return;
	}
	/* the monitor knows of the launch before posix_spawn: on Linux the
	 * child's execve, checks and all, happens inside it (vfork) */
	pthread_mutex_lock(&sp->mu);
	r->busy = 1;
	r->pid = 0;
	r->tid = procstate_thread();
	r->who = pthread_self();
	r->s = s;
	r->killed = r->abandon = 0;
	r->t0 = now_ns(); /* the bound from now: never the last launch's t0 (or 0) */
	pthread_mutex_unlock(&sp->mu);
	t0 = now_ns(); /* nothing but the spawn and the wait after it */
	err = posix_spawn(&pid, a->argv[0], &sp->fa, attr, a->argv, environ);
	if (err == 0) {
		pthread_mutex_lock(&sp->mu);
		r->pid = pid;
		pthread_mutex_unlock(&sp->mu);
		while (waitpid(pid, &st, 0) < 0) {
			int ab;

			if (errno != EINTR)
				break;
			pthread_mutex_lock(&sp->mu);
			ab = r->abandon;
			pthread_mutex_unlock(&sp->mu);
			if (ab) {
				gone = 0;
				break;
			}
		}
	}
	t1 = now_ns();
	pthread_mutex_lock(&sp->mu);
	r->busy = 0;
	r->pid = 0;
	pthread_mutex_unlock(&sp->mu);
	s->start_ns = t0 - sp->pub.t_base;
	s->dur_ns = t1 - t0;
	s->spawn_errno = err;
	spawn_outcome(err, st, &s->exit_status, &s->signal);
	if (s->hang) {
		/* killed at the bound: its time is the bound's, whatever the
		 * reaping took; its pid is the one the monitor killed */
		s->dur_ns = (uint64_t)(sp->pub.hang_s * 1e9);
		s->exit_status = -1;
		s->signal = SIGKILL;
		s->spawn_errno = 0;
		s->unkillable = !gone;
	}
	s->done = 1;
}

/* ---- the monitor ---------------------------------------------------------- */

/* scripts/probe/services record FILE LABEL, bounded like everything else. */
static void services_record(struct spawner *sp, const char *label)
{
	char *argv[] = { "sh", (char *)sp->pub.services_cmd, "record", (char *)sp->pub.services_out,
			 (char *)label, NULL };
	posix_spawn_file_actions_t fa;
	uint64_t until = now_ns() + 5000000000ull;
	struct timespec ts = { 0, 20000000 };
	pid_t pid;
	int st;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&pid, "sh", &fa, NULL, argv, environ) == 0) {
		while (waitpid(pid, &st, WNOHANG) == 0) {
			if (now_ns() > until) {
				kill(pid, SIGKILL);
				while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
					;
				break;
			}
			nanosleep(&ts, NULL);
		}
	}
	posix_spawn_file_actions_destroy(&fa);
}

/* A child past the bound: its evidence, then SIGKILL (mu held on entry
 * and exit; released while reading). */
static void take_hang(struct spawner *sp, struct running *r, uint64_t now)
{
	pid_t pid = r->pid;
	long tid = r->tid, known[MAX_THREADS];
	struct procstate ps;
	int ok, t, n = 0;

	for (t = 0; t < sp->pub.threads; t++)
		if (sp->run[t].pid)
			known[n++] = (long)sp->run[t].pid;
	pthread_mutex_unlock(&sp->mu);
	if (!pid) {
		/* still in posix_spawn: the child it is starting */
		long c = procstate_child(tid, known, n);

		pid = c > 0 ? (pid_t)c : 0;
	}
	ok = pid ? procstate_read((long)pid, &ps) : -1;
	if (sp->pub.services_cmd && !sp->services_after) {
		sp->services_after = 1;
		if (!sp->services_before) {
			sp->services_before = 1;
			services_record(sp, "before");
		}
		services_record(sp, "after");
	}
	pthread_mutex_lock(&sp->mu);
	if (!r->busy || (r->pid && r->pid != pid))
		return; /* it ended meanwhile: no hang */
	r->s->hang = 1;
	r->s->pid = (long)pid;
	snprintf(r->s->state, sizeof r->s->state, "%s", ok == 0 ? ps.state : "?");
	r->s->cpu_s = ok == 0 ? ps.cpu_s : -1;
	snprintf(r->s->wchan, sizeof r->s->wchan, "%s", ok == 0 ? ps.wchan : "-");
	if (pid)
		kill(pid, SIGKILL);
	else
		fprintf(stderr, "launch: a launch passed its bound before its process could be "
			"found: it cannot be killed\n");
	r->pid = pid;
	r->killed = 1;
	r->killed_at = now;
	sp->pub.hangs++;
}

static void *monitor_main(void *arg)
{
	struct spawner *sp = arg;
	uint64_t bound = (uint64_t)(sp->pub.hang_s * 1e9), reap = (uint64_t)HANG_REAP_S * 1000000000u;
	int t;

	pthread_mutex_lock(&sp->mu);
	while (!sp->mon_quit) {
		struct timespec ts;
		uint64_t now = now_ns();

		for (t = 0; t < sp->pub.threads; t++) {
			struct running *r = &sp->run[t];

			if (!r->busy)
				continue;
			if (!r->killed && *sp->pub.interrupted && r->pid) {
				kill(r->pid, SIGKILL);
				r->killed = 2;
				r->killed_at = now;
			} else if (!r->killed && now - r->t0 >= bound) {
				take_hang(sp, r, now);
			} else if (!r->killed && now - r->t0 >= bound / 2 && sp->pub.services_cmd &&
				   !sp->services_before) {
				sp->services_before = 1;
				pthread_mutex_unlock(&sp->mu);
				services_record(sp, "before");
				pthread_mutex_lock(&sp->mu);
			} else if (r->killed && now - r->killed_at >= reap) {
				/* stuck in the kernel: wake its thread, every round
				 * until it has left waitpid */
				if (!r->abandon) {
					r->abandon = 1;
					if (r->killed == 1) {
						sp->pub.unkillable++;
						fprintf(stderr, "launch: process %ld did not end %d s "
							"after SIGKILL (stuck in the kernel): left "
							"behind, the run goes on\n", (long)r->pid,
							HANG_REAP_S);
					}
				}
				pthread_kill(r->who, SIGUSR2);
			}
		}
		/* wake every 50 ms */
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 50000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&sp->cv, &sp->mu, &ts);
	}
	pthread_mutex_unlock(&sp->mu);
	return NULL;
}

static void on_wake(int sig)
{
	(void)sig; /* only to interrupt waitpid */
}

static void start_monitor(struct spawner *sp)
{
	struct sigaction sa;
	sigset_t all, old;
	int err;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_wake;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: waitpid returns EINTR */
	sigaction(SIGUSR2, &sa, NULL);
	pthread_mutex_init(&sp->mu, NULL);
	pthread_cond_init(&sp->cv, NULL);
	/* the monitor takes no signal: they go to the launching threads */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = pthread_create(&sp->monitor, NULL, monitor_main, sp);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		errno = err;
		die(EXIT_FAIL, "cannot start the launch monitor:");
	}
	sp->monitoring = 1;
}

static void stop_monitor(struct spawner *sp)
{
	if (!sp->monitoring)
		return;
	pthread_mutex_lock(&sp->mu);
	sp->mon_quit = 1;
	pthread_cond_signal(&sp->cv);
	pthread_mutex_unlock(&sp->mu);
	pthread_join(sp->monitor, NULL);
	sp->monitoring = 0;
}

/* Thread id's share of the pass: lo + id, lo + id + T, ... */
static void launch_share(struct spawner *sp, int id, posix_spawnattr_t *attr)
{
	long i;

	sp->t_start[id] = now_ns();
	for (i = sp->lo + id; i < sp->hi && !sp->thread_err[id]; i += sp->pub.threads) {
		if (*sp->pub.interrupted || hung(sp))
			break;
		launch_one(sp, id, sp->only ? sp->only : &sp->arts[i], attr, &sp->out[i]);
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
	launch_one(sp, 0, a, &attr, out);
	posix_spawnattr_destroy(&attr);
}

static void spawn_close(struct launcher *l)
{
	struct spawner *sp = (struct spawner *)l;
	int t;

	stop_monitor(sp);
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
				volatile sig_atomic_t *interrupted, double hang_s)
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
	sp->pub.hang_s = hang_s > 0 ? hang_s : 30;
	posix_spawn_file_actions_init(&sp->fa);
	posix_spawn_file_actions_addopen(&sp->fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&sp->fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&sp->fa, 2, "/dev/null", O_WRONLY, 0);
	start_monitor(sp);
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
