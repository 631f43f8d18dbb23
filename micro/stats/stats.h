/* stats.h - the numbers and the decisions analyze makes from samples.
 *
 * Everything here is pure: it reads the parsed samples and fills in
 * summaries, so it can be checked against hand-computed fixtures.  A value
 * that cannot be computed (no successful samples) is NAN here and null in
 * run.json. */
#ifndef EXECLAG_STATS_H
#define EXECLAG_STATS_H

#include "orderstats.h"
#include "pass.h"

#include <stddef.h>


/* hang: a launch of the configuration passed its bound (launch --hang-s)
 * and was killed; the configuration has no penalty verdict, only that. */
enum verdict { VERDICT_SLOWDOWN, VERDICT_NONE, VERDICT_INCONCLUSIVE, VERDICT_HANG };

enum serialisation {
	SERIAL_NA,
	SERIAL_SERIALISED,
	SERIAL_PARALLEL,
	SERIAL_UNDETERMINED
};

enum cache_key { KEY_INODE, KEY_PATH, KEY_CONTENT, KEY_UNDETERMINED };

#define REASON_MAX 256
/* run.json and the report list at most this many failed samples a config. */
#define MAX_LISTED_FAILURES 20

/* One launch, as launch recorded it. */
struct sample {
	enum pass pass;
	long thread;
	long index;
	double dur_ms;
	double start_ms; /* when it was spawned, on launch's clock; NAN in older files */
	long exit_status;
	long signal;
	long spawn_errno;
	long line; /* where it was read, for error messages */
	int hang;  /* a `hang` record names it: killed at the bound */
};

/* A hung launch's evidence, as launch read it before the kill (a `hang`
 * record of the samples file). */
struct hang_ev {
	enum pass pass;
	long index;
	long pid;          /* 0 on the simulator */
	char state[16];    /* "sim": the simulator's */
	double cpu_s;      /* NAN: unknown */
	char wchan[64];    /* "-": none shown */
	int unkillable;    /* 1: it did not die from SIGKILL (left behind) */
};

/* A `pass` line: how long the whole pass took and how many launches. */
struct pass_time {
	int present;
	double wall_ms;
	long launches;
	double launches_per_s; /* NAN when wall time is 0 or missing */
	double idle;           /* idle share of all CPUs during the pass; NAN: unknown */
};

struct pass_stats {
	size_t n_ok;
	double median_ms;
	double p90_ms;
	/* half the width of the median's distribution-free interval at
	 * MEDIAN_NOISE_COVERAGE; 0 when too few launches for one */
	double median_halfwidth_ms;
};

struct penalty {
	double median_ms;
	double ci_low_ms;  /* NAN when too few pairs for the interval */
	double ci_high_ms;
	double coverage;
};

/* One samples file: one case at one thread count and core class. */
struct config {
	char *file;
	char *case_name;
	char *kind;
	char *class_name;
	long threads;
	long n;
	long cpus;              /* CPUs online (meta cpus); 0: unknown */
	long block;             /* artifacts per block (meta block); 0: unknown */
	long pad;               /* bytes of padding per artifact (meta pad); 0: none */
	/* sequential stopping (launch --sequential): the looks planned, the
	 * artifacts made, and why launch stopped; looks 0 without it */
	int looks;
	long planned;
	char *looks_at;         /* "8,12,16,20" as launch wrote it */
	char *stopped;          /* "slowdown", "none" (certain) or "maximum" */
	char *launcher;         /* meta launcher: "sim:..." for a simulated one; NULL: spawn */
	double hang_s;          /* meta hang_s: the bound of a launch; NAN: unknown */
	struct hang_ev *hangs;  /* the hung launches, as the file lists them */
	size_t n_hangs;
	size_t hung[PASS_ALL];  /* hung launches per pass (stats_config) */
	size_t made[PASS_ALL];  /* launches per pass, hung ones included */
	struct sample *samples; /* sorted by pass, then index */
	size_t n_samples;
	struct pass_time passes[PASS_ALL];

	/* Filled in by stats_config(). */
	struct pass_stats pass[PASS_ALL];
	size_t failures[PASS_ALL];
	size_t pairs;
	struct penalty penalty;
	/* T > 1: each block's first round (T launches started together on the
	 * barrier), longest first launch - longest repeat; its median and
	 * interval over the blocks (NAN without meta block, or below
	 * MIN_PAIRS rounds for the interval) */
	size_t rounds;
	size_t rounds_skewed;   /* rounds left out: threads started apart */
	struct penalty round;
	/* the same rounds: their first launches' spread (longest - shortest)
	 * minus their repeats' spread */
	struct penalty spread;
	double ratio;           /* first median / repeat median, reported */
	/* the first launch relative to an unloaded one, (q1 + median d) / q1
	 * with q1 the repeats' lower quartile: what RATIO_FLOOR is held to */
	double relative;
	double unloaded_ms;     /* the repeats' lower quartile: an unloaded launch */
	enum verdict verdict;
	char reason[REASON_MAX];

	/* Every launch's cost in the work folder: repeat - reference, paired by
	 * index (launch --reference); ref_pairs 0 when there was no reference. */
	size_t ref_pairs;
	struct penalty ref_cost;
	double ref_ratio; /* repeat median / reference median */
	double ref_relative; /* (reference q1 + median cost) / reference q1 */
	double ref_unloaded_ms; /* the reference launches' lower quartile */
	enum verdict ref_verdict;
	char ref_reason[REASON_MAX];
};

/* Throughput at T relative to T = 1 for one core class. */
struct scaling_row {
	const char *class_name;
	long threads;
	double first;
	double repeat;
};

/* The penalty against artifact size (SIZE): at one class and thread count,
 * the least-squares slope of the configs' penalty medians on their padding
 * in MiB, with an approximate interval (each median's spread read off its
 * own interval). */
struct size_slope {
	const char *class_name;
	long threads;
	size_t n_sizes;
	long min_pad, max_pad;
	double ms_per_mib, ci_low, ci_high;
	enum verdict verdict; /* slowdown: grows; none: flat; else inconclusive */
	char reason[REASON_MAX];
};

struct case_result {
	char *name;
	char *kind;
	struct config **configs; /* sorted by class, threads, then padding */
	size_t n_configs;
	/* the smallest padding: headline, scaling and serialisation use the
	 * configs of that size only; the other sizes feed the slopes */
	long base_pad;
	struct size_slope *slopes;
	size_t n_slopes;
	struct config *headline;
	struct scaling_row *scaling;
	size_t n_scaling;
	enum serialisation serialisation;
	char serial_reason[REASON_MAX];
};

struct inference {
	enum cache_key key;
	char reason[REASON_MAX];
};

int stats_sample_ok(const struct sample *s);
const char *stats_signal_name(long sig, char *buf, size_t len);
const char *stats_pass_name(enum pass p);
const char *stats_verdict_name(enum verdict v);
const char *stats_serialisation_name(enum serialisation s);
const char *stats_cache_key_name(enum cache_key k);

/* Medians, pairs, penalty, interval, ratio, failures and the verdict. */
void stats_config(struct config *c);
/* Headline, scaling and serialisation; configs must already be summarised. */
void stats_case(struct case_result *cr);
/* The confidence of a config's penalty interval (sequential looks adjust it). */
double stats_confidence(const struct config *c);
/* The floor a verdict against an unloaded launch of UNLOADED ms is held to
 * (stop_floor), in words: "the 1 ms floor", or "the 2.50 ms floor (0.25 x
 * an unloaded launch of 10.00 ms)"; the suite's reasons name it too. */
const char *stats_floor_words(double unloaded, char *buf, size_t len);
/* The cache key the exe/hardlink/copy/rewrite verdicts point to. */
void stats_infer_key(const struct case_result *cases, size_t n_cases,
		     struct inference *out);

#endif
