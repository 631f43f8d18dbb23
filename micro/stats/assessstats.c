/* assessstats.c - what the assessments before the launch cost, per tool,
 * over a case's configs (stats.h: stats_case_assessed). */
#define _POSIX_C_SOURCE 200809L
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The tool's row of cr, added in the order first met. */
static struct assessed_tool *tool_row(struct case_result *cr, const char *tool)
{
	struct assessed_tool *t;
	size_t i;

	for (i = 0; i < cr->n_assessed; i++)
		if (strcmp(cr->assessed[i].tool, tool) == 0)
			return &cr->assessed[i];
	cr->assessed = xrealloc(cr->assessed, (cr->n_assessed + 1) * sizeof *cr->assessed);
	t = &cr->assessed[cr->n_assessed++];
	memset(t, 0, sizeof *t);
	strcpy(t->tool, tool);
	return t;
}

void stats_case_assessed(struct case_result *cr)
{
	size_t i, j, k, m, n = 0;
	double *ms;

	cr->assessed = NULL;
	cr->n_assessed = 0;
	for (i = 0; i < cr->n_configs; i++)
		for (j = 0; j < cr->configs[i]->n_assess; j++) {
			const struct assess_rec *a = &cr->configs[i]->assess[j];
			struct assessed_tool *t = tool_row(cr, a->tool);

			t->steps++;
			if (a->status == 0)
				t->ok++;
			else if (a->status == -1)
				t->absent++;
			else
				t->other++;
			t->bound += a->status == ASSESS_BOUND_STATUS;
			n++;
		}
	ms = xmalloc((n ? n : 1) * sizeof *ms);
	for (k = 0; k < cr->n_assessed; k++) {
		struct assessed_tool *t = &cr->assessed[k];

		for (i = m = 0; i < cr->n_configs; i++)
			for (j = 0; j < cr->configs[i]->n_assess; j++) {
				const struct assess_rec *a = &cr->configs[i]->assess[j];

				if (a->status != -1 && strcmp(a->tool, t->tool) == 0)
					ms[m++] = a->ms;
			}
		stats_sort(ms, m);
		t->median_ms = m ? stats_median(ms, m) : NAN;
		t->max_ms = m ? ms[m - 1] : NAN;
	}
	free(ms);
}
