/* advice_words.h - words more than one advice writer uses (advice.h):
 * numbers in ms, a hang's counts, the watchers, the cause of a penalty on
 * a Mac, the sources cited.  Only the writers include this. */
#ifndef EXECLAG_ADVICE_WORDS_H
#define EXECLAG_ADVICE_WORDS_H

#include "advice_model.h"

#include <stdio.h>

/* V or "?" where it is NULL. */
const char *advice_or_q(const char *v);

/* "149.9 ms [149.2, 150.3]": the probe's penalty and its interval ("?"
 * where unknown), into buf. */
const char *advice_penalty_text(const struct advice_probe *p, char *buf, size_t len);

/* "1 of 3 first launches did not end within 4 s" (and the repeat's, where
 * one hung), into buf. */
const char *advice_hang_counts(const struct advice_hang *h, char *buf, size_t len);

/* "fanotify listeners: …; known agents: …" */
void advice_watchers(FILE *f, const struct advice_setting *s);

/* The cause of a penalty on a Mac, a clause without "cause: " or the final
 * stop: the doctor's line and the plain one share it. */
void advice_penalty_cause(FILE *f, const struct advice *a);

/* The cause of a sick checker (ADVICE_CAUSE_CHECKER), a clause without
 * "cause: " or the final stop: the doctor's line and the plain one share
 * it. */
void advice_checker_cause(FILE *f, const struct advice *a);

/* "needs an administrator's password", "a reboot", "no administrator's
 * password, no reboot" ...: what a relief step asks for. */
const char *advice_relief_needs(const struct checker_step *x);

/* The I-th of SOURCES, or "" past their end. */
const char *advice_cite(advice_sources sources, int i);

#endif
