/* killrate.h - a kill rate and its exact interval (docs/remedies.md, "Kill
 * rates and their intervals"): K kills of N launches as a binomial
 * proportion, Clopper and Pearson's 95% interval found by bisection on the
 * binomial sums (nothing beyond <math.h>).  Pure: nothing prints. */
#ifndef EXECLAG_KILLRATE_H
#define EXECLAG_KILLRATE_H

#include <stddef.h>

#include "remedies.h"

/* P(X <= k) for X binomial (n, p); 1 for k >= n. */
double stats_binom_cdf(size_t k, size_t n, double p);
/* KILLED of OF into *out: the estimate and, for 0 kills, the one-sided
 * 95% upper bound 1 - 0.05^(1/OF); else the two-sided 95% interval (its
 * lower limit the p with P(X >= K) = 0.025, its upper the p with
 * P(X <= K) = 0.025). */
void stats_kill_rate(size_t killed, size_t of, struct kill_rate *out);
/* A percentage as the kit says an interval's end: two decimals, or one
 * significant digit below 0.01%; rounded up (UP) or down.  "0.08" for
 * 0.00078 up; "0.002" for 0.000026 down.  FRACTION is a fraction (0.01 is
 * 1%). */
const char *stats_percent_words(double fraction, int up, char *buf, size_t len);
/* The interval in words: "at most 0.08%" (0 kills), "0.04-0.31%"; "-"
 * when nothing was launched.  The dash is an en dash in UTF-8. */
const char *stats_kill_rate_words(const struct kill_rate *k, char *buf, size_t len);

#endif
