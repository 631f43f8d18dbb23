/* advice.h - the writers of the advice (advice_model.h): what a run's
 * conditions and verdict mean for the person at the machine, and the one
 * thing to do, in words.  Each writer words the model and decides nothing:
 *   the plain lines (advice_brief.c): cost, queue, cause, do - what make
 *     repro ends with and report.md begins with;
 *   make doctor's lines (advice_doctor.c): the machine's state, a hang's
 *     evidence, cause and do, a hang's fixes, the verdict;
 *   how the kit was started (advice_started.c): report.md's section.
 * Every sentence that says how macOS behaves names its public source
 * (docs/evidence.md); the model holds which sources back each finding and
 * step.  A new result (the checker's health, the remedies) is a section in
 * each writer that shows it. */
#ifndef EXECLAG_ADVICE_H
#define EXECLAG_ADVICE_H

#include "advice_model.h"

#include <jansson.h>
#include <stdio.h>

/* The plain lines, at most four, each starting with prefix and a word that
 * says what it is:
 *   cost:  what a new program costs here (the case's penalty, rounded,
 *          its interval in brackets);
 *   queue: whether the checks queue (only where there is a penalty);
 *   cause: what the conditions say is the cause (SIP, the responsible
 *          app's Developer Tools state, the network);
 *   do:    the one thing to do next, with its exact steps; or that
 *          nothing needs doing, and what the control looks like.
 * None when the run has no such case.  Returns the number of lines. */
int advice_brief_lines(FILE *f, const struct advice *a, const char *prefix);

/* make doctor's whole answer: the machine's state and the probe; for a
 * hang its evidence and log lines (advice_read_log); the cause and do:
 * lines; a hang's fixes; last the verdict with the penalty and its
 * interval in ms. */
void advice_doctor(FILE *f, const struct advice *a);

/* The cause: and do: lines alone ("will not fix: …" where a Developer
 * Tools step is given), no verdict line; where the run read the checker's
 * health, its checker: line first, and a sick checker's relief: lines
 * after them. */
void advice_cause_lines(FILE *f, const struct advice *a);

/* What the way the kit was started means for the verdicts, a sentence a
 * line, each with its source (macOS runs; elsewhere one line that it does
 * not matter there), each starting with prefix.  Returns the lines. */
int advice_started_lines(FILE *f, const struct advice *a, const char *prefix);

/* ---- the same from the run's own objects (report_md.c, measure_text.c) -------------- */

/* The plain lines of a finished run (run.json, docs/run.schema.json) or the
 * one report_json.c builds: advice_of_run, then advice_brief_lines. */
int advice_brief(FILE *f, const json_t *run, const char *prefix);

/* How the kit was started, from conditions read through GET. */
int advice_started(FILE *f, advice_get get, const void *ctx, const char *prefix);

/* The cause: and do: lines of probe P under conditions read through GET
 * (make measure's). */
void advice_write(FILE *f, advice_get get, const void *ctx, const struct advice_probe *p);

#endif
