/* stop.h - the stopping decision of sequential stopping (docs/method.md):
 * at a planned look, whether the verdict on the launches so far is already
 * certain.  launch and suite call it, and the simulator's error rates go
 * through it; it reads arrays and nothing else, so unit tests feed it
 * fixed ones.  Every number it uses is in thresholds.h. */
#ifndef EXECLAG_STOP_H
#define EXECLAG_STOP_H

#include <stddef.h>

/* An unloaded launch: the lower quartile of the n repeat launches
 * (ascending); NAN where there are none or it is not above 0. */
double stop_unloaded(const double *repeat_sorted, size_t n);

/* A first launch that costs `cost` more, relative to an unloaded one:
 * (unloaded + cost) / unloaded; NAN without an unloaded launch. */
double stop_relative(double cost, double unloaded);

/* The rule (thresholds.h), for a penalty whose interval is [lo, hi],
 * against an unloaded launch of `unloaded` ms (NAN: none known, as in the
 * suite), whose floor is stop_floor(unloaded):
 *   "slowdown"  lo above the floor: certainly a penalty the kit calls one;
 *   "none"      hi below the floor: certainly not one (a scanner that costs
 *               every launch 90 ms makes a 1 ms interval unreachable, and
 *               a first launch of a file it knows certainly costs less
 *               than a quarter of an unloaded launch more);
 *   NULL        across the floor: not yet. */
const char *stop_verdict(double lo, double hi, double unloaded);

/* The least penalty the kit calls a cost, against an unloaded launch of
 * `unloaded` ms: PENALTY_FLOOR_MS, or FLOOR_SHARE of the unloaded launch
 * where that is more (NAN: the floor alone). */
double stop_floor(double unloaded);

/* The verdict on the n paired differences d (sorted here) at the given
 * coverage, against an unloaded launch of `unloaded` ms: stop_verdict of
 * their median and interval, or NULL below MIN_PAIRS or without an
 * interval. */
const char *stop_certain_pairs(double *d, size_t n, double coverage, double unloaded);

/* The same for n artifacts whose first and repeat launches took first[i]
 * and repeat[i] ms (NAN where a launch failed): pairs where both ran, the
 * unloaded launch from the repeats. */
const char *stop_certain(const double *first, const double *repeat, long n, double coverage);

/* Whether the rounds of artifacts [0, n), blocks of `block` (one round of
 * T launches each), are sharp: their excess -- the longest first launch
 * minus the longest repeat, as analyze takes it -- has an interval at
 * looks_confidence(looks) at most SEQ_SHARP of its low end wide. */
int stop_rounds_sharp(const double *first, const double *repeat, long n, long block, int looks);

/* The decision at a look of coverage `coverage` (looks_coverage_ext), one
 * of k looks, once n artifacts have been launched in `blocks` blocks of
 * `block` by `threads` threads: "slowdown" or "none" when the run may stop
 * there, NULL to go on.  At T > 1 it stops only after SEQ_MIN_ROUNDS
 * rounds, or SEQ_SHARP_ROUNDS on a slowdown whose rounds are sharp. */
const char *stop_at_look(const double *first, const double *repeat, long n, int threads,
			 long block, long blocks, double coverage, int k);

/* Whether the interval at coverage over artifacts [0, n) lies across the
 * floor (its low end at or under it, its high end at or over it): more
 * pairs may yet decide it, so the extension goes on (SEQ_EXTEND). */
int stop_straddles(const double *first, const double *repeat, long n, double coverage);

#endif
