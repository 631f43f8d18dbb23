/* drive.c - the plan launch follows (drive.h). */
#define _POSIX_C_SOURCE 200809L
#include "drive.h"
#include "cpuidle.h"
#include "stop.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

long drive_block(long per_thread, int threads, long planned)
{
	if (per_thread < 0)
		per_thread = threads == 1 ? 2 : 1;
	return per_thread == 0 || per_thread * threads >= planned ? planned : per_thread * threads;
}

double drive_idle(const struct drive *d, int p)
{
	if (!d->idle_ok || d->total[p] < CPUIDLE_MIN_TICKS)
		return -1;
	return d->idle[p] / d->total[p];
}

/* The first and repeat durations of artifacts [0, n) in ms, NAN where a
 * launch failed (caller frees both). */
static void durations(const struct drive *d, long n, double **first, double **repeat)
{
	long i;

	*first = xmalloc((size_t)(n > 0 ? n : 1) * sizeof **first);
	*repeat = xmalloc((size_t)(n > 0 ? n : 1) * sizeof **repeat);
	for (i = 0; i < n; i++) {
		const struct launch_sample *a = &d->samples[PASS_FIRST][i];
		const struct launch_sample *b = &d->samples[PASS_REPEAT][i];

		(*first)[i] = a->done && a->spawn_errno == 0 && a->exit_status == 0 && a->signal == 0
				      ? (double)a->dur_ns / 1e6 : NAN;
		(*repeat)[i] = b->done && b->spawn_errno == 0 && b->exit_status == 0 && b->signal == 0
				       ? (double)b->dur_ns / 1e6 : NAN;
	}
}

/* The looks taken once artifacts [0, b) are launched; 1 when one of them
 * stops the run.  At T > 1 a look stops only once the rounds can give the
 * serialisation verdict (stop.h); a look that cannot stop still counts in
 * the coverage. */
static int take_looks(struct drive *d, int *next, long b, long end)
{
	while (*next < d->k && b >= d->looks[*next]) {
		const char *v;
		double *first, *repeat;

		(*next)++;
		durations(d, b, &first, &repeat);
		v = stop_at_look(first, repeat, b, d->l->threads, d->block, d->blocks,
				 looks_coverage_ext(d->looks, d->k, d->kp, *next - 1), d->kp);
		free(first);
		free(repeat);
		if (v && b < end) {
			d->stopped = v;
			return 1;
		}
	}
	return 0;
}

/* At the plan's maximum: whether the interval lies across the floor, so
 * that the extension's pairs may yet decide it. */
static int straddles(const struct drive *d)
{
	double *first, *repeat;
	int across;

	durations(d, d->n, &first, &repeat);
	across = stop_straddles(first, repeat, d->n, looks_coverage_ext(d->looks, d->k, d->kp, d->kp - 1));
	free(first);
	free(repeat);
	return across;
}

const char *drive_looks(const struct drive *d, char *buf, size_t len)
{
	size_t at = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < d->k && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%ld", i == 0 ? "" : i == d->kp ? "+" : ",",
				       d->looks[i]);
	return buf;
}

/* The passes of the block [b, end), in order; 1 when a launch hung: no
 * more passes go into a wedged checker. */
static int run_block(struct drive *d, long b, long end)
{
	int i;

	for (i = 0; i < d->npass; i++) {
		int p = d->order[i];
		struct pass_time_ns t = d->l->ops->pass(d->l, d->m->art,
							 p == PASS_REFERENCE ? d->ref : NULL,
							 d->samples[p], b, end);

		d->wall[p] += t.wall_ns;
		if (t.total_ticks > 0) {
			d->idle[p] += t.idle_ticks;
			d->total[p] += t.total_ticks;
		} else {
			d->idle_ok = 0;
		}
		if (d->interrupted && *d->interrupted)
			die(128 + (int)*d->interrupted, "interrupted; no samples written");
		d->ran[p] = 1;
		if (d->l->hangs > 0)
			return 1;
	}
	return 0;
}

/* Blocks from artifact b to `to`, with the looks on the way; returns where
 * it stopped. */
static long run_to(struct drive *d, long b, long to, int *next)
{
	while (b < to) {
		long end = b + d->block < to ? b + d->block : to;

		/* a last block shorter than T would leave threads idle: it joins
		 * the block before */
		if (to - end > 0 && to - end < d->l->threads)
			end = to;
		/* artifacts are made up to the next look, between blocks: the
		 * maker runs before the block's first launches, never during */
		if (end > d->m->n) {
			long target = end;

			if (*next < d->k && d->looks[*next] > target)
				target = d->looks[*next];
			d->extend(d, target < to ? target : to);
		}
		if (run_block(d, b, end)) {
			d->stopped = "hang";
			d->blocks++;
			return end;
		}
		b = end;
		d->blocks++;
		if (d->sequential && take_looks(d, next, b, to))
			break;
	}
	return b;
}

void drive_run(struct drive *d)
{
	int next = 0, p;
	long slots = d->planned, ext[LOOKS_EXT_MAX];
	int ke = 0, i;

	d->kp = d->k = d->sequential ? looks_plan(LOOKS_FIRST, d->planned, d->looks) : 0;
	/* the extension is planned from the start (its share of the error is
	 * kept from the last planned look), and needs a maker */
	if (d->sequential && d->extend && d->extend_factor > 1)
		ke = looks_extend(d->planned, d->extend_factor, ext);
	for (i = 0; i < ke; i++)
		d->looks[d->k++] = ext[i];
	if (ke > 0)
		slots = d->looks[d->k - 1];
	for (p = 0; p < PASS_ALL; p++) {
		d->samples[p] = calloc((size_t)slots, sizeof(struct launch_sample));
		if (!d->samples[p])
			die(EXIT_FAIL, "out of memory");
	}
	d->idle_ok = 1;
	d->stopped = "maximum";
	d->n = run_to(d, 0, d->planned, &next);
	if (ke > 0 && d->n == d->planned && strcmp(d->stopped, "maximum") == 0 && straddles(d)) {
		d->extended = 1;
		d->n = run_to(d, d->n, slots, &next);
	}
}
