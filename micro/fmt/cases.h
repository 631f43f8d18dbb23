/* cases.h - the order in which the kit shows its cases.
 *
 * Each case file says its place: cases/X.case's order= (docs/formats.md,
 * "Case files"); the Makefile generates case_order[] from them into
 * micro/bin/gen/cases_gen.h (scripts/tool/casegen), so a new case needs no
 * edit here.  The kit's cases are in the order the workshop guide
 * (docs/workshop.md) meets them: a script, the same script read by sh,
 * then the executables, a system binary's copy, a library, a quarantined
 * file.  Cases the kit does not know (a run made by a kit with other case
 * files) follow, by name.  analyze writes run.json's cases in this order,
 * so the terminal table, report.md, compare and feedback follow it too;
 * aggregate orders its columns the same way. */
#ifndef EXECLAG_CASES_H
#define EXECLAG_CASES_H

#include <string.h>

#include "cases_gen.h" /* case_order[]: the names, by their order= */
#define N_CASE_ORDER (sizeof case_order / sizeof case_order[0])

/* case_rank: NAME's place in case_order; N_CASE_ORDER for others. */
static inline size_t case_rank(const char *name)
{
	size_t i;

	for (i = 0; i < N_CASE_ORDER; i++)
		if (strcmp(case_order[i], name) == 0)
			return i;
	return N_CASE_ORDER;
}

/* case_cmp: the kit's order of two case names (a total order). */
static inline int case_cmp(const char *x, const char *y)
{
	size_t rx = case_rank(x), ry = case_rank(y);

	if (rx != ry)
		return rx < ry ? -1 : 1;
	return strcmp(x, y);
}

#endif
