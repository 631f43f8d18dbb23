/* suitestats.h - the suite case: read micro/suite's results files, compute
 * wall and CPU time per pass, the first-launch cost, its share of the fresh
 * pass and the projection to a large suite (docs/method.md, "The suite
 * case").  The model (struct suite_result) carries the numbers; the writers
 * in micro/report show it (run.json's "suite", report.md's "Test suite",
 * the terminal's suite lines). */
#ifndef EXECLAG_SUITESTATS_H
#define EXECLAG_SUITESTATS_H

#include "stats.h"

/* The suite the projection speaks of: the compiler test suite that started
 * the project built and ran about 14,000 programs (DESIGN.md). */
#define SUITE_PROJECT_PROGRAMS 14000L

#define SUITE_SUFFIX ".suite.tsv"

enum suite_pass { SP_FRESH, SP_RERUN, SP_BUILD, SP_ALONE, SP_COUNT };

struct suite_pass_stats {
	int present;
	double wall_ms;
	double cpu_ms;       /* user + system time of the pass's children */
	double utilisation;  /* cpu_ms / (wall_ms * cores); NAN when wall is 0 */
	long programs;
	size_t failures;     /* programs whose compile or run did not exit 0 */
	double median_compile_ms; /* NAN when the pass compiles nothing */
	double median_run_ms;     /* NAN when the pass runs nothing */
	double compile_sum_ms;    /* all its programs' compiles, 0 when none */
	double run_sum_ms;        /* all its programs' runs, 0 when none */
};

/* One results file: the suite at one job count J. */
struct suite_config {
	char *file;
	char *cc;
	long m, jobs, cores;
	/* suite --sequential: the programs planned, the looks (as written) and
	 * their number, why it stopped; looks 0 without it */
	long planned;
	char *looks_at, *stopped;
	int looks;
	struct suite_pass_stats pass[SP_COUNT];
	double *run_ms[SP_COUNT]; /* per program; NAN when it did not run OK */

	/* Derived by suite_read(). */
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

/* Read and analyse DIR/raw/ *.suite.tsv; NULL when there are none.  Bad
 * input: one line on stderr naming file and line, exit 2. */
struct suite_result *suite_read(const char *dir);

#endif
