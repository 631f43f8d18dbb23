/* stop.h - the stopping decision of sequential stopping (docs/method.md):
 * at a planned look, whether the verdict on the launches so far is already
 * certain.  launch and suite call it, and the simulator's error rates go
 * through it; it reads arrays and nothing else, so unit tests feed it
 * fixed ones.  Every number it uses is in thresholds.h. */
#ifndef EXECLAG_STOP_H
#define EXECLAG_STOP_H

#include <stddef.h>

/* The first launch relative to an unloaded one: (q1 + d) / q1, with d the
 * median paired difference and q1 the lower quartile of the n repeat
 * launches (ascending); NAN where q1 is not above 0 or n is 0. */
double stop_relative(double median_d, const double *repeat_sorted, size_t n);

/* The verdict on the n paired differences d (sorted here) at the given
 * coverage: "slowdown" (interval above PENALTY_FLOOR_MS and relative above
 * RATIO_FLOOR; INFINITY where no relative applies, as in the suite),
 * "none" (interval below the floor), or NULL. */
const char *stop_certain_pairs(double *d, size_t n, double coverage, double relative);

/* The same for n artifacts whose first and repeat launches took first[i]
 * and repeat[i] ms (NAN where a launch failed): pairs where both ran,
 * relative from the repeats. */
const char *stop_certain(const double *first, const double *repeat, long n, double coverage);

/* Whether the rounds of artifacts [0, n), blocks of `block` (one round of
 * T launches each), are sharp: their excess -- the longest first launch
 * minus the longest repeat, as analyze takes it -- has an interval at
 * looks_confidence(looks) at most SEQ_SHARP of its low end wide. */
int stop_rounds_sharp(const double *first, const double *repeat, long n, long block, int looks);

/* The decision at look i (0-based) of the k planned at looks[], once n
 * artifacts have been launched in `blocks` blocks of `block` by `threads`
 * threads: "slowdown" or "none" when the run may stop there, NULL to go
 * on.  At T > 1 it stops only after SEQ_MIN_ROUNDS rounds, or
 * SEQ_SHARP_ROUNDS on a slowdown whose rounds are sharp. */
const char *stop_at_look(const double *first, const double *repeat, long n, int threads,
			 long block, long blocks, const long looks[], int k, int i);

#endif
