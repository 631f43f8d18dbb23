/* report.h - render an analysed run as run.json, report.md and a table. */
#ifndef EXECLAG_REPORT_H
#define EXECLAG_REPORT_H

#include <stdio.h>

#include "stats.h"

/* One conditions.txt entry; values stay strings, exactly as sysinfo wrote. */
struct condition {
	char *key;
	char *value;
};

struct suite_result;
struct hf_result;
struct watch_result;

struct run {
	const char *run_id; /* basename of the run folder */
	struct condition *conditions;
	size_t n_conditions;
	struct case_result *cases;
	size_t n_cases;
	struct inference inference;
	struct suite_result *suite;  /* NULL: the suite case did not run */
	struct hf_result *hyperfine;  /* NULL: no hyperfine cross-check attempted */
	struct watch_result *watch;   /* services' CPU and log excerpts (watch.h) */
};

/* The value of a conditions key, or NULL when absent. */
const char *run_condition(const struct run *r, const char *key);

/* Each returns 0, or -1 when writing failed. */
int report_write_json(const struct run *r, FILE *f);
int report_write_markdown(const struct run *r, FILE *f);
int report_print_table(const struct run *r, FILE *f);

#endif
