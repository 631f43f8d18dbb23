/* aggtable.c - aggregate's table: its columns and a row's cell (aggtable.h). */
#define _POSIX_C_SOURCE 200809L
#include "aggtable.h"
#include "cases.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static int cmp_case(const void *a, const void *b)
{
	return case_cmp(*(char *const *)a, *(char *const *)b);
}

void agg_collect_cases(struct agg_table *t)
{
	size_t i, j, k;

	for (i = 0; i < t->n_rows; i++)
		for (j = 0; j < t->rows[i].n_cells; j++) {
			const char *name = t->rows[i].cells[j].name;

			for (k = 0; k < t->n_cases; k++)
				if (strcmp(t->cases[k], name) == 0)
					break;
			if (k < t->n_cases)
				continue;
			t->cases = xrealloc(t->cases, (t->n_cases + 1) * sizeof *t->cases);
			t->cases[t->n_cases++] = xstrdup(name);
		}
	if (t->n_cases > 1)
		qsort(t->cases, t->n_cases, sizeof *t->cases, cmp_case);
}

const struct cell *agg_cell(const struct row *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->n_cells; i++)
		if (strcmp(r->cells[i].name, name) == 0)
			return &r->cells[i];
	return NULL;
}
