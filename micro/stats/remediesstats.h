/* remediesstats.h - the remedies table (model/remedies.h) from a run's
 * cases: a row for each case of the placements table (placements.h) the
 * run has, its first launch's cost (the headline's paired penalty), what
 * it saves against the new file (exe), its kills among its first launches
 * and their rate (killrate.h), and the marks: the placement to use here
 * (the lowest cost with no kill seen, the new file aside; of those that
 * cannot be told from it by their intervals, the first in the table's
 * order) and those to avoid (any kill seen, changed code never checked,
 * else the highest cost where it pays).  Pure: nothing prints. */
#ifndef EXECLAG_REMEDIESSTATS_H
#define EXECLAG_REMEDIESSTATS_H

#include <stddef.h>

#include "caseresult.h"
#include "remedies.h"

/* The table of CASES (summarised by stats_case), or NULL when they hold no
 * placement but the new file.  Its strings are the table's and the
 * cases'; stats_remedies_free frees the rest. */
struct remedies *stats_remedies(const struct case_result *cases, size_t n_cases);
void stats_remedies_free(struct remedies *t);

/* The marks of T's rows, T->use and T->nothing_pays, from the rows'
 * numbers (stats_remedies calls it; a reader of run.json need not). */
void stats_remedies_decide(struct remedies *t);

#endif
