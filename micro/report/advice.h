/* advice.h - what a run's conditions and verdict mean for the person at
 * the machine, and the one thing to do: the plain lines of make doctor
 * (and of make repro's end), and the report's "How the kit was started".
 * Every sentence that says how macOS behaves names its public source
 * (docs/evidence.md); this is the one place that holds those words.
 *
 * The conditions are read through a callback, so the same words serve a
 * run being analysed (run.h) and a finished run.json (micro/prog/advise.c). */
#ifndef EXECLAG_ADVICE_H
#define EXECLAG_ADVICE_H

#include <jansson.h>
#include <stdio.h>

/* The value of a conditions key (scripts/probe/sysinfo, docs/formats.md), or
 * NULL when the run has none. */
typedef const char *(*advice_get)(const void *ctx, const char *key);

enum advice_verdict {
	ADVICE_PENALTY, /* the case's verdict is slowdown */
	ADVICE_NONE,    /* none */
	ADVICE_UNCLEAR, /* inconclusive, or no such case */
	ADVICE_HANG     /* hang: a launch passed its bound and was killed */
};

struct advice_probe {
	enum advice_verdict verdict;
	const char *kase;       /* the case the verdict is of ("exe") */
	double penalty_ms;      /* median paired difference; NAN when unknown */
	double low_ms, high_ms; /* its interval; NAN when there is none */
	const char *reason;     /* analyze's reason for the verdict, or NULL */
	long pairs;             /* first launches with their repeat; -1 unknown */
	const json_t *hang;     /* the headline config's "hang" object, or NULL */
};

/* The verdict's word: penalty, none, unclear. */
const char *advice_verdict_word(enum advice_verdict v);

/* "149.9 ms [149.2, 150.3]": the penalty and its interval ("?" where
 * unknown), into buf. */
const char *advice_penalty_text(const struct advice_probe *p, char *buf, size_t len);

/* What the way the kit was started means for the verdicts, a sentence a
 * line, each with its source (macOS runs; elsewhere one line that it does
 * not matter there).  Each line starts with prefix ("- " in report.md).
 * Returns the number of lines written. */
int advice_started(FILE *f, advice_get get, const void *ctx, const char *prefix);

/* The plain lines: "cause: …", "do: …" (one or more), "will not fix: …"
 * where a Developer Tools step is given.  No trailing verdict line. */
void advice_write(FILE *f, advice_get get, const void *ctx, const struct advice_probe *p);

/* The last line of make doctor: "verdict: penalty 149.9 ms [149.2,
 * 150.3]", "verdict: none — …", "verdict: unclear — …: run make repro". */
void advice_verdict_line(FILE *f, const struct advice_probe *p);

/* make doctor's exit status for a verdict: 0 none, 1 penalty, 3 unclear,
 * 4 hang. */
int advice_exit_status(enum advice_verdict v);

/* A hang's lines (the probe's hang object and the conditions' hang.copy):
 *   hang:     how many launches did not end within the bound, of how many;
 *   evidence: each hung process as it was before the kill (state, CPU
 *             time, wait channel), and whether it died;
 *   services: the checking services' CPU over the wait;
 *   copy:     whether the same bytes at a new path started (codex#23802).
 * Each line starts with prefix. */
void advice_hang(FILE *f, advice_get get, const void *ctx, const json_t *hang, const char *prefix);

/* What public reports found to help with programs that never start, each
 * with its source and whether it needs a reboot or an administrator
 * ("fix:" lines); on macOS only, else one line that they are macOS's. */
void advice_hang_fixes(FILE *f, advice_get get, const void *ctx, const char *prefix);

/* ---- a finished run (run.json, docs/run.schema.json) ---------------------------------- */

/* The conditions of a run.json object, for the callbacks above: pass
 * advice_json_get with the object json_object_get(run, "conditions"). */
const char *advice_json_get(const void *conditions, const char *key);

/* The case NAME of a run.json (NULL: exe, else the run's first case) and
 * its verdict, penalty and pairs into *p; returns the case, or NULL when
 * the run has none (then p says unclear, "the run has no such case"). */
const json_t *advice_probe_of_run(const json_t *run, const char *name, struct advice_probe *p);

/* The plain lines of a finished run, at most four, each starting with
 * prefix and a word that says what it is:
 *   cost:  what a new program costs here (the headline case's penalty,
 *          rounded, its interval in brackets);
 *   queue: whether the checks queue (only where there is a penalty);
 *   cause: what the conditions say is the cause (SIP, the responsible
 *          app's Developer Tools state, the network);
 *   do:    the one thing to do next, with its exact steps; or that
 *          nothing needs doing, and what the control looks like.
 * Every word follows from the run's own numbers and conditions.  make
 * repro ends with them and report.md begins with them.  Returns the number
 * of lines written. */
int advice_brief(FILE *f, const json_t *run, const char *prefix);

#endif
