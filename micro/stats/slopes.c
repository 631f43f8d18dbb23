/* slopes.c - the penalty against artifact size: a least-squares slope
 * for each class and thread count measured at two sizes or more
 * (casestats.h; docs/method.md). */
#define _POSIX_C_SOURCE 200809L
#include "stats.h"
#include "casestats.h"
#include "thresholds.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* One slope over the configs c[0..n-1] (one class and thread count, in
 * ascending padding); points without an interval are left out. */
static void fit_slope(struct config *const *c, size_t n, struct size_slope *s)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, var = 0, mx, my, span;
	const double z = 1.959963984540054; /* the normal's 97.5% point */
	size_t i, k = 0;

	s->class_name = c[0]->class_name;
	s->threads = c[0]->threads;
	s->min_pad = s->max_pad = -1;
	for (i = 0; i < n; i++) {
		const struct penalty *p = &c[i]->penalty;

		if (isnan(p->median_ms) || isnan(p->ci_low_ms))
			continue;
		k++;
		sx += (double)c[i]->pad / 1048576.0;
		sy += p->median_ms;
		if (s->min_pad < 0)
			s->min_pad = c[i]->pad;
		s->max_pad = c[i]->pad;
	}
	s->n_sizes = k;
	s->ms_per_mib = s->ci_low = s->ci_high = NAN;
	s->verdict = VERDICT_INCONCLUSIVE;
	if (k < 2 || s->max_pad == s->min_pad) {
		snprintf(s->reason, sizeof s->reason,
			 "fewer than two sizes with a penalty interval");
		return;
	}
	mx = sx / (double)k;
	my = sy / (double)k;
	for (i = 0; i < n; i++) {
		const struct penalty *p = &c[i]->penalty;
		double x = (double)c[i]->pad / 1048576.0 - mx;

		if (isnan(p->median_ms) || isnan(p->ci_low_ms))
			continue;
		sxx += x * x;
		sxy += x * (p->median_ms - my);
	}
	s->ms_per_mib = sxy / sxx;
	for (i = 0; i < n; i++) {
		const struct penalty *p = &c[i]->penalty;
		double x = (double)c[i]->pad / 1048576.0 - mx;
		double se = (p->ci_high_ms - p->ci_low_ms) / (2.0 * z);

		if (isnan(p->median_ms) || isnan(p->ci_low_ms))
			continue;
		var += (x / sxx) * (x / sxx) * se * se;
	}
	s->ci_low = s->ms_per_mib - z * sqrt(var);
	s->ci_high = s->ms_per_mib + z * sqrt(var);
	span = (double)(s->max_pad - s->min_pad) / 1048576.0;
	if (s->ci_low * span > PENALTY_FLOOR_MS) {
		s->verdict = VERDICT_SLOWDOWN;
		snprintf(s->reason, sizeof s->reason,
			 "the penalty grows %.3g ms per MiB [%.3g, %.3g]: %.2f ms or more "
			 "from the smallest size to the largest",
			 s->ms_per_mib, s->ci_low, s->ci_high, s->ci_low * span);
	} else if (fabs(s->ci_low) * span < PENALTY_FLOOR_MS &&
		   fabs(s->ci_high) * span < PENALTY_FLOOR_MS) {
		s->verdict = VERDICT_NONE;
		snprintf(s->reason, sizeof s->reason,
			 "the penalty does not grow with size: %.3g ms per MiB [%.3g, %.3g], "
			 "under %.3g ms across the sizes", s->ms_per_mib, s->ci_low,
			 s->ci_high, PENALTY_FLOOR_MS);
	} else {
		snprintf(s->reason, sizeof s->reason,
			 "%.3g ms per MiB [%.3g, %.3g]: too wide to tell growth from none",
			 s->ms_per_mib, s->ci_low, s->ci_high);
	}
}

/* A slope for every class and thread count measured at two sizes or more
 * (configs are sorted by class, threads, then padding). */
void stats_slopes(struct case_result *cr)
{
	size_t i = 0, j;

	cr->slopes = NULL;
	cr->n_slopes = 0;
	while (i < cr->n_configs) {
		for (j = i + 1; j < cr->n_configs &&
		     cr->configs[j]->threads == cr->configs[i]->threads &&
		     strcmp(cr->configs[j]->class_name, cr->configs[i]->class_name) == 0; j++)
			;
		if (j - i >= 2) {
			cr->slopes = xrealloc(cr->slopes, (cr->n_slopes + 1) * sizeof *cr->slopes);
			fit_slope(&cr->configs[i], j - i, &cr->slopes[cr->n_slopes++]);
		}
		i = j;
	}
}
