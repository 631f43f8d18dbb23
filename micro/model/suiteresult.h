/* suiteresult.h - the model of the suite case (docs/formats.md, "Suite";
 * docs/method.md, "The suite case"): each results file as suitefile.c
 * reads it, one per job count, and what suite_read (suitestats.c) derives
 * from it: each pass's CPU share, medians and sums, the first-launch cost,
 * its verdict and the projection.  Types only. */
#ifndef EXECLAG_SUITERESULT_H
#define EXECLAG_SUITERESULT_H

#include <stddef.h>

#include "config.h"

enum suite_pass { SP_FRESH, SP_RERUN, SP_BUILD, SP_ALONE, SP_COUNT };

/* One program's compile and run in one pass, as its sample line gives
 * them. */
struct suite_sample {
	enum suite_pass pass;
	long index;
	double compile_ms;   /* NAN: it compiled nothing ("-") */
	double run_ms;       /* NAN: it did not run ("-") */
	int failed;          /* its exit status, signal or errno was not 0 */
};

struct suite_pass_stats {
	/* read: the pass line */
	int present;
	double wall_ms;
	double cpu_ms;       /* user + system time of the pass's children */
	long programs;
	/* derived */
	double utilisation;  /* cpu_ms / (wall_ms * cores); NAN when wall is 0 */
	size_t failures;     /* programs whose compile or run did not exit 0 */
	double median_compile_ms; /* NAN when the pass compiles nothing */
	double median_run_ms;     /* NAN when the pass runs nothing */
	double compile_sum_ms;    /* all its programs' compiles, 0 when none */
	double run_sum_ms;        /* all its programs' runs, 0 when none */
};

/* One results file: the suite at one job count J. */
struct suite_config {
	/* read */
	char *file;
	char *cc;
	long m, jobs, cores;
	/* suite --sequential: the programs planned, the looks (as written) and
	 * their number, why it stopped; looks 0 without it */
	long planned;
	char *looks_at, *stopped;
	int looks;
	struct suite_pass_stats pass[SP_COUNT];
	struct suite_sample *samples; /* in the file's order */
	size_t n_samples;

	/* Derived by suite_read(). */
	double *run_ms[SP_COUNT]; /* per program; NAN when it did not run OK */
	double cost_ms;        /* alone - rerun wall: the first launches of M programs */
	double share;          /* cost_ms / fresh wall */
	size_t pairs;          /* programs with an OK alone and rerun launch */
	struct penalty launch; /* median of paired alone_i - rerun_i, per launch */
	double unloaded_ms;    /* the re-runs' lower quartile (stop_unloaded), NAN
				* where none ran: the floor is stop_floor of it */
	double concurrency;    /* M * p / cost_ms: checks the machine overlapped,
				* within 1..J; NAN where it cannot be told */
	double concurrency_est; /* that estimate even where outside 1..J (noise) */
	double projection_min; /* N * cost_ms / M, in minutes; NAN when not measurable */
	enum verdict verdict;
	char reason[REASON_MAX];
};

struct suite_result {
	struct suite_config *configs; /* sorted by jobs */
	size_t n_configs;
	double penalty_ms; /* p = (alone - rerun) / M at J = 1; NAN without J = 1
			    * or where J = 1's verdict is not a slowdown */
};

#endif
