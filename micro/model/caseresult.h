/* caseresult.h - the model of one case across its configurations
 * (config.h), and of the cache key the cases point to: the headline,
 * throughput scaling, serialisation and the penalty against size, as
 * stats_case and stats_infer_key derive them.  Types only. */
#ifndef EXECLAG_CASERESULT_H
#define EXECLAG_CASERESULT_H

#include <stddef.h>

#include "config.h"

enum serialisation {
	SERIAL_NA,
	SERIAL_SERIALISED,
	SERIAL_PARALLEL,
	SERIAL_UNDETERMINED
};

enum cache_key { KEY_INODE, KEY_PATH, KEY_CONTENT, KEY_UNDETERMINED };

/* Throughput at T relative to T = 1 for one core class. */
struct scaling_row {
	const char *class_name;
	long threads;
	double first;
	double repeat;
};

/* The penalty against artifact size (SIZE): at one class and thread count,
 * the least-squares slope of the configs' penalty medians on their padding
 * in MiB, with an approximate interval (each median's spread read off its
 * own interval). */
struct size_slope {
	const char *class_name;
	long threads;
	size_t n_sizes;
	long min_pad, max_pad;
	double ms_per_mib, ci_low, ci_high;
	enum verdict verdict; /* slowdown: grows; none: flat; else inconclusive */
	char reason[REASON_MAX];
};

/* What one tool of the assessments before the launch cost (exe-assessed;
 * stats_case_assessed): its steps, the median and longest of those that
 * ran (NAN: none ran), how many ended 0, with another status (of those,
 * bound: killed at the bound, 124), and how many found the tool absent
 * (-1, not run). */
struct assessed_tool {
	char tool[ASSESS_TOOL_MAX];
	size_t steps;
	double median_ms, max_ms;
	size_t ok, other, bound, absent;
};

struct case_result {
	char *name;
	char *kind;
	struct config **configs; /* sorted by class, threads, then padding */
	size_t n_configs;
	/* the smallest padding: headline, scaling and serialisation use the
	 * configs of that size only; the other sizes feed the slopes */
	long base_pad;
	struct size_slope *slopes;
	size_t n_slopes;
	struct config *headline;
	struct scaling_row *scaling;
	size_t n_scaling;
	enum serialisation serialisation;
	char serial_reason[REASON_MAX];
	/* the assessments before the launch, a tool each in the order first
	 * met; n_assessed 0: none read (every case but exe-assessed, older
	 * and simulated runs) */
	struct assessed_tool *assessed;
	size_t n_assessed;
};

struct inference {
	enum cache_key key;
	char reason[REASON_MAX];
};

#endif
