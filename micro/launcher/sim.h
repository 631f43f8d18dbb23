/* sim.h - a seeded model of a first-launch checker: the simulator behind
 * launch's and suite's `sim` launcher (docs/method.md, "The simulator").
 *
 * Nothing is launched.  Each launch costs a base time drawn from the
 * distribution of this machine's repeat launches of its kind (launches close
 * in time alike, as on a real machine); on the way it meets the checker at the points its kind does (the
 * exec of a program, the open of a library, with on=open every open of a
 * file in the work folder), each a decision that waits in one first-in
 * first-out queue for one of `workers` checkers.  A decision on an object
 * the cache has not seen (by inode, path or content, as the calibration
 * gate keys it) holds its launch latency + every + per_mb x size; one it
 * has seen, every.  Bursts of other load, on and off for random lengths,
 * slow every launch that starts in one.  Everything random comes from one
 * seed, so a run is the same every time. */
#ifndef EXECLAG_SIM_H
#define EXECLAG_SIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kinds.h"

/* What the cache remembers: the inode, the path, the content, or the
 * inode with its modification time (as fapolicyd's object cache keys
 * inode, mtime and size: a hard link keeps it, a write or a touch does
 * not; docs/remedies.md "The calibration gate"). */
enum sim_key { SIM_KEY_INODE, SIM_KEY_PATH, SIM_KEY_CONTENT, SIM_KEY_INODE_MTIME, SIM_KEYS };

/* The kinds of artifact the model knows: the kinds table's (kinds.h). */
#define SIM_KINDS N_KINDS

/* The base cost of one kind's launch at some thread counts: the
 * distribution of this machine's repeat launches, as the quantiles at 0, 5,
 * 10 ... 100% of a run's repeat pass (the empirical distribution, linear
 * between them).  A thread count with no fit of its own takes the largest
 * fitted below it, slowed by T / cpus where T exceeds the CPUs. */
#define SIM_QUANTILES 21
#define SIM_FITS 8
struct sim_fit {
	long threads;
	double q[SIM_QUANTILES];
};
struct sim_base {
	int n;                        /* fits, by ascending thread count */
	struct sim_fit fit[SIM_FITS];
};

struct sim_params {
	double latency_ms;   /* a check of an object not seen */
	long workers;        /* checks at once; more wait, first in first out */
	enum sim_key key;    /* what the cache remembers */
	int on_open;         /* 1: every open of a file is a decision, as on=open */
	double every_ms;     /* every decision holds this, seen or not */
	double per_mb_ms;    /* a check holds this more per MiB of the object */
	double jitter;       /* each hold x exp(jitter z), z a standard normal: a
				scanner whose work varies (0: the gate's exact holds) */
	int exempt;          /* 1: nothing is held (an exempt launcher) */
	int bursts;          /* 1: bursts of other load come and go */
	double burst_x;      /* a launch that starts in a burst takes this x longer */
	long cpus;           /* CPUs the launches share */
	uint64_t seed;
	/* wedge=K: after K held checks (decisions on an object not seen) the
	 * checker answers nothing more, as a wedged one leaves a process in
	 * execve: every later decision waits for ever (dur_ms INFINITY) and
	 * its thread starts nothing more in that pass; 0: never */
	long wedge;
	/* exhausted=1: the checker is out of file descriptors, as an exhausted
	 * syspolicyd answers every assessment "Too many open files"
	 * (docs/evidence.md §16): every decision is refused at once, and its
	 * launch fails (EPERM, as the gate's exhausted=1 refuses an exec);
	 * the simulated health record says so (simhealth.c) */
	int exhausted;
	/* storm=R: R assessment lines a second that are not the kit's, naming
	 * one program (SIM_STORM_DRIVER) the most: the simulated health
	 * record's minute of log; the launches are the model's as set */
	long storm;
	/* kill=R: a share R of the held checks is answered by a refusal, the
	 * n-th when floor(n R) grows (sim_refused: exactly floor(N R) of N
	 * held checks, as the gate's --kill); the launch ends at the answer,
	 * killed, and its object is remembered; 0: never */
	double kill;
	struct sim_base base[SIM_KINDS];
	/* launches close in time cost alike: the base cost's quantile follows
	 * a slow random state of the machine with this correlation (0: every
	 * launch on its own), fitted to a run's repeat and reference launches
	 * of the same block */
	double corr;         /* the setting; -1: the fit's */
	double fit_corr;     /* the fit's */
	char base_from[256]; /* where the base costs came from */
};

/* The program a simulated storm's lines name the most (storm=R). */
#define SIM_STORM_DRIVER "/Applications/Simulated Driver.app/Contents/MacOS/Simulated Driver"

/* Defaults, then the settings of spec ("latency=20 workers=1 key=inode
 * seed=7 ..."; the part after "sim:").  Returns 0, or -1 with one line in
 * err. */
int sim_parse(const char *spec, struct sim_params *p, char *err, size_t errlen);

/* Read the base costs of a fit (analyze --simfit's output: a first line
 * "execlag-simbase<TAB>1", then KIND<TAB>T<TAB>Q0,Q5,...,Q100 lines, the
 * quantiles in ms) into p; kinds it does not fit keep theirs.
 * Returns 0, or -1 with one line in err. */
int sim_load_base(struct sim_params *p, const char *path, char *err, size_t errlen);

/* Whether the n-th held check (n from 1) of a checker that refuses a share
 * r of them is refused: floor(n r) > floor((n - 1) r), so N checks see
 * exactly floor(N r) refusals, evenly spread (the gate's --kill alike). */
int sim_refused(long n, double r);

/* The settings in the canonical order, as conditions record them after
 * "sim:" (every setting, the base costs' origin included). */
void sim_describe(const struct sim_params *p, char *buf, size_t len);

/* The checker's health as the model has it, before any launch, into the
 * record H (healthfile.h; free it with healthfile_free): a syspolicyd that
 * answers Calculator's assessment ("accepted", or with exhausted=1 "Too
 * many open files"), and a minute of log (storm=R: 60 R lines not the
 * kit's, naming SIM_STORM_DRIVER), said to be simulated (DESCRIBED, the
 * settings as sim_describe gives them): never evidence.  simhealth.c. */
struct health_record;
void sim_health(const struct sim_params *p, const char *described, struct health_record *h);

/* The correlation of the model's machine state: the setting, else the
 * fit's. */
double sim_corr(const struct sim_params *p);

/* The index of a kind in the model, or -1 when it has none. */
int sim_kind(const char *kind);
const char *sim_kind_name(int kind);

/* Fit the base cost at T threads to n repeat launches (ms, any order;
 * sorted here): their quantiles.  Returns -1 below 6 launches. */
int sim_fit(double *ms, size_t n, long threads, struct sim_fit *out);

/* Add (or replace) a fit in base; -1 when it holds SIM_FITS already. */
int sim_base_add(struct sim_base *base, const struct sim_fit *fit);

/* Write base (and its kind's name) as fit lines: KIND<TAB>T<TAB>Q0,...,Q100. */
void sim_base_write(FILE *f, int kind, const struct sim_base *base);

/* The correlation of the model's machine state (sim_params.corr) from n
 * pairs of launches close in time (any order): Spearman's rank correlation
 * of x and y, turned into a normal's (2 sin(pi r / 6)), at least 0.
 * Returns NAN below 6 pairs. */
double sim_fit_corr(const double *x, const double *y, size_t n);

/* One launch of a pass.  In: thread (-1: whichever thread is free first
 * takes it, in order, as the suite's jobs do), artifact (its identity),
 * outside (1: outside the work folder, never checked), run (0: pre_ms of
 * work and no launch, as a compile), pre_ms (work of the thread's before
 * the launch starts), size_mib.  Out: start_ms, dur_ms, thread. */
struct sim_launch {
	int thread;
	long artifact;
	int outside;
	int run;
	double pre_ms;
	double size_mib;
	double start_ms;
	double dur_ms;
	double cpu_ms; /* the launch's own work: its base cost, bursts included */
	int refused;   /* exhausted: the checker refused it, and it did not run */
	int killed;    /* 1: a check refused it (kill=R): it ended at the refusal */
};

struct sim;

/* A model of one configuration: kind (sim_kind) and a stream name that
 * makes its draws its own (the same name, the same draws). */
struct sim *sim_open(const struct sim_params *p, int kind, const char *stream);
void sim_close(struct sim *s);

/* Run one pass: `threads` threads start together at the model's clock
 * (each a few microseconds apart, as off a barrier) and make their
 * launches in order.  Fills each launch's start and duration; the clock
 * moves to the pass's end.  With wedge set, a launch that meets the wedged
 * checker gets dur_ms INFINITY, and the launches its thread had yet to
 * make are left as they were (the caller marks them not started); the
 * returned wall time and the clock then count the finite launches only.  Returns the pass's wall time in ms; *idle (may
 * be NULL) gets the share of the CPUs' time left idle. */
double sim_pass(struct sim *s, struct sim_launch *l, size_t n, int threads, double *idle);

/* Advance the clock by ms of untimed work (a warm-up launch, making). */
void sim_idle(struct sim *s, double ms);

/* The model's clock, ms since sim_open. */
double sim_now(const struct sim *s);

#endif
