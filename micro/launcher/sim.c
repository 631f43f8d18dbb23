/* sim.c - the seeded model of a first-launch checker (sim.h): what each
 * kind of launch meets, the random numbers, and the model's passes.  Its
 * settings are simsettings.c's, its base costs' fitting simfit.c's. */
#define _POSIX_C_SOURCE 200809L
#include "sim.h"
#include "util.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- what each kind of launch meets ---------------------------------------- */

/* How an artifact's object relates to what the checker saw before it was
 * made, per key: new (its own), seen (an object mkfresh launched while
 * making it: a hard link shares the base's inode, a copy the base's
 * content, a rewrite the launched slot's path), or shared (one for every
 * artifact, not seen before: the content of the system binary that
 * system-copy copies). */
enum rel { NEW, SEEN, SHARED };

/* Where a launch meets the checker: the exec of its program, a read of
 * its file (a decision only with on=open), the open of a library (always:
 * the loader maps it).  The object is the artifact, or the host that
 * mkfresh launched before (dylib). */
enum what { EXEC, READ, LIBRARY };
enum obj { ARTIFACT, HOST };

struct point {
	enum what what;
	enum obj obj;
	double at; /* share of the base cost spent before it */
};

#define MAX_POINTS 2

/* A kind's model, by its row of the kinds table (kinds.h); a kind with
 * no model here (n_points 0) is one the simulator does not know.  rel by
 * key (inode, path, content, inode-mtime): what the placement keeps of the
 * launched file (docs/remedies.md, "What each placement keeps"). */
static const struct kind_model {
	enum rel rel[SIM_KEYS];
	int n_points;
	struct point points[MAX_POINTS];
	/* 1: the whole file was read while making (exe-assessed): a checker
	 * of opens (on=open) saw it then */
	int read_first;
} kinds[SIM_KINDS] = {
	/* the script's exec; then sh opens it to read it */
	[K_SCRIPT] = { { NEW, NEW, NEW, NEW }, 2,
		       { { EXEC, ARTIFACT, 0.10 }, { READ, ARTIFACT, 0.60 } }, 0 },
	/* sh x.sh: sh is outside the work folder; it only reads x.sh */
	[K_SCRIPT_VIA_SH] = { { NEW, NEW, NEW, NEW }, 1, { { READ, ARTIFACT, 0.60 } }, 0 },
	[K_EXE] = { { NEW, NEW, NEW, NEW }, 1, { { EXEC, ARTIFACT, 0.15 } }, 0 },
	[K_EXE_COPY] = { { NEW, NEW, SEEN, NEW }, 1, { { EXEC, ARTIFACT, 0.15 } }, 0 },
	[K_EXE_HARDLINK] = { { SEEN, NEW, SEEN, SEEN }, 1, { { EXEC, ARTIFACT, 0.15 } }, 0 },
	[K_EXE_REWRITE] = { { NEW, SEEN, SEEN, NEW }, 1, { { EXEC, ARTIFACT, 0.15 } }, 0 },
	/* a clone: a new inode with the base's bytes, as a copy */
	[K_EXE_CLONE] = { { NEW, NEW, SEEN, NEW }, 1, { { EXEC, ARTIFACT, 0.15 } }, 0 },
	/* linked at its launch: the base's inode and times, a new path */
	[K_EXE_FRESHLINK] = { { SEEN, NEW, SEEN, SEEN }, 1, { { EXEC, ARTIFACT, 0.15 } }, 0 },
	/* the launched slot's inode and path, new bytes and mtime */
	[K_EXE_OVERWRITE] = { { SEEN, SEEN, NEW, NEW }, 1, { { EXEC, ARTIFACT, 0.15 } }, 0 },
	/* the launched slot, its bytes the same: only its mtime is new */
	[K_EXE_SAMEBYTES] = { { SEEN, SEEN, SEEN, NEW }, 1, { { EXEC, ARTIFACT, 0.15 } }, 0 },
	[K_EXE_TOUCH] = { { SEEN, SEEN, SEEN, NEW }, 1, { { EXEC, ARTIFACT, 0.15 } }, 0 },
	/* a new program, read whole while making */
	[K_EXE_ASSESSED] = { { NEW, NEW, NEW, NEW }, 1, { { EXEC, ARTIFACT, 0.15 } }, 1 },
	[K_SYSTEM_COPY] = { { NEW, NEW, SHARED, NEW }, 1, { { EXEC, ARTIFACT, 0.15 } }, 0 },
	/* the host's exec (launched while making), then dlopen of the library */
	[K_DYLIB] = { { NEW, NEW, NEW, NEW }, 2,
		      { { EXEC, HOST, 0.10 }, { LIBRARY, ARTIFACT, 0.60 } }, 0 },
	[K_QUARANTINED] = { { NEW, NEW, NEW, NEW }, 1, { { EXEC, ARTIFACT, 0.15 } }, 0 },
};

int sim_kind(const char *kind)
{
	int k = kind_find(kind);

	return k >= 0 && kinds[k].n_points > 0 ? k : -1;
}

const char *sim_kind_name(int kind)
{
	return kind >= 0 && kind < SIM_KINDS ? kind_table[kind].name : "?";
}

double sim_corr(const struct sim_params *p)
{
	return p->corr >= 0 ? p->corr : p->fit_corr;
}

/* ---- random numbers: xoshiro256**, seeded by splitmix64 --------------------- */

struct rng {
	uint64_t s[4];
};

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t next_u64(struct rng *r)
{
	uint64_t out = rotl(r->s[1] * 5, 7) * 9, t = r->s[1] << 17;

	r->s[2] ^= r->s[0];
	r->s[3] ^= r->s[1];
	r->s[1] ^= r->s[2];
	r->s[0] ^= r->s[3];
	r->s[2] ^= t;
	r->s[3] = rotl(r->s[3], 45);
	return out;
}

/* uniform in (0, 1) */
static double uniform(struct rng *r)
{
	return ((double)(next_u64(r) >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(struct rng *r)
{
	double u = uniform(r), v = uniform(r);

	return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

static uint64_t fnv1a(const char *s, uint64_t h)
{
	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 0x100000001b3ull;
	}
	return h;
}

/* ---- the model -------------------------------------------------------------- */

/* Bursts of other load: on and off, each for 50-300 ms at random (as
 * micro/burn), from the model's start. */
#define BURST_MIN_MS 50.0
#define BURST_MAX_MS 300.0
/* Between passes launch starts its threads again, and off the barrier each
 * thread is a little later than the one before it. */
#define PASS_GAP_MS 0.05
#define THREAD_SKEW_MS 0.01
/* A thread's gap between two launches (the loop, the sample's bookkeeping). */
#define LAUNCH_GAP_MS 0.002
/* The machine's slow state (sim_params.corr) forgets itself over this. */
#define STATE_TAU_MS 100.0

struct sim {
	struct sim_params p;
	const struct kind_model *k;
	struct sim_base base;
	int kind;
	struct rng rng;      /* launch costs */
	struct rng burst_rng;
	uint64_t salt;       /* makes the artifacts' identities this model's own */
	double corr;         /* of the machine's state */
	double state, state_at; /* the state (a standard normal) and when it was */
	double now;
	double *burst;       /* alternating on/off edges: [0] on, [1] off, ... */
	size_t n_burst, cap_burst;
	uint64_t *cache;     /* open addressing; 0 = empty */
	size_t cache_cap, cache_len;
	double *free_at;     /* when each checker is free */
	long held;           /* checks held so far (wedge) */
};

static void cache_add(struct sim *s, uint64_t id);

static int cache_has(const struct sim *s, uint64_t id)
{
	size_t i = (size_t)(id % s->cache_cap);

	while (s->cache[i]) {
		if (s->cache[i] == id)
			return 1;
		i = (i + 1) % s->cache_cap;
	}
	return 0;
}

static void cache_grow(struct sim *s)
{
	uint64_t *old = s->cache;
	size_t old_cap = s->cache_cap, i;

	s->cache_cap = old_cap ? old_cap * 2 : 256;
	s->cache = calloc(s->cache_cap, sizeof *s->cache);
	if (!s->cache)
		die(EXIT_FAIL, "out of memory");
	s->cache_len = 0;
	for (i = 0; i < old_cap; i++)
		if (old[i])
			cache_add(s, old[i]);
	free(old);
}

static void cache_add(struct sim *s, uint64_t id)
{
	size_t i;

	if ((s->cache_len + 1) * 2 > s->cache_cap)
		cache_grow(s);
	i = (size_t)(id % s->cache_cap);
	while (s->cache[i]) {
		if (s->cache[i] == id)
			return;
		i = (i + 1) % s->cache_cap;
	}
	s->cache[i] = id;
	s->cache_len++;
}

struct sim *sim_open(const struct sim_params *p, int kind, const char *stream)
{
	struct sim *s = xmalloc(sizeof *s);
	uint64_t x;
	int i;

	if (kind < 0 || kind >= SIM_KINDS || kinds[kind].n_points == 0)
		die(EXIT_USAGE, "the simulator has no model of this kind");
	memset(s, 0, sizeof *s);
	s->p = *p;
	s->k = &kinds[kind];
	s->base = p->base[kind];
	s->kind = kind;
	if (s->base.n == 0)
		die(EXIT_USAGE, "the simulator's base costs have no fit of the kind '%s'", kind_table[kind].name);
	x = fnv1a(stream, 0xcbf29ce484222325ull) ^ (p->seed * 0x9E3779B97F4A7C15ull);
	for (i = 0; i < 4; i++)
		s->rng.s[i] = splitmix(&x);
	for (i = 0; i < 4; i++)
		s->burst_rng.s[i] = splitmix(&x);
	s->salt = splitmix(&x) | 1;
	s->corr = sim_corr(p);
	s->state = normal(&s->rng);
	s->free_at = xmalloc((size_t)p->workers * sizeof *s->free_at);
	for (i = 0; i < p->workers; i++)
		s->free_at[i] = 0;
	cache_grow(s);
	s->now = 1.0; /* launch's first launch is a little after its start */
	return s;
}

void sim_close(struct sim *s)
{
	if (!s)
		return;
	free(s->burst);
	free(s->cache);
	free(s->free_at);
	free(s);
}

double sim_now(const struct sim *s)
{
	return s->now;
}

void sim_idle(struct sim *s, double ms)
{
	s->now += ms;
}

/* Whether a burst is on at time t (edges made as far as needed). */
static int in_burst(struct sim *s, double t)
{
	size_t lo = 0, hi;

	if (!s->p.bursts)
		return 0;
	while (s->n_burst == 0 || s->burst[s->n_burst - 1] <= t) {
		double at = s->n_burst ? s->burst[s->n_burst - 1] : 0.0;
		double len = BURST_MIN_MS + (BURST_MAX_MS - BURST_MIN_MS) * uniform(&s->burst_rng);

		if (s->n_burst == s->cap_burst) {
			s->cap_burst = s->cap_burst ? s->cap_burst * 2 : 64;
			s->burst = xrealloc(s->burst, s->cap_burst * sizeof *s->burst);
		}
		/* the first edge: the load starts at random within its first off */
		if (s->n_burst == 0)
			len *= uniform(&s->burst_rng);
		s->burst[s->n_burst++] = at + len;
	}
	/* the last edge at or below t: edge j starts an on (j even) or an off */
	hi = s->n_burst;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->burst[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && (lo - 1) % 2 == 0;
}

/* The time the bursts were on within [a, b). */
static double burst_overlap(struct sim *s, double a, double b)
{
	double on = 0;
	size_t j;

	if (!s->p.bursts || b <= a)
		return 0;
	(void)in_burst(s, b);
	for (j = 0; j < s->n_burst; j += 2) {
		double from = s->burst[j], to = j + 1 < s->n_burst ? s->burst[j + 1] : b;

		if (to <= a || from >= b)
			continue;
		on += (to < b ? to : b) - (from > a ? from : a);
	}
	return on;
}

/* The identity of artifact i's object under the model's key. */
static uint64_t identity(const struct sim *s, long artifact, enum obj obj, int *seen)
{
	enum rel rel = obj == HOST || (s->k->read_first && s->p.on_open) ? SEEN : s->k->rel[s->p.key];
	uint64_t x = s->salt ^ ((uint64_t)(artifact + 1) * 0xD6E8FEB86659FD93ull);

	*seen = rel == SEEN;
	if (rel == SHARED)
		return s->salt ^ 0x5851F42D4C957F2Dull;
	x ^= x >> 32;
	x *= 0xD6E8FEB86659FD93ull;
	x ^= x >> 32;
	return x ? x : 1;
}

int sim_refused(long n, double r)
{
	if (r <= 0 || n < 1)
		return 0;
	return (long)floor((double)n * r + 1e-9) > (long)floor((double)(n - 1) * r + 1e-9);
}

/* One decision arriving at `at`: first in first out, to the checker free
 * first; returns when its launch goes on (or, *refused set, ends). */
static double decide(struct sim *s, const struct sim_launch *l, enum obj obj, double at,
		     int *refused)
{
	int seen;
	uint64_t id = identity(s, l->artifact, obj, &seen);
	double hold = s->p.every_ms, start;
	long w, best = 0;

	if (s->p.wedge > 0 && s->held >= s->p.wedge) {
		/* wedged: no answer, for this decision or any after it */
		for (w = 0; w < s->p.workers; w++)
			s->free_at[w] = INFINITY;
		return INFINITY;
	}
	*refused = 0;
	if (!seen && !cache_has(s, id)) {
		s->held++;
		hold += s->p.latency_ms + s->p.per_mb_ms * l->size_mib;
		cache_add(s, id);
		*refused = sim_refused(s->held, s->p.kill);
	}
	if (s->p.jitter > 0 && hold > 0)
		hold *= exp(s->p.jitter * normal(&s->rng));
	for (w = 1; w < s->p.workers; w++)
		if (s->free_at[w] < s->free_at[best])
			best = w;
	start = s->free_at[best] > at ? s->free_at[best] : at;
	s->free_at[best] = start + hold;
	return start + hold;
}

/* A thread's progress through the pass. */
struct thread_state {
	double t;        /* when its next event happens */
	long cur;        /* the launch it is in, -1 between launches */
	int point;       /* the next checker point of that launch */
	double base;     /* that launch's base cost */
	double done_at;  /* share of the base cost done */
	int busy;        /* 0: wants its next launch */
};

static double draw_base(struct sim *s, double start, int threads)
{
	const struct sim_fit *f = &s->base.fit[0];
	double u, b, keep, z;
	int i, j;

	/* the machine's state drifts (Ornstein-Uhlenbeck, STATE_TAU_MS); the
	 * launch's quantile is a normal correlated with it by corr, so
	 * launches close in time cost alike and the distribution is the fit's */
	if (start > s->state_at) {
		keep = exp(-(start - s->state_at) / STATE_TAU_MS);
		s->state = keep * s->state + sqrt(1 - keep * keep) * normal(&s->rng);
		s->state_at = start;
	}
	z = s->corr * s->state + sqrt(1 - s->corr * s->corr) * normal(&s->rng);
	u = 0.5 * erfc(-z / 1.4142135623730951) * (SIM_QUANTILES - 1);

	/* the fit of the largest thread count at or below T */
	for (i = 1; i < s->base.n && s->base.fit[i].threads <= threads; i++)
		f = &s->base.fit[i];
	j = (int)u;
	if (j >= SIM_QUANTILES - 1)
		j = SIM_QUANTILES - 2;
	b = f->q[j] + (u - j) * (f->q[j + 1] - f->q[j]);
	/* more threads than CPUs, beyond what the fit saw, share them */
	if (threads > s->p.cpus && threads > f->threads)
		b *= (double)threads / (double)(f->threads > s->p.cpus ? f->threads : s->p.cpus);
	if (in_burst(s, start))
		b *= s->p.burst_x;
	return b;
}

/* Whether point j of the kind is a decision under these settings. */
static int checks(const struct sim *s, const struct sim_launch *l, int j)
{
	const struct point *pt = &s->k->points[j];

	if (l->outside || s->p.exempt)
		return 0;
	return pt->what != READ || s->p.on_open;
}

/* first_event: the thread whose next event is first (ties: the lower
 * thread); -1 when none has anything left to do. */
static int first_event(const struct thread_state *th, int threads)
{
	int t = -1, i;

	for (i = 0; i < threads; i++) {
		if (th[i].cur < 0 && th[i].busy < 0)
			continue;
		if (t < 0 || th[i].t < th[t].t)
			t = i;
	}
	return t;
}

/* next_launch: thread T's next launch, its own or whichever is next; -1
 * when none is left for it. */
static long next_launch(const struct sim_launch *l, size_t n, const char *taken, int t)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!taken[i] && (l[i].thread == t || l[i].thread == -1))
			return (long)i;
	return -1;
}

/* skip_unchecked: TH's launch X moves past the checker points that do not
 * check it; returns where the next point (or the launch's end) falls, as a
 * share of its base cost. */
static double skip_unchecked(const struct sim *s, const struct sim_launch *x, struct thread_state *th)
{
	while (th->point < s->k->n_points && !checks(s, x, th->point))
		th->point++;
	return th->point < s->k->n_points ? s->k->points[th->point].at : 1.0;
}

/* start_launch: thread T takes launch J.  One that is not run (only its
 * preparation) ends at once: returns 1; else T is on to its first decision
 * or its end: returns 0. */
static int start_launch(struct sim *s, struct sim_launch *l, long j, struct thread_state *th, int t,
			int threads, double *cpu, double *end)
{
	struct sim_launch *x = &l[j];
	double to;

	x->thread = t;
	if (!x->run) {
		x->start_ms = th->t;
		x->dur_ms = x->pre_ms;
		x->cpu_ms = x->pre_ms;
		*cpu += x->pre_ms;
		th->t += x->pre_ms;
		if (th->t > *end)
			*end = th->t;
		return 1;
	}
	th->t += x->pre_ms;
	*cpu += x->pre_ms;
	th->cur = j;
	th->point = 0;
	th->done_at = 0;
	th->base = draw_base(s, th->t, threads);
	x->start_ms = th->t;
	x->cpu_ms = th->base;
	*cpu += th->base;
	to = skip_unchecked(s, x, th);
	th->t += to * th->base;
	th->done_at = to;
	return 0;
}

/* pass_idle: the machine's idle share over a pass from START to END, with
 * CPU ms of launching and the bursts' load. */
static double pass_idle(struct sim *s, double start, double end, double cpu)
{
	double wall = end - start, busy = cpu + burst_overlap(s, start, end) * (double)s->p.cpus;
	double idle = wall > 0 ? 1.0 - busy / (wall * (double)s->p.cpus) : 1.0;

	return idle < 0 ? 0 : idle;
}

double sim_pass(struct sim *s, struct sim_launch *l, size_t n, int threads, double *idle)
{
	struct thread_state *th = xmalloc((size_t)threads * sizeof *th);
	char *taken = calloc(n ? n : 1, 1);
	size_t left = n;
	double start = s->now, end = s->now, cpu = 0;
	int t;

	if (!taken)
		die(EXIT_FAIL, "out of memory");
	for (t = 0; t < threads; t++) {
		th[t].t = start + THREAD_SKEW_MS * (double)t * uniform(&s->rng);
		th[t].cur = -1;
		th[t].busy = 0;
	}
	while (left > 0 && (t = first_event(th, threads)) >= 0) {
		struct sim_launch *x;

		if (th[t].cur < 0) {
			long j = next_launch(l, n, taken, t);

			if (j < 0) {
				th[t].busy = -1; /* nothing left for it */
				continue;
			}
			taken[j] = 1;
			if (start_launch(s, l, j, &th[t], t, threads, &cpu, &end))
				left--;
			continue;
		}
		x = &l[th[t].cur];
		if (th[t].point < s->k->n_points) {
			/* a decision: it waits for the checker */
			int refused = 0;
			double at, to;

			if (s->p.exhausted) {
				/* refused at once: the launch ends there, unrun */
				x->refused = 1;
				th[t].point = s->k->n_points;
				continue;
			}
			at = decide(s, x, s->k->points[th[t].point].obj, th[t].t, &refused);
			th[t].point++;
			if (refused) {
				/* refused: the launch ends at the answer, killed */
				x->killed = 1;
				x->dur_ms = at - x->start_ms;
				x->cpu_ms = th[t].done_at * th[t].base;
				if (at > end)
					end = at;
				th[t].cur = -1;
				th[t].t = at + LAUNCH_GAP_MS;
				left--;
				continue;
			}
			if (isinf(at)) {
				/* the wedged checker never answers: the launch waits
				 * for ever, and its thread starts nothing more */
				x->dur_ms = INFINITY;
				th[t].cur = -1;
				th[t].busy = -1;
				left--;
				continue;
			}
			to = skip_unchecked(s, x, &th[t]);
			th[t].t = at + (to - th[t].done_at) * th[t].base;
			th[t].done_at = to;
			continue;
		}
		/* the launch ends */
		x->dur_ms = th[t].t - x->start_ms;
		if (th[t].t > end)
			end = th[t].t;
		th[t].cur = -1;
		th[t].t += LAUNCH_GAP_MS;
		left--;
	}
	free(th);
	free(taken);
	if (idle)
		*idle = pass_idle(s, start, end, cpu);
	s->now = end + PASS_GAP_MS;
	return end - start;
}
