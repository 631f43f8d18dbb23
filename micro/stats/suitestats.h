/* suitestats.h - the suite case: read micro/suite's results files
 * (suitefile.h) into the suite's model (suiteresult.h): CPU time per pass,
 * the first-launch cost, its share of the fresh pass and the projection to
 * a large suite (docs/method.md, "The suite case").  The writers in
 * micro/report show it (run.json's "suite", report.md's "Test suite", the
 * terminal's suite lines). */
#ifndef EXECLAG_SUITESTATS_H
#define EXECLAG_SUITESTATS_H

#include "stats.h"
#include "suiteresult.h"

/* The suite the projection speaks of: the compiler test suite that started
 * the project built and ran about 14,000 programs (DESIGN.md). */
#define SUITE_PROJECT_PROGRAMS 14000L

/* Read and analyse DIR/raw/ *.suite.tsv; NULL when there are none.  Bad
 * input: one line on stderr naming file and line, exit 2. */
struct suite_result *suite_read(const char *dir);

#endif
