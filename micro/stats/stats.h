/* stats.h - the numbers and the decisions analyze makes from samples, over
 * the models of a configuration and a case (config.h, caseresult.h), a
 * unit each: penalty.c (one configuration), casestats.c (one case: its
 * headline and scaling), serial.c (serialisation), slopes.c (the penalty
 * against size), cachekey.c (the cache key), names.c (their words).
 *
 * Everything here is pure: it reads the parsed samples and fills in
 * summaries, so it can be checked against hand-computed fixtures.  A value
 * that cannot be computed (no successful samples) is NAN here and null in
 * run.json. */
#ifndef EXECLAG_STATS_H
#define EXECLAG_STATS_H

#include "caseresult.h"
#include "config.h"
#include "orderstats.h"
#include "pass.h"

#include <stddef.h>

/* 1 when the launch ran and exited 0. */
int stats_sample_ok(const struct sample *s);
/* The words run.json and the report write (names.c): a signal's name by
 * this host's numbering ("SIG%ld" in buf for one it does not know), a
 * pass's, a verdict's, a serialisation's, a cache key's. */
const char *stats_signal_name(long sig, char *buf, size_t len);
const char *stats_pass_name(enum pass p);
const char *stats_verdict_name(enum verdict v);
const char *stats_serialisation_name(enum serialisation s);
const char *stats_cache_key_name(enum cache_key k);

/* Medians, pairs, penalty, interval, ratio, failures and the verdict. */
void stats_config(struct config *c);
/* Headline, scaling and serialisation; configs must already be summarised. */
void stats_case(struct case_result *cr);
/* The first launches of case cr the system killed (config.h: killed,
 * killed_of), summed over its configs into *killed and *of; 0 where no
 * config kept kills (an older run), else 1. */
int stats_case_kills(const struct case_result *cr, size_t *killed, size_t *of);
/* The assessments before the launch of cr's configs (config.h: assess),
 * per tool (caseresult.h: assessed, n_assessed; none where no config has
 * any). */
void stats_case_assessed(struct case_result *cr);
/* The confidence of a config's penalty interval (sequential looks adjust it). */
double stats_confidence(const struct config *c);
/* The floor a verdict against an unloaded launch of UNLOADED ms is held to
 * (stop_floor), in words: "the 1 ms floor", or "the 2.50 ms floor (0.25 x
 * an unloaded launch of 10.00 ms)"; the suite's reasons name it too. */
const char *stats_floor_words(double unloaded, char *buf, size_t len);
/* The cache key the exe/hardlink/copy/rewrite verdicts point to. */
void stats_infer_key(const struct case_result *cases, size_t n_cases,
		     struct inference *out);

#endif
