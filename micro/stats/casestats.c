/* casestats.c - one case across its configurations (stats_case, stats.h):
 * the headline, throughput scaling against T = 1, then serialisation
 * (serial.c) and the penalty against size (slopes.c). */
#define _POSIX_C_SOURCE 200809L
#include "stats.h"
#include "casestats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_config(const void *a, const void *b)
{
	const struct config *x = *(struct config *const *)a;
	const struct config *y = *(struct config *const *)b;
	int by_class = strcmp(x->class_name, y->class_name);

	if (by_class != 0)
		return by_class;
	if (x->threads != y->threads)
		return (x->threads > y->threads) - (x->threads < y->threads);
	return (x->pad > y->pad) - (x->pad < y->pad);
}

/* The config of the case's base size at this class and thread count. */
struct config *stats_find_config(const struct case_result *cr, const char *class_name,
				 long threads)
{
	size_t i;

	for (i = 0; i < cr->n_configs; i++)
		if (cr->configs[i]->threads == threads &&
		    cr->configs[i]->pad == cr->base_pad &&
		    strcmp(cr->configs[i]->class_name, class_name) == 0)
			return cr->configs[i];
	return NULL;
}

static double relative(double value, double base)
{
	if (isnan(value) || isnan(base) || base <= 0.0)
		return NAN;
	return value / base;
}

/* One row per config of every class that has a T = 1 baseline. */
static void build_scaling(struct case_result *cr)
{
	size_t i;

	cr->scaling = xmalloc(cr->n_configs * sizeof *cr->scaling);
	cr->n_scaling = 0;
	for (i = 0; i < cr->n_configs; i++) {
		const struct config *c = cr->configs[i];
		const struct config *base = stats_find_config(cr, c->class_name, 1);
		struct scaling_row *row;

		if (!base || c->pad != cr->base_pad)
			continue;
		row = &cr->scaling[cr->n_scaling++];
		row->class_name = c->class_name;
		row->threads = c->threads;
		row->first = relative(c->passes[PASS_FIRST].launches_per_s,
				      base->passes[PASS_FIRST].launches_per_s);
		row->repeat = relative(c->passes[PASS_REPEAT].launches_per_s,
				       base->passes[PASS_REPEAT].launches_per_s);
	}
}

void stats_case(struct case_result *cr)
{
	size_t i;

	qsort(cr->configs, cr->n_configs, sizeof *cr->configs, cmp_config);
	cr->base_pad = cr->configs[0]->pad;
	for (i = 1; i < cr->n_configs; i++)
		if (cr->configs[i]->pad < cr->base_pad)
			cr->base_pad = cr->configs[i]->pad;
	cr->headline = stats_find_config(cr, "all", 1);
	if (!cr->headline) { /* lowest T of the first class, at the base size */
		for (i = 0; i < cr->n_configs && cr->configs[i]->pad != cr->base_pad; i++)
			;
		cr->headline = cr->configs[i];
	}
	/* a configuration that hung is the case's finding, whatever the others say */
	for (i = 0; i < cr->n_configs && cr->headline->verdict != VERDICT_HANG; i++)
		if (cr->configs[i]->verdict == VERDICT_HANG)
			cr->headline = cr->configs[i];
	build_scaling(cr);
	stats_serialisation(cr);
	stats_slopes(cr);
}

int stats_case_kills(const struct case_result *cr, size_t *killed, size_t *of)
{
	size_t i;
	int kept = 0;

	*killed = *of = 0;
	for (i = 0; i < cr->n_configs; i++)
		if (cr->configs[i]->kills_kept) {
			kept = 1;
			*killed += cr->configs[i]->killed;
			*of += cr->configs[i]->killed_of;
		}
	return kept;
}
