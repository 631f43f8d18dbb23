/* launcher_sim.c - the sim backend (launcher.h): each pass is handed to
 * the model (sim.h), which launches nothing and says when each launch
 * would have started and how long it would have taken.  Every launch
 * succeeds. */
#define _POSIX_C_SOURCE 200809L
#include "launcher.h"
#include "sim.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the model's idle time in the ticks of cpuidle.h (10 ms of one CPU) */
#define TICK_MS 10.0

struct simulated {
	struct launcher pub;
	struct sim_params params;
	struct sim *model;
	double size_mib;
	char describe[600];
};

static struct pass_time_ns sim_launcher_pass(struct launcher *l, const struct artifact *arts,
					     const struct artifact *only, struct launch_sample *out,
					     long lo, long hi)
{
	struct simulated *s = (struct simulated *)l;
	struct pass_time_ns r = { 0, 0, 0 };
	size_t n = hi > lo ? (size_t)(hi - lo) : 0, i;
	struct sim_launch *x = xmalloc((n ? n : 1) * sizeof *x);
	double idle, wall;

	(void)arts;
	for (i = 0; i < n; i++) {
		memset(&x[i], 0, sizeof x[i]);
		x[i].thread = (int)(i % (size_t)l->threads);
		x[i].artifact = lo + (long)i;
		x[i].outside = only != NULL;
		x[i].run = 1;
		x[i].size_mib = s->size_mib;
	}
	wall = sim_pass(s->model, x, n, l->threads, &idle);
	for (i = 0; i < n; i++) {
		struct launch_sample *o = &out[lo + (long)i];

		o->start_ns = (uint64_t)llround(x[i].start_ms * 1e6);
		o->dur_ns = (uint64_t)llround(x[i].dur_ms * 1e6);
		o->exit_status = 0;
		o->signal = 0;
		o->spawn_errno = 0;
		o->thread = x[i].thread;
		o->done = 1;
	}
	free(x);
	r.wall_ns = (uint64_t)llround(wall * 1e6);
	r.total_ticks = wall * (double)s->params.cpus / TICK_MS;
	r.idle_ticks = idle * r.total_ticks;
	return r;
}

static void sim_launcher_warm(struct launcher *l, const struct artifact *a, struct launch_sample *out)
{
	struct simulated *s = (struct simulated *)l;
	struct sim_launch x;

	(void)a;
	memset(&x, 0, sizeof x);
	x.thread = 0;
	x.artifact = -1;
	x.outside = 1;
	x.run = 1;
	sim_pass(s->model, &x, 1, 1, NULL);
	memset(out, 0, sizeof *out);
	out->dur_ns = (uint64_t)llround(x.dur_ms * 1e6);
	out->done = 1;
}

static void sim_launcher_close(struct launcher *l)
{
	struct simulated *s = (struct simulated *)l;

	sim_close(s->model);
	free(s);
}

static const struct launcher_ops sim_ops = { sim_launcher_pass, sim_launcher_warm,
					     sim_launcher_close };

struct launcher *launcher_sim(const char *spec, const char *kind, const char *stream,
			      int threads, double size_mib)
{
	struct simulated *s = xmalloc(sizeof *s);
	char err[320];
	int k = sim_kind(kind);

	memset(s, 0, sizeof *s);
	if (sim_parse(spec, &s->params, err, sizeof err) != 0)
		die(EXIT_USAGE, "%s", err);
	if (k < 0)
		die(EXIT_USAGE, "the simulator has no model of the kind '%s'", kind);
	s->pub.ops = &sim_ops;
	s->pub.threads = threads;
	s->pub.cpus = s->params.cpus;
	s->pub.cls = "all";
	s->model = sim_open(&s->params, k, stream);
	s->size_mib = size_mib;
	snprintf(s->describe, sizeof s->describe, "sim:");
	sim_describe(&s->params, s->describe + 4, sizeof s->describe - 4);
	return &s->pub;
}

const char *launcher_describe(const struct launcher *l)
{
	if (l->ops == &sim_ops)
		return ((const struct simulated *)l)->describe;
	return "spawn";
}
