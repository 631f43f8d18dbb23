/* run.h - the model of an analysed run: its conditions (conditions.h
 * reads them; run_condition looks one up), its cases and the optional
 * parts (suite, hyperfine cross-check, services).  The writers (report,
 * plot) and the readers that fill parts of it (services_log, hfcompare)
 * depend on this header; it depends on none of them.  Types only. */
#ifndef EXECLAG_RUN_H
#define EXECLAG_RUN_H

#include <stddef.h>

#include "caseresult.h"

struct condition;
struct suite_result;
struct hf_result;
struct services_log;
struct remedies;

struct run {
	const char *run_id; /* basename of the run folder */
	struct condition *conditions;
	size_t n_conditions;
	struct case_result *cases;
	size_t n_cases;
	struct inference inference;
	struct suite_result *suite;  /* NULL: the suite case did not run */
	struct hf_result *hyperfine;  /* NULL: no hyperfine cross-check attempted */
	struct services_log *services_log; /* services' CPU and log excerpts (services_log.h) */
	struct remedies *remedies;  /* NULL: not make remedies' run (remedies.h) */
};

#endif
