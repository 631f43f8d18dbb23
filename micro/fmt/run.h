/* run.h - the model of an analysed run: its conditions, its cases and the
 * optional parts (suite, hyperfine cross-check, services).  The writers
 * (report, plot) and the readers that fill parts of it (watch, hfcompare)
 * depend on this header; it depends on none of them. */
#ifndef EXECLAG_RUN_H
#define EXECLAG_RUN_H

#include <stddef.h>

#include "conditions.h"
#include "stats.h"

struct suite_result;
struct hf_result;
struct services_log;

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
};

/* The value of a conditions key, or NULL when absent. */
const char *run_condition(const struct run *r, const char *key);

#endif
