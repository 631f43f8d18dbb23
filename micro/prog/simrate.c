/* simrate - the kit's error rates, measured on the simulator: many seeded
 * quick-profile runs per scenario, each through the real plan and stopping
 * rule (drive.c, stop.c) and analyze's verdicts (penalty.c), in one process.
 * The seeds are fixed, so every count is exact and the same on every run:
 * a change of method that moves one shows in the table (docs/method.md,
 * "Error rates").  --doctor: make doctor's probe instead (the exe case at
 * T = 1, planned 2 x LOOKS_FIRST = 16, the extension to DOCTOR_EXTEND x 16
 * as on Linux), with scenarios of its own.
 *
 *   simrate [--runs N] [--scenario NAME] [--base FIT] [--doctor] [--check]
 */
#define _POSIX_C_SOURCE 200809L
#include "drive.h"
#include "launcher.h"
#include "looks.h"
#include "sim.h"
#include "kinds.h"
#include "stats.h"
#include "thresholds.h"
#include "opts.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QUICK_COUNT 20  /* count_quick in cases/ */
#define MAX_LISTED 4     /* cases a scenario names */
#define MAX_CASES N_KINDS /* cases a scenario runs: ALL_CASES at most */

/* A quick-profile run of some cases at some thread counts on one model. */
struct scenario {
	const char *name;      /* for --scenario */
	const char *label;     /* for the table */
	const char *settings;  /* the model's, seed added per run */
	const char *cases[MAX_LISTED];
	int threads[2], n_threads;
	enum { COUNT_ANY_SLOWDOWN, COUNT_DETECTED, COUNT_WRONG_SERIAL, COUNT_FIRST_LOOK,
	       COUNT_ESTIMATE, COUNT_ALL_NONE, COUNT_FALSE_SLOWDOWN, COUNT_EXE_NONE,
	       COUNT_EXE_DEFINITE } what;
	int workers;           /* COUNT_WRONG_SERIAL: the truth */
	double truth_ms;       /* COUNT_ESTIMATE: the latency */
	double target;         /* a rate the count must stay within */
	int at_most;           /* 1: rate <= target; 0: rate >= target */
	double mib;            /* each artifact's size */
};

/* every kind of the kinds table made on any platform (kinds.h), in its
 * order: a scenario's cases, each a case of its kind's name */
#define ALL_CASES { "*" }
#define GRID_CASES { "exe", "exe-rewrite", "script", "dylib" }
#define GRID(lat, w, workers) \
	{ "grid-" #lat "-" #w, "T=2, " #lat " ms, " #w " " workers ": wrong serialisation", \
	  "latency=" #lat " workers=" #w " key=inode cpus=2", GRID_CASES, { 1, 2 }, 2, \
	  COUNT_WRONG_SERIAL, w, 0, 0.01, 1, 0 }

static const struct scenario scenarios[] = {
	{ "none-quiet", "no penalty, quiet: runs with a slowdown", "latency=0 cpus=2",
	  ALL_CASES, { 1, 2 }, 2, COUNT_ANY_SLOWDOWN, 0, 0, 0.01, 1, 0 },
	{ "none-bursty", "no penalty, bursty: runs with a slowdown", "latency=0 cpus=2 bursts=1",
	  ALL_CASES, { 1, 2 }, 2, COUNT_ANY_SLOWDOWN, 0, 0, 0.01, 1, 0 },
	{ "2ms-quiet", "2 ms, 1 worker, inode, quiet: exe detected",
	  "latency=2 workers=1 key=inode cpus=2", { "exe" }, { 1 }, 1, COUNT_DETECTED, 0, 0,
	  0.99, 0, 0 },
	{ "2ms-bursty", "2 ms, 1 worker, inode, bursty: exe detected",
	  "latency=2 workers=1 key=inode cpus=2 bursts=1", { "exe" }, { 1 }, 1, COUNT_DETECTED,
	  0, 0, 0.95, 0, 0 },
	GRID(2, 1, "worker"), GRID(2, 2, "workers"), GRID(4, 1, "worker"), GRID(4, 2, "workers"),
	GRID(7, 1, "worker"), GRID(7, 2, "workers"), GRID(20, 1, "worker"), GRID(20, 2, "workers"),
	{ "150-first-look", "150 ms serialised: exe T=1 stopped at the first look",
	  "latency=150 workers=1 key=inode cpus=2", { "exe" }, { 1 }, 1, COUNT_FIRST_LOOK, 0, 0,
	  0.99, 0, 0 },
	{ "150-estimate", "150 ms serialised: exe T=1 estimate within 5%",
	  "latency=150 workers=1 key=inode cpus=2", { "exe" }, { 1 }, 1, COUNT_ESTIMATE, 0, 150,
	  0.99, 0, 0 },
	/* A scanner like ClamAV on 4 MiB programs (SIZE=4m, tests/live): it
	 * scans on open and keys by content, and hashes every file it is shown
	 * (90 ms a launch, each hold x exp(0.2 z): at 60 pairs the interval of
	 * a copy it knows is about +-12 ms wide, as the live ClamAV test's
	 * [-15.4, 6.5]), so every launch is long and noisy.  A new program
	 * pays 190 ms more (the live test), or a plain 45 ms (the independent
	 * set-up of docs/method.md: 42.6 ms [39.4, 47.4] on a 94.7 ms unloaded
	 * launch).  A copy and a hard link of a scanned program are truly none. */
#define SCANNER "key=content on=open every=90 cpus=2"
/* a scanner's scenario: its settings before SCANNER, the cases at T = 1,
 * what is counted and the rate it must stay within, on 4 MiB programs */
#define SC(name, label, settings, cases, what, target, at_most) \
	{ name, label, settings " " SCANNER, cases, { 1 }, 1, what, 0, 0, target, at_most, 4.0 }
#define COPIES { "exe-copy", "exe-hardlink" }
	SC("scanner-none", "scanner, 4 MiB: copy and hardlink both none",
	   "latency=190 jitter=0.2", COPIES, COUNT_ALL_NONE, 0.90, 0),
	SC("scanner-false", "scanner, 4 MiB: a false slowdown (copy, hardlink)",
	   "latency=190 jitter=0.2", COPIES, COUNT_ANY_SLOWDOWN, 0.01, 1),
	SC("scanner-false-bursty", "scanner, 4 MiB, bursty: a false slowdown",
	   "latency=190 jitter=0.2 bursts=1", COPIES, COUNT_ANY_SLOWDOWN, 0.01, 1),
	SC("scanner-45", "scanner, 4 MiB, a 45 ms check: exe detected",
	   "latency=45 jitter=0.2", { "exe" }, COUNT_DETECTED, 0.95, 0),
	SC("scanner-45-bursty", "scanner, 4 MiB, a 45 ms check, bursty: exe detected",
	   "latency=45 jitter=0.2 bursts=1", { "exe" }, COUNT_DETECTED, 0.95, 0),
	SC("scanner-45-none", "scanner, 4 MiB, a 45 ms check: a false none",
	   "latency=45 jitter=0.2", { "exe" }, COUNT_EXE_NONE, 0.01, 1),
	SC("scanner-0", "scanner, 4 MiB, no first-launch cost: a false slowdown",
	   "latency=0 jitter=0.2", ALL_CASES, COUNT_ANY_SLOWDOWN, 0.01, 1),
	SC("scanner-0-bursty", "scanner, 4 MiB, no first-launch cost, bursty: false slowdown",
	   "latency=0 jitter=0.2 bursts=1", ALL_CASES, COUNT_ANY_SLOWDOWN, 0.01, 1),
	/* the same scanner, noisier than any seen (x exp(0.35 z): +-20 ms at 60
	 * pairs): the kit may stay inconclusive, never wrong */
	SC("noisy-false", "noisier scanner, 4 MiB: a false slowdown (copy, hardlink)",
	   "latency=190 jitter=0.35", COPIES, COUNT_ANY_SLOWDOWN, 0.01, 1),
	SC("noisy-45-none", "noisier scanner, 4 MiB, a 45 ms check: a false none",
	   "latency=45 jitter=0.35", { "exe" }, COUNT_EXE_NONE, 0.01, 1),
};
#define N_SCENARIOS (sizeof scenarios / sizeof scenarios[0])

/* make doctor's probe (--doctor): the exe case at T = 1.  "Hog-like" is
 * the noise a CPU hog on each core puts on a launch: a wait for a CPU of a
 * few ms that some launches meet and others do not, each launch its own
 * (every launch held 2 ms x e^(0.6 z), seen or not: 0.6 to 6.6 ms within two
 * sigma), unlike a burst, which the two launches of a pair share.  At the
 * floor itself (1 ms: a quarter of these unloaded launches is less) any
 * definite verdict is wrong, and the rule allows 5% of them. */
#define DR(name, label, settings, what, target, at_most) \
	{ name, label, settings, { "exe" }, { 1 }, 1, what, 0, 0, target, at_most, 0 }
#define HOGLIKE "every=2 jitter=0.6"
static const struct scenario doctor_scenarios[] = {
	DR("none-quiet", "doctor, no penalty, quiet: none", "latency=0 cpus=2",
	   COUNT_EXE_NONE, 0.99, 0),
	DR("none-quiet-false", "doctor, no penalty, quiet: a false penalty", "latency=0 cpus=2",
	   COUNT_ANY_SLOWDOWN, 0.01, 1),
	DR("none-bursty", "doctor, no penalty, bursty: none", "latency=0 cpus=2 bursts=1",
	   COUNT_EXE_NONE, 0.95, 0),
	DR("none-bursty-false", "doctor, no penalty, bursty: a false penalty",
	   "latency=0 cpus=2 bursts=1", COUNT_ANY_SLOWDOWN, 0.01, 1),
	DR("none-hog", "doctor, no penalty, hog-like noise: none", "latency=0 cpus=2 " HOGLIKE,
	   COUNT_EXE_NONE, 0.90, 0),
	DR("none-hog-false", "doctor, no penalty, hog-like noise: a false penalty",
	   "latency=0 cpus=2 " HOGLIKE, COUNT_ANY_SLOWDOWN, 0.01, 1),
	DR("floor", "doctor, at the floor (1 ms): a definite verdict (wrong)",
	   "latency=1 workers=1 key=inode cpus=2", COUNT_EXE_DEFINITE, 0.05, 1),
	DR("floor-bursty", "doctor, at the floor, bursty: a definite verdict (wrong)",
	   "latency=1 workers=1 key=inode cpus=2 bursts=1", COUNT_EXE_DEFINITE, 0.05, 1),
	DR("floor-hog", "doctor, at the floor, hog-like noise: a definite verdict",
	   "latency=1 workers=1 key=inode cpus=2 " HOGLIKE, COUNT_EXE_DEFINITE, 0.05, 1),
	DR("2ms", "doctor, 2 ms, 1 worker, inode: detected", "latency=2 workers=1 key=inode cpus=2",
	   COUNT_DETECTED, 0.99, 0),
	DR("2ms-hog", "doctor, 2 ms, hog-like noise: detected",
	   "latency=2 workers=1 key=inode cpus=2 " HOGLIKE, COUNT_DETECTED, 0.50, 0),
	DR("2ms-hog-none", "doctor, 2 ms, hog-like noise: a false none",
	   "latency=2 workers=1 key=inode cpus=2 " HOGLIKE, COUNT_EXE_NONE, 0.01, 1),
	DR("150-first-look", "doctor, 150 ms: a penalty at its first look (8 pairs)",
	   "latency=150 workers=1 key=inode cpus=2", COUNT_FIRST_LOOK, 0.99, 0),
};
#define N_DOCTOR (sizeof doctor_scenarios / sizeof doctor_scenarios[0])

static void usage(FILE *f)
{
	fprintf(f,
		"usage: simrate [--runs N] [--scenario NAME] [--base FIT] [--block K]\n"
		"               [--latency L] [--extend X] [--doctor] [--check]\n"
		"The kit's error rates on the simulator: N seeded quick-profile runs per\n"
		"scenario (seeds 1..N, 1000 by default), through launch's plan and\n"
		"stopping rule and analyze's verdicts; prints one row a scenario with\n"
		"its exact count.  --check: exit 1 when a rate misses its target.\n"
		"  --doctor     make doctor's probe instead: exe at T = 1, 16 planned,\n"
		"               the extension to %d x 16 (as on Linux), its own scenarios\n"
		"  --base FIT   the base costs of micro/bin/analyze --simfit (default:\n"
		"               the model's own, fitted on the kit's machine)\n"
		"  --latency L  the detection scenarios (2ms-*) at L ms instead\n"
		"  --extend X   as launch --extend: to X x N where the interval lies\n"
		"               across the floor at N (1: never; default %d)\n"
		"  --block K    launches per thread and block, as launch --block (its\n"
		"               default: 2 at T = 1, 1 above)\n"
		"scenarios:", DOCTOR_EXTEND, SEQ_EXTEND);
	for (size_t i = 0; i < N_SCENARIOS; i++)
		fprintf(f, " %s", scenarios[i].name);
	fputs("\ndoctor's scenarios:", f);
	for (size_t i = 0; i < N_DOCTOR; i++)
		fprintf(f, " %s", doctor_scenarios[i].name);
	fputc('\n', f);
}

/* ---- one configuration, as analyze would read it -------------------------------- */

/* The drive's samples as a samples file would give them to analyze. */
static void to_config(const struct drive *d, const char *kase, const char *kind, int threads,
		      struct config *c)
{
	int p;
	long i;
	size_t k = 0;
	static char looks_at[256];

	memset(c, 0, sizeof *c);
	c->file = (char *)"sim";
	c->case_name = (char *)kase;
	c->kind = (char *)kind;
	c->class_name = (char *)"all";
	c->threads = threads;
	c->n = d->n;
	c->cpus = d->l->cpus;
	c->block = d->block;
	c->samples = xmalloc((size_t)(2 * d->n) * sizeof *c->samples);
	for (p = 0; p < 2; p++) {
		struct pass_time *pt = &c->passes[p];

		for (i = 0; i < d->n; i++) {
			const struct launch_sample *s = &d->samples[p][i];
			struct sample *o = &c->samples[k++];

			o->pass = (enum pass)p;
			o->thread = s->thread;
			o->index = i;
			o->dur_ms = (double)s->dur_ns / 1e6;
			o->start_ms = (double)s->start_ns / 1e6;
			o->exit_status = s->exit_status;
			o->signal = s->signal;
			o->spawn_errno = s->spawn_errno;
		}
		pt->present = 1;
		pt->wall_ms = (double)d->wall[p] / 1e6;
		pt->launches = d->n;
		pt->launches_per_s = pt->wall_ms > 0 ? (double)d->n / (pt->wall_ms / 1e3) : NAN;
		pt->idle = drive_idle(d, p) >= 0 ? drive_idle(d, p) : NAN;
	}
	c->passes[PASS_REFERENCE].idle = NAN;
	c->n_samples = k;
	c->looks = d->k;
	c->planned = d->planned;
	c->looks_at = (char *)drive_looks(d, looks_at, sizeof looks_at);
	c->stopped = (char *)d->stopped;
	stats_config(c);
}

/* One configuration of case kase at T threads: planned QUICK_COUNT, sequential. */
/* --block K: launches per thread and block (launch's --block; -1: its default) */
static long per_thread = -1;
/* --latency L: the detection scenarios' latency instead of 2 ms */
static const char *latency_given;
/* --extend X: launch's --extend (SEQ_EXTEND by default, DOCTOR_EXTEND with
 * --doctor; 1: none) */
static long extend_factor = SEQ_EXTEND;
/* --doctor: make doctor's probe's plan */
static int doctor;

/* The artifacts are all there from the start: nothing to make. */
static void made_already(struct drive *d, long target)
{
	(void)d;
	(void)target;
	die(EXIT_FAIL, "simrate: the plan asked for artifacts beyond its slots");
}

static void run_config(const struct sim_params *base, const char *settings, unsigned seed,
		       const char *kase, int threads, double mib, struct config *c)
{
	struct manifest m;
	struct drive d;
	char spec[1200], stream[128];
	memset(&m, 0, sizeof m);
	m.kase = (char *)kase;
	m.kind = (char *)kase;
	long planned = doctor ? 2 * LOOKS_FIRST : QUICK_COUNT;

	m.n = planned * (extend_factor > 1 ? extend_factor : 1);
	m.art = xmalloc((size_t)m.n * sizeof *m.art);
	memset(m.art, 0, (size_t)m.n * sizeof *m.art);
	/* the settings without the seed, parsed once for all the runs of a
	 * scenario (a parse, and a fit's file read, a run were a tenth of
	 * simrate's time); each run's seed set as seed=N would set it */
	static char parsed_for[sizeof spec];
	static struct sim_params parsed, p;
	char err[320];

	snprintf(spec, sizeof spec, "%s%s%s", settings,
		 base->base_from[0] && strcmp(base->base_from, "default") != 0 ? " base=" : "",
		 base->base_from[0] && strcmp(base->base_from, "default") != 0 ? base->base_from : "");
	if (!parsed_for[0] || strcmp(spec, parsed_for) != 0) {
		if (sim_parse(spec, &parsed, err, sizeof err) != 0)
			die(EXIT_USAGE, "%s", err);
		snprintf(parsed_for, sizeof parsed_for, "%s", spec);
	}
	p = parsed;
	p.seed = seed;
	snprintf(stream, sizeof stream, "%s|%s|%d|all|0", kase, kase, threads);
	memset(&d, 0, sizeof d);
	d.l = launcher_sim_params(&p, kase, stream, threads, mib);
	d.m = &m;
	d.planned = planned;
	d.extend = made_already;
	d.extend_factor = extend_factor;
	d.block = drive_block(per_thread, threads, d.planned);
	d.order[0] = PASS_FIRST;
	d.order[1] = PASS_REPEAT;
	d.npass = 2;
	d.sequential = 1;
	drive_run(&d);
	to_config(&d, kase, kase, threads, c);
	d.l->ops->close(d.l);
	for (int p = 0; p < PASS_ALL; p++)
		free(d.samples[p]);
	free(m.art);
}

/* ---- one run: its cases, analysed together --------------------------------------- */

struct outcome {
	int any_slowdown;
	int all_none;
	enum verdict exe;
	int wrong_serial, serial_cases;
	long exe_n;
	double exe_penalty;
	int exe_stopped_slowdown; /* exe's configuration stopped as "slowdown" */
};

/* scenario_cases: the cases SC runs into out[]; their number. */
static size_t scenario_cases(const struct scenario *sc, const char *out[MAX_CASES])
{
	size_t n = 0;
	int k;

	if (sc->cases[0] && strcmp(sc->cases[0], "*") == 0) {
		for (k = 0; k < N_KINDS; k++)
			if (strcmp(kind_table[k].platforms, "any") == 0)
				out[n++] = kind_table[k].name;
		return n;
	}
	while (n < MAX_LISTED && sc->cases[n]) {
		out[n] = sc->cases[n];
		n++;
	}
	return n;
}

static void one_run(const struct scenario *sc, const struct sim_params *base, unsigned seed,
		    struct outcome *o)
{
	struct config cfg[MAX_CASES][2];
	struct config *ptr[MAX_CASES][2];
	struct case_result cr[MAX_CASES];
	const char *cases[MAX_CASES];
	size_t nc = scenario_cases(sc, cases), i;
	int t;

	memset(o, 0, sizeof *o);
	o->exe = VERDICT_INCONCLUSIVE;
	o->all_none = 1;
	for (i = 0; i < nc; i++) {
		memset(&cr[i], 0, sizeof cr[i]);
		cr[i].name = (char *)cases[i];
		cr[i].kind = (char *)cases[i];
		cr[i].configs = ptr[i];
		for (t = 0; t < sc->n_threads; t++) {
			run_config(base, sc->settings, seed, cases[i], sc->threads[t], sc->mib,
				   &cfg[i][t]);
			ptr[i][t] = &cfg[i][t];
			if (cfg[i][t].verdict == VERDICT_SLOWDOWN)
				o->any_slowdown = 1;
		}
		cr[i].n_configs = (size_t)sc->n_threads;
		stats_case(&cr[i]);
		if (cr[i].headline->verdict != VERDICT_NONE)
			o->all_none = 0;
		if (strcmp(cases[i], "exe") == 0) {
			o->exe = cr[i].headline->verdict;
			o->exe_n = cr[i].headline->n;
			o->exe_penalty = cr[i].headline->penalty.median_ms;
			o->exe_stopped_slowdown = cr[i].headline->stopped &&
				strcmp(cr[i].headline->stopped, "slowdown") == 0;
		}
		if (cr[i].serialisation == SERIAL_SERIALISED || cr[i].serialisation == SERIAL_PARALLEL) {
			o->serial_cases++;
			if ((cr[i].serialisation == SERIAL_SERIALISED) != (sc->workers == 1))
				o->wrong_serial++;
		}
	}
	for (i = 0; i < nc; i++) {
		for (t = 0; t < sc->n_threads; t++)
			free(cfg[i][t].samples);
		free(cr[i].scaling);
		free(cr[i].slopes);
	}
}

/* ---- the table -------------------------------------------------------------------- */

/* The runs of a scenario whose runs are another's: the same settings,
 * cases, thread counts, sizes and truth (one_run reads no more of a
 * scenario), counted another way (scanner-none and scanner-false,
 * 150-first-look and 150-estimate, the doctor's none-quiet and
 * none-quiet-false ...).  Each run's outcome is kept, by seed, for the
 * scenarios after it: the same seeds give the same outcomes, so they are
 * not run again. */
#define MAX_KEPT 64
static struct kept_runs {
	char key[1024];
	long runs;
	struct outcome *o;
} kept[MAX_KEPT];
static size_t n_kept;

static void run_key(const struct scenario *sc, char *key, size_t len)
{
	const char *cases[MAX_CASES];
	size_t nc = scenario_cases(sc, cases), i, at;
	int t;

	at = (size_t)snprintf(key, len, "%s|%d|%.17g|", sc->settings, sc->workers, sc->mib);
	for (t = 0; t < sc->n_threads && at < len; t++)
		at += (size_t)snprintf(key + at, len - at, "%d,", sc->threads[t]);
	for (i = 0; i < nc && at < len; i++)
		at += (size_t)snprintf(key + at, len - at, "|%s", cases[i]);
}

/* The outcomes of RUNS runs of SC (seeds 1..RUNS): kept ones, else run
 * (and kept, where there is room). */
static const struct outcome *scenario_runs(const struct scenario *sc, const struct sim_params *base,
					   long runs, struct outcome **fresh)
{
	char key[1024];
	size_t k;
	long r;
	struct outcome *o;

	run_key(sc, key, sizeof key);
	*fresh = NULL;
	for (k = 0; k < n_kept; k++)
		if (kept[k].runs == runs && strcmp(kept[k].key, key) == 0)
			return kept[k].o;
	o = xmalloc((size_t)runs * sizeof *o);
	for (r = 1; r <= runs; r++)
		one_run(sc, base, (unsigned)r, &o[r - 1]);
	if (n_kept < MAX_KEPT && strlen(key) < sizeof kept[0].key - 1) {
		snprintf(kept[n_kept].key, sizeof kept[n_kept].key, "%s", key);
		kept[n_kept].runs = runs;
		kept[n_kept].o = o;
		n_kept++;
	} else {
		*fresh = o;
	}
	return o;
}

/* Returns 1 when the scenario met its target. */
static int scenario_row(const struct scenario *sc_in, const struct sim_params *base, long runs)
{
	long hits = 0, of = 0, definite = 0, r;
	double rate, *est = xmalloc((size_t)runs * sizeof *est);
	size_t n_est = 0;
	int met;
	struct scenario scv = *sc_in, *sc = &scv;
	char settings[512], label[512];
	const struct outcome *outcomes;
	struct outcome *fresh;

	if (latency_given && sc->what == COUNT_DETECTED) {
		snprintf(settings, sizeof settings, "latency=%s%s", latency_given,
			 strstr(sc->settings, " ") ? strstr(sc->settings, " ") : "");
		snprintf(label, sizeof label, "%s ms%s", latency_given,
			 strstr(sc->label, " ms") ? strstr(sc->label, " ms") + 3 : "");
		sc->settings = settings;
		sc->label = label;
	}
	outcomes = scenario_runs(sc, base, runs, &fresh);
	for (r = 1; r <= runs; r++) {
		struct outcome o = outcomes[r - 1];

		if (!isnan(o.exe_penalty))
			est[n_est++] = o.exe_penalty;
		switch (sc->what) {
		case COUNT_ANY_SLOWDOWN:
			hits += o.any_slowdown;
			of++;
			break;
		case COUNT_DETECTED:
			hits += o.exe == VERDICT_SLOWDOWN;
			of++;
			break;
		case COUNT_EXE_NONE:
			hits += o.exe == VERDICT_NONE;
			of++;
			break;
		case COUNT_EXE_DEFINITE:
			hits += o.exe != VERDICT_INCONCLUSIVE;
			of++;
			break;
		case COUNT_WRONG_SERIAL: {
			const char *cases[MAX_CASES];
			size_t n = scenario_cases(sc, cases);

			hits += o.wrong_serial;
			definite += o.serial_cases;
			of += (long)n;
			break;
		}
		case COUNT_FIRST_LOOK:
			hits += o.exe == VERDICT_SLOWDOWN && o.exe_n == 8 && o.exe_stopped_slowdown;
			of++;
			break;
		case COUNT_ALL_NONE:
			hits += o.all_none;
			of++;
			break;
		case COUNT_FALSE_SLOWDOWN:
			hits += o.any_slowdown;
			of++;
			break;
		case COUNT_ESTIMATE:
			hits += fabs(o.exe_penalty - sc->truth_ms) <= 0.05 * sc->truth_ms;
			of++;
			break;
		}
	}
	rate = of ? (double)hits / (double)of : NAN;
	met = sc->at_most ? rate <= sc->target : rate >= sc->target;
	printf("%-58s %6ld %6ld %7.2f%%  %s %g%%", sc->label, of, hits, 100.0 * rate,
	       sc->at_most ? "<=" : ">=", 100.0 * sc->target);
	if (sc->what == COUNT_WRONG_SERIAL)
		printf("  (%ld definite)", definite);
	printf("  %s", met ? "met" : "NOT MET");
	if (sc->what == COUNT_DETECTED && n_est > 0) {
		stats_sort(est, n_est);
		printf("  (median est. %.2f ms)", stats_median(est, n_est));
	}
	putchar('\n');
	fflush(stdout);
	free(est);
	free(fresh);
	return met;
}

/* The numbers of the command line (--runs, --latency, --extend, --block),
 * each in its range: --runs into *RUNS, the others into their globals. */
static void check_numbers(const char *runs_s, const char *extend_s, const char *block_s, long *runs)
{
	double l;

	if (runs_s && parse_long(runs_s, 1, 1000000, runs) != 0)
		die(EXIT_USAGE, "--runs: '%s' is not a whole number from 1 to 1000000", runs_s);
	if (latency_given && parse_double(latency_given, 0, 60000, &l) != 0)
		die(EXIT_USAGE, "--latency: '%s' is not a number of ms from 0 to 60000", latency_given);
	if (extend_s && parse_long(extend_s, 1, 10, &extend_factor) != 0)
		die(EXIT_USAGE, "--extend: '%s' is not a whole number from 1 to 10", extend_s);
	if (block_s && parse_long(block_s, 0, 1000000, &per_thread) != 0)
		die(EXIT_USAGE, "--block: '%s' is not a whole number from 0 to 1000000", block_s);
}

int main(int argc, char **argv)
{
	const char *only = NULL, *fit = NULL, *runs_s = NULL, *extend_s = NULL, *block_s = NULL;
	long runs = 1000;
	int check = 0, all_met = 1, any = 0;
	const struct opt opts[] = {
		OPT_VALUE("--runs", &runs_s), OPT_VALUE("--scenario", &only), OPT_VALUE("--base", &fit),
		OPT_VALUE("--latency", &latency_given), OPT_VALUE("--extend", &extend_s),
		OPT_VALUE("--block", &block_s), OPT_FLAG("--check", &check),
		OPT_FLAG("--doctor", &doctor), OPT_END
	};
	struct sim_params base;
	char err[320];

	progname = "simrate";
	opts_parse(argc, argv, opts, OPTS_NONE, usage);
	if (doctor)
		extend_factor = DOCTOR_EXTEND;
	check_numbers(runs_s, extend_s, block_s, &runs);
	if (sim_parse("", &base, err, sizeof err) != 0 ||
	    (fit && sim_load_base(&base, fit, err, sizeof err) != 0))
		die(EXIT_USAGE, "%s", err);
	if (doctor)
		printf("execlag error rates on the simulator: %ld seeded make doctor probes a scenario "
		       "(seeds 1..%ld; exe at T=1, looks 8, 12, 16, extension to %ld), base costs %s\n",
		       runs, runs, 2 * LOOKS_FIRST * extend_factor, base.base_from);
	else
		printf("execlag error rates on the simulator: %ld seeded quick-profile runs a scenario "
		       "(seeds 1..%ld), base costs %s\n", runs, runs, base.base_from);
	printf("%-58s %6s %6s %8s  %s\n", "scenario", "of", "count", "rate", "target");
	for (size_t s = 0; s < (doctor ? N_DOCTOR : N_SCENARIOS); s++) {
		const struct scenario *sc = doctor ? &doctor_scenarios[s] : &scenarios[s];

		if (only && strcmp(only, sc->name) != 0)
			continue;
		any = 1;
		all_met &= scenario_row(sc, &base, runs);
	}
	if (!any)
		die(EXIT_USAGE, "no scenario '%s' (see --help)", only);
	return check && !all_met ? EXIT_FAIL : EXIT_OK;
}
