/* checkerstate.h - the checker's health state, decided from its record
 * (micro/fmt/healthfile.h), and the relief for each state as data, in the
 * order to try it, for a writer to show.  No output here. */
#ifndef EXECLAG_CHECKERSTATE_H
#define EXECLAG_CHECKERSTATE_H

#include "healthfile.h"

#include <stddef.h>

/* unknown: not macOS, or too little read to say.  well: answered, none of
 * the below.  busy: high CPU or memory, assessments answered.  storm:
 * syspolicyd's lines far above the baseline, the driver the program the
 * lines name most.  exhausted: out of file descriptors (the assessment
 * says "Too many open files", or error 24 in the log).  hung: the
 * assessment did not answer within its bound (the health check's own
 * hang; the launch verdict `hung` is another reading of the same fault,
 * combined with this one by the caller). */
enum checker_state {
	CHECKER_UNKNOWN,
	CHECKER_WELL,
	CHECKER_BUSY,
	CHECKER_STORM,
	CHECKER_EXHAUSTED,
	CHECKER_HUNG
};

/* Why, as bits: every reason that holds, whichever decided. */
enum {
	CHECKER_WHY_ASSESS_EMFILE = 1 << 0, /* the assessment: Too many open files */
	CHECKER_WHY_LOG_EMFILE = 1 << 1,    /* error 24 in the log, at the limit or more */
	CHECKER_WHY_TIMEOUT = 1 << 2,       /* the assessment did not answer */
	CHECKER_WHY_RATE = 1 << 3,          /* the line rate: a storm */
	CHECKER_WHY_CPU = 1 << 4,           /* syspolicyd's CPU */
	CHECKER_WHY_RSS = 1 << 5,           /* syspolicyd's memory */
	CHECKER_WHY_REFUSED = 1 << 6        /* the calibration gate refused the
					     * assessment: its stand-in for a checker
					     * out of descriptors (gate exhausted=1) */
};

struct checker_verdict {
	enum checker_state state;
	unsigned why;       /* CHECKER_WHY_* bits */
	double rate;        /* others' lines a second (NAN without a log) */
	double own_rate;    /* the kit's own lines a second (NAN without a log) */
	double baseline;    /* max(own_rate, CHECKER_BASELINE_FLOOR) (NAN without a log) */
	const char *driver; /* the program the log names most, the record's; or NULL */
};

/* The state of record H, with its figures, in V (V->driver points into H). */
void checker_decide(const struct health_record *h, struct checker_verdict *v);

/* "unknown", "well", "busy", "storm", "exhausted", "hung". */
const char *checker_state_name(enum checker_state s);

/* The state a name gives (checker_state_name's words); CHECKER_UNKNOWN for
 * any other. */
enum checker_state checker_state_of(const char *name);

/* One step of relief.  The kit runs none of them; it says them. */
struct checker_step {
	const char *words;  /* what to do, a sentence without the driver's name */
	const char *source; /* the reports it comes from */
	int admin;          /* 1 needs an administrator's password, 0 not, -1 not known */
	int reboot;         /* 1 restarts the Mac */
	int names_driver;   /* 1 is about the driver: shown with its name, and
			     * left out where the log names none */
};

/* The steps for state S in the order to try them, their count in *N
 * (none for well and unknown). */
const struct checker_step *checker_relief(enum checker_state s, size_t *n);

#endif
