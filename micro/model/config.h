/* config.h - the model of one configuration (docs/formats.md, "Samples";
 * docs/method.md): its launches as the samples file gives them (fmt's
 * samples.c fills them in), and what stats_config derives from them: the
 * passes' medians, the paired penalty, the rounds, the verdict.  Types
 * only: the readers, the arithmetic and the writers are elsewhere. */
#ifndef EXECLAG_CONFIG_H
#define EXECLAG_CONFIG_H

#include <stddef.h>

#include "pass.h"

/* hang: a launch of the configuration passed its bound (launch --hang-s)
 * and was killed; the configuration has no penalty verdict, only that. */
enum verdict { VERDICT_SLOWDOWN, VERDICT_NONE, VERDICT_INCONCLUSIVE, VERDICT_HANG };

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
	/* a `killed` record names it: the system ended it before the program
	 * ran (SIGKILL that was not the kit's, or EPERM at exec): a finding,
	 * neither a time nor a failure */
	int killed;
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

/* A launch the system killed, as a `killed` record of the samples file
 * names it: its pass and index, and how (SIGKILL, or EPERM at exec). */
struct kill_ev {
	enum pass pass;
	long index;
	int sigkill;       /* 1: SIGKILL; 0: EPERM */
};

/* One step of an artifact's assessment before its launch, apart from it
 * (docs/formats.md, "Assessments beside the manifest"; exe-assessed): the
 * tool, its time, and its status (0; another exit status, 124 killed at
 * its bound; -1: the tool is absent, not run). */
#define ASSESS_TOOL_MAX 16
#define ASSESS_BOUND_STATUS 124 /* killed at its bound */
struct assess_rec {
	long index;
	char tool[ASSESS_TOOL_MAX];
	double ms;
	int status;
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
	/* first launches the system killed (`killed` records), out of the
	 * first launches made ("killed 5 of 3,840"); kills_kept 0: a samples
	 * file from a launch that did not keep them (meta kills), so none is
	 * said (stats_config fills killed and killed_of) */
	int kills_kept;
	struct kill_ev *kills;  /* as the file lists them */
	size_t n_kills;
	size_t killed, killed_of;
	/* what the config's log excerpt (raw/NAME.log.ndjson) said of its
	 * killed programs: kill_log_read 0 where none was read; the kernel's
	 * kill lines naming them, and of those the pages rejected because the
	 * file changed after its signature was loaded (cs_mtime != mtime) */
	int kill_log_read;
	size_t kill_log_lines, kill_log_changed;
	struct pass_time passes[PASS_ALL];
	/* the steps its artifacts were assessed by before their launch
	 * (raw/NAME.manifest.assessed, exe-assessed); n_assess 0: none read */
	struct assess_rec *assess;
	size_t n_assess;

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

#endif
