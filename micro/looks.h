/* looks.h - sequential stopping (docs/method.md): the looks planned, the
 * coverage adjusted for their number, and whether a verdict is certain.
 * launch and suite stop by it; analyze and the suite's reader adjust their
 * intervals with looks_confidence. */
#ifndef EXECLAG_LOOKS_H
#define EXECLAG_LOOKS_H

#include <stddef.h>

#define LOOKS_MAX 6
#define LOOKS_FIRST 8 /* 2^-8 < 0.025 / LOOKS_MAX: an interval exists there */

/* The looks for n: at max(first, LOOKS_FIRST), then every
 * max(4, ceil((n - that) / 5)), at most LOOKS_MAX, the last at n; returns
 * how many (one, n, when n is below the first). */
int looks_plan(long first, long n, long looks[LOOKS_MAX]);

/* CONFIDENCE for k <= 1 looks; else 1 - (1 - CONFIDENCE) / k (Bonferroni). */
double looks_confidence(int k);

/* The verdict on the n paired differences d (sorted here) once certain at
 * the coverage of k looks: "slowdown" (interval above the floor and ratio
 * above RATIO_FLOOR; INFINITY where no ratio applies), "none" (interval
 * below the floor), or NULL. */
const char *looks_certain(double *d, size_t n, int k, double ratio);

/* The number of looks in a samples or suite file's "meta looks" value:
 * 1 to 64 ascending whole numbers from 1 to 100000000, comma-separated;
 * -1 for anything else. */
int looks_count(const char *s);

/* Why a configuration ended, in words: "stopped: slowdown certain",
 * "stopped: none certain", or "ran to the maximum" (also for NULL). */
const char *looks_stop_words(const char *stopped);

#endif
