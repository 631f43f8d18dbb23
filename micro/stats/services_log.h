/* services_log.h - what the assessment services did while each case ran: their
 * CPU time (raw/<config>.services.tsv, scripts/probe/services), the assessments
 * in the unified log (raw/<config>.log.status and .log.ndjson,
 * scripts/probe/logs), and the services' CPU over a hung launch's wait
 * (raw/<config>.hang.services.tsv).  Formats: docs/formats.md.  Nothing here
 * stops analyze: a missing or unreadable file becomes a null with a reason.
 *
 * The model (struct services_log) carries the sums and the reasons; the
 * writers in micro/report show it (run.json's services and assessments of
 * each case, report.md's "Assessment services" and "Assessments in the
 * unified log", the terminal's lines, the hang's services in both). */
#ifndef EXECLAG_SERVICES_LOG_H
#define EXECLAG_SERVICES_LOG_H

#include <stddef.h>

#include "services.h"

struct run;

#define SERVICES_LOG_WHY_MAX 320

/* The documented steps of an assessment, in the order the report lists
 * them (docs/evidence.md, "The unified log"); services_log_steps gives
 * each its run.json key and the text it is counted by. */
enum {
	STEP_PROCESS_ASSESSMENT, STEP_PERFORM_SCAN, STEP_LEGACY_NOTARIZATION,
	STEP_TICKET_LOOKUP, STEP_REACHABILITY, STEP_XPROTECT_RESULTS, STEP_SCAN_FINISHED,
	STEP_SCAN_COMPLETE, STEP_EVALUATE, N_STEPS
};
struct services_log_step {
	const char *key, *text;
};
extern const struct services_log_step services_log_steps[N_STEPS];

/* At most this many checks per case are listed in run.json (all are
 * counted and timed). */
#define SERVICES_LOG_CHECKS_LISTED 200

/* The lines of one window that carry the same path: one check, timed from
 * its first line to its last. */
struct services_log_check {
	char *path;
	int window;
	long lines;
	double first_s, last_s; /* seconds, from the events' timestamps */
	char first[40];         /* the first line's timestamp, as logged */
};

/* The services' CPU over one configuration's hung launch, from the sample
 * at half the bound to the one at the kill (launch --services-out). */
struct services_log_hang {
	int state; /* 0 read into cpu; 1 none taken; -1 unusable, with why */
	struct svc_total cpu[N_SERVICES];
	char why[256];
};

/* One case: the sums over its windows (one a config) that could be read. */
struct services_log_case {
	int windows;          /* configs of the case */
	long fresh, repeat;   /* launches in all of them */

	int svc_windows, svc_missing;
	long svc_fresh, svc_repeat;
	struct svc_total svc[N_SERVICES];
	int svc_order[N_SERVICES]; /* service indexes by CPU used, most first
				    * (unknown last) */
	char svc_why[SERVICES_LOG_WHY_MAX]; /* the first window that could not be used */

	int log_windows, log_missing, log_cut;
	long log_fresh, log_repeat;
	long performscan, scan_complete, process_assessment, amfid, xprotect;
	long events, unreadable;
	long steps[N_STEPS];
	struct services_log_check *checks; /* lines grouped by the path they carry */
	size_t n_checks;
	size_t checks_timed;   /* checks of 2 lines or more */
	double check_median_ms, check_max_ms; /* of their durations; NAN when none */
	char log_why[SERVICES_LOG_WHY_MAX];

	/* per config of the case, in the run's order: the hang's services
	 * (state 1 where the config did not hang) */
	struct services_log_hang *hangs;
	size_t n_hangs;
};

struct services_log {
	struct services_log_case *cases; /* r->cases' order */
	size_t n_cases;
	const char *os;
	int any_files; /* any services or log file was there */
	int darwin;    /* the run's os is Darwin */
};

/* Read the services and log files of every config of r's cases (r->cases
 * must be complete).  Never NULL. */
struct services_log *services_log_read(const char *dir, const struct run *r);

#endif
