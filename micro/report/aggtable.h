/* aggtable.h - the model of aggregate's table: a row a run (runrow.h: the
 * machine class, its conditions, per case the penalty with its interval,
 * the verdict and the serialisation) and the cases as columns, in the
 * guide's order.  aggregate's writers show it: its Markdown and CSV
 * (micro/prog/aggregate.c) and its SVG (report_svg.c). */
#ifndef EXECLAG_AGGTABLE_H
#define EXECLAG_AGGTABLE_H

#include <stddef.h>

#include "runrow.h"

struct agg_table {
	struct row *rows;
	size_t n_rows;
	char **cases; /* column order */
	size_t n_cases;
	size_t skipped; /* files that were not a readable run.json */
};

/* The cases of every row as the table's columns, in the guide's order. */
void agg_collect_cases(struct agg_table *t);
/* Row r's cell of the case NAME, NULL where the run did not measure it. */
const struct cell *agg_cell(const struct row *r, const char *name);

#endif
