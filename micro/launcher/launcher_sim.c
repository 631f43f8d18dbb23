/* launcher_sim.c - the sim backend (launcher.h): each pass is handed to
 * the model (sim.h), which launches nothing and says when each launch
 * would have started and how long it would have taken.  Every launch
 * succeeds, but one the model's exhausted checker refuses (EPERM) or
 * never answers (a hang), or one its checker refuses (kill=R): killed. */
#define _POSIX_C_SOURCE 200809L
#include "launcher.h"
#include "sim.h"
#include "util.h"

#include <errno.h>
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

/* The simulated launches of a pass into out: one the wedged model never
 * ends (or that ends past the bound) is a hang, killed at the bound; one
 * that would have started after the first kill is never made (the case
 * stops there, as on the real launcher). */
static void sim_samples(struct launcher *l, const struct sim_launch *x, size_t n,
			struct launch_sample *out, long lo)
{
	double bound = l->hang_s * 1000.0, stop = INFINITY;
	size_t i;

	for (i = 0; i < n; i++)
		if (x[i].start_ms >= 0 && bound > 0 && x[i].dur_ms >= bound &&
		    x[i].start_ms + bound < stop)
			stop = x[i].start_ms + bound;
	for (i = 0; i < n; i++) {
		struct launch_sample *o = &out[lo + (long)i];

		memset(o, 0, sizeof *o);
		if (x[i].start_ms < 0 || x[i].start_ms >= stop)
			continue; /* not made */
		o->start_ns = (uint64_t)llround(x[i].start_ms * 1e6);
		o->thread = x[i].thread;
		o->done = 1;
		if (bound > 0 && x[i].dur_ms >= bound) {
			o->dur_ns = (uint64_t)llround(bound * 1e6);
			o->exit_status = -1;
			o->signal = 9; /* SIGKILL, as the real launcher sends */
			o->hang = 1;
			snprintf(o->state, sizeof o->state, "sim");
			o->cpu_s = -1;
			snprintf(o->wchan, sizeof o->wchan, "-");
			l->hangs++;
			continue;
		}
		o->dur_ns = (uint64_t)llround(x[i].dur_ms * 1e6);
		if (x[i].refused) {
			/* the exhausted checker refused it: not run, as the
			 * gate's refusal fails the exec */
			o->exit_status = -1;
			o->spawn_errno = EPERM;
		} else if (x[i].killed) {
			/* refused by the model's checker (kill=R): killed before
			 * the program ran, as a Mac's kills are (SIGKILL) */
			o->exit_status = -1;
			o->signal = 9;
		}
	}
}

static struct pass_time_ns sim_launcher_pass(struct launcher *l, const struct artifact *arts,
					     const struct artifact *only, struct launch_sample *out,
					     long lo, long hi)
{
	struct simulated *s = (struct simulated *)l;
	struct pass_time_ns r = { 0, 0, 0 };
	size_t n = hi > lo ? (size_t)(hi - lo) : 0, i;
	struct sim_launch *x = xmalloc((n ? n : 1) * sizeof *x);
	double idle, wall, first = INFINITY, last = 0;
	int hangs = l->hangs;

	(void)arts;
	for (i = 0; i < n; i++) {
		memset(&x[i], 0, sizeof x[i]);
		x[i].thread = (int)(i % (size_t)l->threads);
		x[i].artifact = lo + (long)i;
		x[i].outside = only != NULL;
		x[i].run = 1;
		x[i].size_mib = s->size_mib;
		x[i].start_ms = -1; /* until the model starts it */
	}
	wall = sim_pass(s->model, x, n, l->threads, &idle);
	sim_samples(l, x, n, out, lo);
	if (l->hangs > hangs) {
		/* the pass ends at its last launch's end, a hung one's kill */
		for (i = 0; i < n; i++) {
			const struct launch_sample *o = &out[lo + (long)i];

			if (!o->done)
				continue;
			if (o->start_ns / 1e6 < first)
				first = (double)o->start_ns / 1e6;
			if ((double)(o->start_ns + o->dur_ns) / 1e6 > last)
				last = (double)(o->start_ns + o->dur_ns) / 1e6;
		}
		r.wall_ns = last > first ? (uint64_t)llround((last - first) * 1e6) : 0;
		free(x);
		return r; /* idle unknown */
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

/* launcher_sim_params: launcher_sim of settings already parsed (sim_parse):
 * simrate's thousands of runs of one scenario parse its settings once. */
struct launcher *launcher_sim_params(const struct sim_params *p, const char *kind,
				     const char *stream, int threads, double size_mib)
{
	struct simulated *s = xmalloc(sizeof *s);
	int k = sim_kind(kind);

	memset(s, 0, sizeof *s);
	s->params = *p;
	if (k < 0)
		die(EXIT_USAGE, "the simulator has no model of the kind '%s'", kind);
	s->pub.ops = &sim_ops;
	s->pub.threads = threads;
	s->pub.cpus = s->params.cpus;
	s->pub.cls = "all";
	s->model = sim_open(&s->params, k, stream);
	s->size_mib = size_mib;
	/* (the description is written when it is first asked for: most of a
	 * simrate run's time went to its printf of the settings) */
	s->describe[0] = '\0';
	return &s->pub;
}

struct launcher *launcher_sim(const char *spec, const char *kind, const char *stream,
			      int threads, double size_mib)
{
	struct sim_params p;
	char err[320];

	if (sim_parse(spec, &p, err, sizeof err) != 0)
		die(EXIT_USAGE, "%s", err);
	return launcher_sim_params(&p, kind, stream, threads, size_mib);
}

const char *launcher_describe(const struct launcher *l)
{
	if (l->ops == &sim_ops) {
		struct simulated *s = (struct simulated *)l;

		if (!s->describe[0]) {
			snprintf(s->describe, sizeof s->describe, "sim:");
			sim_describe(&s->params, s->describe + 4, sizeof s->describe - 4);
		}
		return s->describe;
	}
	return "spawn";
}
