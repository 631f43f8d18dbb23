/* simfit.c - the simulator's base costs fitted to a run's launches, held
 * and written as a fit file's lines (sim.h; analyze --simfit). */
#include "sim.h"
#include "orderstats.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int sim_base_add(struct sim_base *base, const struct sim_fit *fit)
{
	int i, j;

	for (i = 0; i < base->n; i++)
		if (base->fit[i].threads == fit->threads) {
			base->fit[i] = *fit;
			return 0;
		}
	if (base->n >= SIM_FITS)
		return -1;
	for (i = base->n; i > 0 && base->fit[i - 1].threads > fit->threads; i--)
		base->fit[i] = base->fit[i - 1];
	base->fit[i] = *fit;
	base->n++;
	(void)j;
	return 0;
}

void sim_base_write(FILE *f, int kind, const struct sim_base *base)
{
	int i, j;

	for (i = 0; i < base->n; i++) {
		fprintf(f, "%s\t%ld\t", sim_kind_name(kind), base->fit[i].threads);
		for (j = 0; j < SIM_QUANTILES; j++)
			fprintf(f, "%s%.4f", j ? "," : "", base->fit[i].q[j]);
		fputc('\n', f);
	}
}

double sim_fit_corr(const double *x, const double *y, size_t n)
{
	double *rx, *ry, mean, sxy = 0, sxx = 0, syy = 0, r;
	size_t i, j;

	if (n < 6)
		return NAN;
	rx = xmalloc(n * sizeof *rx);
	ry = xmalloc(n * sizeof *ry);
	/* ranks, ties at their mean rank */
	for (i = 0; i < n; i++) {
		double bx = 0, ex = 0, by = 0, ey = 0;

		for (j = 0; j < n; j++) {
			bx += x[j] < x[i];
			ex += x[j] == x[i];
			by += y[j] < y[i];
			ey += y[j] == y[i];
		}
		rx[i] = bx + (ex + 1) / 2;
		ry[i] = by + (ey + 1) / 2;
	}
	mean = ((double)n + 1) / 2;
	for (i = 0; i < n; i++) {
		sxy += (rx[i] - mean) * (ry[i] - mean);
		sxx += (rx[i] - mean) * (rx[i] - mean);
		syy += (ry[i] - mean) * (ry[i] - mean);
	}
	free(rx);
	free(ry);
	r = sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : 0;
	r = 2 * sin(3.141592653589793 * r / 6);
	return r > 0 ? (r < 0.99 ? r : 0.99) : 0;
}

int sim_fit(double *ms, size_t n, long threads, struct sim_fit *out)
{
	int j;

	if (n < 6)
		return -1;
	stats_sort(ms, n);
	out->threads = threads;
	for (j = 0; j < SIM_QUANTILES; j++)
		out->q[j] = stats_quantile(ms, n, (double)j / (SIM_QUANTILES - 1));
	if (!(out->q[0] > 0))
		return -1;
	return 0;
}
