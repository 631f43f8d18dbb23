/* measurestats.c - the measure's arithmetic (measurestats.h). */
#include "measurestats.h"

#include <math.h>
#include <string.h>

long long measure_reprobe_pad(long known, unsigned long long median, long long probe_bytes,
			      int *capped)
{
	long long pad;

	*capped = 0;
	if (known <= 0 || probe_bytes <= 0 || median <= (unsigned long long)probe_bytes * MEASURE_SIZE_RATIO)
		return -1;
	pad = (long long)median - probe_bytes;
	if (pad > MEASURE_MAX_PAD_BYTES) {
		pad = MEASURE_MAX_PAD_BYTES;
		*capped = 1;
	}
	return pad;
}

void measure_choose_l(struct measure *m)
{
	const struct measure_penalty *z = &m->at_size.l, *l = &m->probe.l;
	struct measure_used *u = &m->used;

	u->at_size = z->verdict == M_SLOWDOWN || z->verdict == M_NONE;
	if (u->at_size) {
		u->verdict = z->verdict;
		u->l = z->median, u->low = z->low, u->high = z->high;
	} else {
		u->verdict = l->verdict;
		u->l = l->median, u->low = l->low, u->high = l->high;
	}
}

static double cap1(double x)
{
	return x > 1.0 ? 1.0 : x < 0 ? 0 : x;
}

/* B: N x L / k, where k is the checks at once (1 where undetermined: then
 * B is an upper bound), at N's high end and low end, with its interval. */
static void busy(const struct measure *m, struct measure_answer *a)
{
	const struct measure_used *u = &m->used;
	long n = m->n.n, lo_n = m->n.n_low >= 0 && m->n.n_low <= n ? m->n.n_low : n;
	double k;

	a->have_b = 1;
	if (n == 0) {
		/* nothing new was launched: nothing to check, whatever L is */
		a->k = u->verdict != M_UNKNOWN && m->probe.queue == M_SERIALISED ? 1 : 0;
		return;
	}
	a->k = m->probe.queue == M_SERIALISED ? 1 : m->probe.queue == M_PARALLEL ? 2 : 0;
	k = a->k ? a->k : 1;
	a->at_most = a->k != 1;
	a->range = lo_n < n;
	a->b = (double)n * u->l / 1000.0 / k;
	a->b_r = (double)lo_n * u->l / 1000.0 / k;
	a->b_lo = (double)lo_n * (u->low > 0 ? u->low : 0) / 1000.0 / k;
	a->b_hi = (double)n * u->high / 1000.0 / k;
}

/* The remedy: B again with the best safe placement's first-launch cost for
 * L, where B was computed for new programs and a remedies run names one */
static void remedy(struct measure *m)
{
	const struct measure_answer *a = &m->answer;
	struct measure_remedy *r = &m->remedy;
	long n = m->n.n, lo_n = m->n.n_low >= 0 && m->n.n_low <= n ? m->n.n_low : n;
	double k = a->k ? a->k : 1;

	r->have_b = 0;
	if (!a->have_b || n <= 0 || !r->placement || isnan(r->cost))
		return;
	r->have_b = 1;
	r->b = (double)n * (r->cost > 0 ? r->cost : 0) / 1000.0 / k;
	r->b_lo = (double)lo_n * (r->low > 0 ? r->low : 0) / 1000.0 / k;
	r->b_hi = (double)n * (r->high > 0 ? r->high : 0) / 1000.0 / k;
}

void measure_compute(struct measure *m)
{
	struct measure_answer *a = &m->answer;
	double w = m->cmd.wall_s;

	memset(a, 0, sizeof *a);
	if (m->n.n < 0)
		return;
	if (m->n.n > 0 && m->used.verdict != M_SLOWDOWN)
		return;
	busy(m, a);
	if (w > 0) {
		a->have_share = 1;
		a->sh = cap1(a->b / w);
		a->sh_r = cap1(a->b_r / w);
		a->sh_lo = cap1(a->b_lo / w);
		a->sh_hi = cap1(a->b_hi / w);
		a->capped = a->b >= w && a->b > 0;
		/* a bottleneck only where even N's low end makes it one */
		a->bottleneck = a->capped && !a->at_most && (!a->range || a->b_r >= w);
	}
	/* Without the checks the command can have been faster by at most the
	 * time the checker was busy (it waited only while a check ran): no
	 * less than W - B.  It follows only where B is the busy time itself
	 * (one check at a time), not a bound, and is below W; with N a range,
	 * B is its high end, so W - B is still a floor. */
	if (a->have_share && !a->at_most && a->b < w) {
		a->have_proj = 1;
		a->pj = w - a->b;
		a->pj_lo = w - a->b_hi > 0 ? w - a->b_hi : 0;
		a->pj_hi = w - a->b_lo;
	}
	remedy(m);
}
