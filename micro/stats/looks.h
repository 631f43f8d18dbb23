/* looks.h - sequential stopping (docs/method.md): the looks planned, the
 * coverage adjusted for their number, and whether a verdict is certain.
 * launch and suite stop by it; analyze and the suite's reader adjust their
 * intervals with looks_confidence. */
#ifndef EXECLAG_LOOKS_H
#define EXECLAG_LOOKS_H

#include <stddef.h>

#define LOOKS_MAX 6
#define LOOKS_FIRST 8 /* 2^-8 < 0.025 / LOOKS_MAX: an interval exists there */
#define LOOKS_EXT_MAX 8 /* the extension's looks (SEQ_EXTEND - 1 of them) */
#define LOOKS_ALL (LOOKS_MAX + LOOKS_EXT_MAX)

/* The looks for n: at max(first, LOOKS_FIRST), then every
 * max(4, ceil((n - that) / 5)), at most LOOKS_MAX, the last at n; returns
 * how many (one, n, when n is below the first). */
int looks_plan(long first, long n, long looks[LOOKS_MAX]);

/* CONFIDENCE for k <= 1 looks; else 1 - (1 - CONFIDENCE) / k (Bonferroni,
 * the error split evenly).  Only launch's test of whether T > 1 rounds are
 * sharp uses it; the verdicts use looks_coverage. */
double looks_confidence(int k);

/* The coverage of look i (0-based) of the k at looks[] (docs/method.md):
 * CONFIDENCE for k <= 1; a look before the last at 1 - 2^(1 - n), the
 * least that gives an interval of n pairs at all ([d(1), d(n)]: every
 * pair on the same side of the floor; at least 1e-9 spent); the last at
 * CONFIDENCE plus what the looks before it spent, so that the errors add
 * up to 1 - CONFIDENCE (Bonferroni with unequal shares, as Haybittle and
 * Peto's boundary).  Where the looks before the last would spend half of
 * 1 - CONFIDENCE or more (a plan the kit never makes: its first look is at
 * LOOKS_FIRST), every look gets looks_confidence(k). */
double looks_coverage(const long looks[], int k, int i);

/* The extension's looks after a plan whose last look is at n: 2n, 3n ...
 * up to factor x n (at most LOOKS_EXT_MAX); returns how many (0 for a
 * factor below 2). */
int looks_extend(long n, long factor, long ext[LOOKS_EXT_MAX]);

/* The coverage of look i of k, of which the first kp are the plan and the
 * rest its extension (kp == k: looks_coverage).  With an extension the
 * plan's last look keeps SEQ_EXTEND_SHARE of the error for it: CONFIDENCE
 * + what the plan's earlier looks spent + SEQ_EXTEND_SHARE; the extension
 * spends that share and what the last planned look's interval left unused
 * (it reaches more than it asks, order statistics being discrete): its
 * looks before the last 2^(1 - n) each, its last the rest (docs/method.md). */
double looks_coverage_ext(const long looks[], int k, int kp, int i);

/* looks_coverage for a "meta looks" value s (looksmeta.h) and
 * the n artifacts or programs launched: the last look if n reached it,
 * else the last look at or below n (the first if none);
 * its 1-based number in *which (may be NULL).  CONFIDENCE (and 0) when s
 * is not valid. */
double looks_coverage_at(const char *s, long n, int *which);

/* Why a configuration ended, in words: "stopped: slowdown certain",
 * "stopped: none certain", or "ran to the maximum" (also for NULL). */
const char *looks_stop_words(const char *stopped);

#endif
