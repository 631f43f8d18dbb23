/* thresholds.h - every number a verdict depends on, in one place.
 *
 * analyze writes these into run.json ("thresholds") and prints them in the
 * report, so a reader always sees the rule that produced a verdict.  Change
 * them here and nowhere else. */
#ifndef EXECLAG_THRESHOLDS_H
#define EXECLAG_THRESHOLDS_H

/* A penalty smaller than this is not worth a bug report, whatever its
 * statistical significance: "slowdown" needs the interval's lower bound
 * above it, "none" needs the upper bound below it. */
#define PENALTY_FLOOR_MS 1.0

/* Where an unloaded launch is long, the floor is this share of it: a
 * first launch less than a quarter longer than an unloaded one is not
 * called a first-launch penalty, nor is an interval that reaches no
 * higher called anything but none.  An unloaded launch is the lower
 * quartile q1 of the repeat launches (a burst of other load lengthens a
 * few launches, not the quartile).  So the floor -- the least penalty the
 * kit calls a cost -- is max(PENALTY_FLOOR_MS, FLOOR_SHARE x q1), and one
 * rule decides: "slowdown" when the interval lies above it, "none" when
 * below, "inconclusive" across it (stop.c's stop_verdict).  It matters only
 * where every launch is long, as under an on-access scanner that hashes
 * every file it is shown: ClamAV on 4 MiB programs costs every launch
 * about 90 ms, and a copy it knows has paired differences of +-15 ms; a
 * plain 42 ms first-launch cost there is a slowdown (docs/method.md). */
#define FLOOR_SHARE 0.25

/* Coverage asked of the distribution-free interval for the median penalty
 * (the interval actually reached is stored beside it). */
#define CONFIDENCE 0.95

/* Throughput at T threads / throughput at 1 thread at or below this counts
 * as "does not scale" when telling serialised from parallel. */
#define SERIAL_SCALING_MAX 1.25

/* A queue shows in the penalty itself.  With one check costing L (the
 * penalty at T = 1) and the rest of a launch u (the repeat median at T):
 * checks in parallel leave the penalty at T at L; T launches queueing on
 * one checker make each launch take T x L, a penalty of T x L - u.  The
 * penalty at T must lie at least this share of the way from the first to
 * the second for the launches to count as queueing (docs/method.md). */
#define QUEUE_GROWTH_MIN 0.5

/* The suite's overlap s_J = M x p / E_J lies in 1..J by construction; an
 * estimate up to this share outside that range is noise in the two costs
 * and is taken as the nearest bound (one checker measured at 0.97 checks at
 * once is one checker); farther out it is not given (docs/method.md). */
#define SUITE_OVERLAP_SLACK 0.2

/* Fewest successful pairs for which a 95% interval exists (n = 5 cannot
 * reach 95% with order statistics: 1 - 2/32 < 0.95). */
#define MIN_PAIRS 6

/* A round (T launches released together) whose threads started further
 * apart than this share of the penalty at that T is left out of the
 * serialisation verdict's rounds (docs/method.md). */
#define ROUND_SKEW_MAX 0.25

/* The hyperfine cross-check widens its tolerance by each median's own
 * noise: half the width of its distribution-free interval at this
 * coverage (docs/method.md, "hyperfine cross-check"). */
#define MEDIAN_NOISE_COVERAGE 0.95

/* Sequential stopping at T > 1 (stop.h): the serialisation verdict reads
 * the rounds (one per block), and fewer than the quick profile's 10 at
 * T = 2 left it undetermined at small costs, so a look stops there only
 * after SEQ_MIN_ROUNDS rounds -- or after SEQ_SHARP_ROUNDS on a slowdown
 * whose rounds are sharp: their excess has an interval at most SEQ_SHARP
 * of its low end wide.  8 rounds keep an interval of their own (MIN_PAIRS)
 * with two of them left out for their threads' skew. */
#define SEQ_MIN_ROUNDS 10
/* A configuration that reaches its planned maximum N with its interval
 * across the floor goes on, up to SEQ_EXTEND x N artifacts, with looks at
 * 2N ... SEQ_EXTEND x N, before it is called inconclusive.  The extension
 * is planned from the start, so it has an error of its own: SEQ_EXTEND_SHARE
 * of 1 - CONFIDENCE is kept from the last planned look for it, with what
 * that look's interval leaves unused (docs/method.md, "The extension"). */
#define SEQ_EXTEND 3
/* make doctor's probe (scripts/repro's doctor profile) plans 2 x LOOKS_FIRST
 * = 16 artifacts (looks at 8, 12 and 16) and, where 16 leave its interval
 * across the floor (a loaded machine), extends to DOCTOR_EXTEND x 16 = 128,
 * with the extension's share of the error as every profile's (looks at 32,
 * 48 ... 128: those before the last spend next to nothing).  On Linux its
 * programs are made from one compiled template (mkfresh --template), so
 * its time goes to launches, not compilers (elsewhere each is compiled and
 * scripts/repro extends it to 32 only; docs/method.md, "make doctor's
 * probe"). */
#define DOCTOR_EXTEND 8
#define SEQ_EXTEND_SHARE 0.01
#define SEQ_SHARP_ROUNDS 8
#define SEQ_SHARP 0.25

#endif
