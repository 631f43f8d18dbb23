/* serial.c - whether a case's checks queue or run in parallel, from its
 * rounds of T launches, else its penalty and throughput at the largest T
 * (casestats.h; docs/method.md). */
#define _POSIX_C_SOURCE 200809L
#include "stats.h"
#include "casestats.h"
#include "thresholds.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct scaling_row *find_scaling(const struct case_result *cr,
					      const char *class_name, long threads)
{
	size_t i;

	for (i = 0; i < cr->n_scaling; i++)
		if (cr->scaling[i].threads == threads &&
		    strcmp(cr->scaling[i].class_name, class_name) == 0)
			return &cr->scaling[i];
	return NULL;
}

/* Serialisation from the rounds (stats_config): T launches start together,
 * so T checks arrive together.  Checks in parallel add one check's cost L
 * (the penalty at T = 1) to the round's longest launch; one checker makes
 * the last of them wait for the T - 1 before it, T x L, whatever the rest
 * of a launch costs.  The rounds' median must lie at least
 * QUEUE_GROWTH_MIN of the way from L to T x L, its interval above L, for a
 * queue; less of the way, its whole interval too, and a first pass that
 * scales (under load a late thread's check waits less or not at all, and a
 * queue's rounds spread down to L: the throughput of the pass, which a
 * queue holds down, is asked too), for parallel checks. */
static void classify_rounds(struct case_result *cr, const struct scaling_row *row,
			    long max_threads, double l_ms, double l_lo, double c_ms,
			    const struct penalty *rd, const struct penalty *sp)
{
	/* parallel must hold for every L the T = 1 interval allows: the
	 * rounds' interval short of the half-way mark of its low end too (an
	 * L measured high, from few pairs, makes a queue look like one check) */
	double mid_lo = !isnan(l_lo) && l_lo > 0 && l_lo < l_ms ?
		l_lo + QUEUE_GROWTH_MIN * (double)(max_threads - 1) * l_lo : NAN;
	double queue_ms = (double)max_threads * l_ms;
	double way = (rd->median_ms - l_ms) / (queue_ms - l_ms);
	double mid_ms = l_ms + QUEUE_GROWTH_MIN * (queue_ms - l_ms);
	/* the spread's half-way mark: a queue spreads the first launches
	 * (T - 1) x L, parallel checks by nothing */
	double sp_mid = QUEUE_GROWTH_MIN * (double)(max_threads - 1) * l_ms;
	/* the least a queue's rounds may show where T launches at once slow
	 * each other by c (below) */
	double c = isnan(c_ms) || c_ms < 0 ? 0 : c_ms;
	double q_c = fmax(queue_ms - c, l_ms);

	/* parallel needs the whole interval short of the half-way mark: under
	 * load a thread can start a round late, its check then waits less or
	 * not at all, and a queue's rounds spread from T x L down to L */
	if (sp && !isnan(sp->ci_low_ms) && sp->ci_low_ms > sp_mid && rd->ci_low_ms > l_ms &&
	    way < QUEUE_GROWTH_MIN) {
		/* the CPUs' contention in the repeat pass (which a queue's
		 * staggered first launches have less of) pulls the rounds'
		 * excess down; the spread, which it does not, says queue, and
		 * the excess is above one check's cost */
		cr->serialisation = SERIAL_SERIALISED;
		snprintf(cr->serial_reason, sizeof cr->serial_reason,
			 "the first launches of a round of T=%ld were spread %.2f ms [%.2f, %.2f] "
			 "beyond the repeats, as a queue's %.2f, and the rounds took %.2f ms "
			 "[%.2f, %.2f] longer first, above one check's %.2f: launches queue",
			 max_threads, sp->median_ms, sp->ci_low_ms, sp->ci_high_ms,
			 (double)(max_threads - 1) * l_ms, rd->median_ms, rd->ci_low_ms,
			 rd->ci_high_ms, l_ms);
	} else if (way >= QUEUE_GROWTH_MIN ? rd->ci_low_ms <= l_ms : rd->ci_high_ms >= mid_ms) {
		cr->serialisation = SERIAL_UNDETERMINED;
		snprintf(cr->serial_reason, sizeof cr->serial_reason,
			 "a round of T=%ld launches took %.2f ms [%.2f, %.2f] longer first, too "
			 "close to one check's %.2f and a queue's %.2f to tell at this noise "
			 "(first pass x%.2f)",
			 max_threads, rd->median_ms, rd->ci_low_ms, rd->ci_high_ms, l_ms,
			 queue_ms, row->first);
	} else if (sp && !isnan(sp->median_ms) &&
		   (way >= QUEUE_GROWTH_MIN ? sp->median_ms < sp_mid : sp->ci_high_ms >= sp_mid)) {
		/* the rounds' first launches must be spread as the answer says:
		 * (T - 1) x L apart for a queue, not at all for parallel checks */
		cr->serialisation = SERIAL_UNDETERMINED;
		snprintf(cr->serial_reason, sizeof cr->serial_reason,
			 "rounds %.2f ms [%.2f, %.2f] longer first, as %s, but first launches "
			 "spread %.2f ms [%.2f, %.2f] beyond the repeats (queue %.2f, "
			 "parallel 0): too noisy to tell",
			 rd->median_ms, rd->ci_low_ms, rd->ci_high_ms,
			 way >= QUEUE_GROWTH_MIN ? "if queued" : "if parallel",
			 sp->median_ms, sp->ci_low_ms, sp->ci_high_ms,
			 (double)(max_threads - 1) * l_ms);
	} else if (way >= QUEUE_GROWTH_MIN) {
		cr->serialisation = SERIAL_SERIALISED;
		snprintf(cr->serial_reason, sizeof cr->serial_reason,
			 "a round of T=%ld launches took %.2f ms [%.2f, %.2f] longer first, nearer "
			 "a queue's %.2f than one check's %.2f: launches queue (first pass x%.2f, "
			 "repeat x%.2f)",
			 max_threads, rd->median_ms, rd->ci_low_ms, rd->ci_high_ms, queue_ms,
			 l_ms, row->first, row->repeat);
	} else if (c > 0 &&
		   (q_c - l_ms < QUEUE_GROWTH_MIN * l_ms ||
		    rd->ci_high_ms >= l_ms + QUEUE_GROWTH_MIN * (q_c - l_ms))) {
		/* T launches at once slow each other (the repeats at T against
		 * those at T = 1); a queue's staggered first launches escape
		 * that, so its rounds may show as little as T x L - c: where
		 * that is hardly more than one check, a round of one check's
		 * length is no answer (the calibration gate with one worker at
		 * 2 ms: the second check waited 2 ms each round, the rounds
		 * showed one check's, docs/method.md) */
		cr->serialisation = SERIAL_UNDETERMINED;
		snprintf(cr->serial_reason, sizeof cr->serial_reason,
			 "rounds %.2f ms [%.2f, %.2f] longer first, near one check's %.2f, but "
			 "launches at T=%ld were %.2f ms slower than alone, which a queue's "
			 "staggered first launches escape (its rounds: %.2f): too close to tell",
			 rd->median_ms, rd->ci_low_ms, rd->ci_high_ms, l_ms, max_threads, c_ms, q_c);
	} else if (fabs(rd->median_ms - l_ms) > 0.25 * l_ms) {
		/* parallel checks leave a round at about one check: a round far
		 * from it says the T = 1 measure of a check and the rounds
		 * disagree, which is noise, not an answer */
		cr->serialisation = SERIAL_UNDETERMINED;
		snprintf(cr->serial_reason, sizeof cr->serial_reason,
			 "a round of T=%ld launches took %.2f ms [%.2f, %.2f] longer first, short of "
			 "a queue's %.2f but %.0f%% off one check's %.2f: too noisy to tell",
			 max_threads, rd->median_ms, rd->ci_low_ms, rd->ci_high_ms, queue_ms,
			 100.0 * fabs(rd->median_ms - l_ms) / l_ms, l_ms);
	} else if (!isnan(mid_lo) && rd->ci_high_ms >= mid_lo) {
		cr->serialisation = SERIAL_UNDETERMINED;
		snprintf(cr->serial_reason, sizeof cr->serial_reason,
			 "a round of T=%ld launches took %.2f ms [%.2f, %.2f] longer first, near one "
			 "check's %.2f, but one check may cost as little as %.2f, whose queue "
			 "the rounds reach: too noisy to tell",
			 max_threads, rd->median_ms, rd->ci_low_ms, rd->ci_high_ms, l_ms, l_lo);
	} else if (!(row->first > SERIAL_SCALING_MAX)) {
		cr->serialisation = SERIAL_UNDETERMINED;
		snprintf(cr->serial_reason, sizeof cr->serial_reason,
			 "a round of T=%ld launches took %.2f ms [%.2f, %.2f] longer first, near one "
			 "check's %.2f, but the first pass did not scale (x%.2f): a thread that "
			 "starts its round late hides a queue",
			 max_threads, rd->median_ms, rd->ci_low_ms, rd->ci_high_ms, l_ms, row->first);
	} else {
		cr->serialisation = SERIAL_PARALLEL;
		snprintf(cr->serial_reason, sizeof cr->serial_reason,
			 "a round of T=%ld launches took %.2f ms [%.2f, %.2f] longer first, nearer "
			 "one check's %.2f than a queue's %.2f: checks run in parallel (first pass "
			 "x%.2f, repeat x%.2f)",
			 max_threads, rd->median_ms, rd->ci_low_ms, rd->ci_high_ms, l_ms,
			 queue_ms, row->first, row->repeat);
	}
}

/* Serialisation at the largest T.  The penalty at T is asked first.  With
 * one check costing L (the penalty at T = 1) and the rest of a launch u (the
 * repeat median at T), checks in parallel leave the penalty at L, while T
 * launches queueing on one checker each take T x L: a penalty of T x L - u
 * (at least L).  Where the measured penalty lies at least QUEUE_GROWTH_MIN
 * of the way from L to T x L - u, launches queue, whatever the first pass's
 * throughput does (at small costs the unchecked part of each launch runs in
 * parallel and lifts it).  Below that, a first pass that scales means
 * parallel checks.  Where the two predictions lie within half of L of
 * each other (a check hardly longer than the rest of a launch: little queue
 * can form) noise decides: undetermined; throughput decides only where a
 * time is missing.  A first
 * pass with no idle core says nothing: undetermined. */
static void classify_scaling(struct case_result *cr, const struct scaling_row *row,
			     long max_threads, double l_ms, const struct penalty *pt,
			     double u_ms, double idle_cores, const struct penalty *rd,
			     const struct penalty *sp, double l_lo, double c_ms)
{
	double p_ms = pt ? pt->median_ms : NAN;
	double lo = pt ? pt->ci_low_ms : NAN, hi = pt ? pt->ci_high_ms : NAN;
	double queue_ms = (double)max_threads * l_ms - u_ms;
	double growth = l_ms > 0 ? p_ms / l_ms : NAN;
	double way = NAN;

	if (queue_ms < l_ms)
		queue_ms = l_ms;
	if (!isnan(l_ms) && !isnan(p_ms) && !isnan(u_ms) && l_ms > 0 && queue_ms - l_ms >= 0.5 * l_ms)
		way = (p_ms - l_ms) / (queue_ms - l_ms);

	if (!isnan(idle_cores) && idle_cores < 0.5) {
		cr->serialisation = SERIAL_UNDETERMINED;
		snprintf(cr->serial_reason, sizeof cr->serial_reason,
			 "the CPU was saturated: %.2f cores idle during the first pass at T=%ld "
			 "(first pass x%.2f, penalty grew x%.2f)",
			 idle_cores, max_threads, row->first, growth);
	} else if (rd && !isnan(rd->ci_low_ms) && !isnan(l_ms) && l_ms > 0) {
		classify_rounds(cr, row, max_threads, l_ms, l_lo, c_ms, rd, sp);
	} else if (!isnan(way) && (isnan(lo) || isnan(hi) ||
				   (way >= QUEUE_GROWTH_MIN ? lo <= l_ms :
				    hi >= queue_ms || row->first <= SERIAL_SCALING_MAX))) {
		/* a definite answer needs the interval on its side: a queue's
		 * penalty grew beyond one check's cost, a parallel one stayed
		 * short of a queue's, with a first pass that scales */
		cr->serialisation = SERIAL_UNDETERMINED;
		snprintf(cr->serial_reason, sizeof cr->serial_reason,
			 "the penalty at T=%ld, %.2f ms [%.2f, %.2f], is too close to one check's "
			 "%.2f and a queue's %.2f to tell at this noise (first pass x%.2f)",
			 max_threads, p_ms, lo, hi, l_ms, queue_ms, row->first);
	} else if (!isnan(way) && way >= QUEUE_GROWTH_MIN) {
		cr->serialisation = SERIAL_SERIALISED;
		snprintf(cr->serial_reason, sizeof cr->serial_reason,
			 "the penalty at T=%ld is %.2f ms, nearer a queue's %.2f than one check's "
			 "%.2f: launches queue (first pass x%.2f, repeat x%.2f)",
			 max_threads, p_ms, queue_ms, l_ms, row->first, row->repeat);
	} else if (!isnan(way) && row->first > SERIAL_SCALING_MAX) {
		cr->serialisation = SERIAL_PARALLEL;
		snprintf(cr->serial_reason, sizeof cr->serial_reason,
			 "the penalty at T=%ld is %.2f ms, nearer one check's %.2f than a queue's "
			 "%.2f, and the first pass scales x%.2f (repeat x%.2f)",
			 max_threads, p_ms, l_ms, queue_ms, row->first, row->repeat);
	} else if (isnan(way) && !isnan(l_ms) && !isnan(p_ms) && !isnan(u_ms) && l_ms > 0) {
		cr->serialisation = SERIAL_UNDETERMINED;
		snprintf(cr->serial_reason, sizeof cr->serial_reason,
			 "a check of %.2f ms beside %.2f ms for the rest of a launch forms too short "
			 "a queue at T=%ld to tell queued from parallel checks",
			 l_ms, u_ms, max_threads);
	} else if (isnan(way) && row->first <= SERIAL_SCALING_MAX && row->repeat > SERIAL_SCALING_MAX) {
		cr->serialisation = SERIAL_SERIALISED;
		snprintf(cr->serial_reason, sizeof cr->serial_reason,
			 "first pass x%.2f at T=%ld while repeat x%.2f",
			 row->first, max_threads, row->repeat);
	} else if (isnan(way) && row->first > SERIAL_SCALING_MAX) {
		cr->serialisation = SERIAL_PARALLEL;
		snprintf(cr->serial_reason, sizeof cr->serial_reason,
			 "first pass x%.2f at T=%ld scales (repeat x%.2f)",
			 row->first, max_threads, row->repeat);
	} else {
		cr->serialisation = SERIAL_UNDETERMINED;
		snprintf(cr->serial_reason, sizeof cr->serial_reason,
			 "first pass x%.2f at T=%ld, repeat x%.2f, penalty grew x%.2f: "
			 "neither a queue nor parallel checks",
			 row->first, max_threads, row->repeat, growth);
	}
}

/* The signature of a single-threaded assessment service: the first pass
 * does not get faster with more threads while the repeat pass does. */
void stats_serialisation(struct case_result *cr)
{
	const struct config *head = cr->headline, *top, *base;
	const struct scaling_row *row;
	double idle_cores;
	long max_threads = 1;
	size_t i;

	if (head->verdict != VERDICT_SLOWDOWN) {
		cr->serialisation = SERIAL_NA;
		snprintf(cr->serial_reason, sizeof cr->serial_reason,
			 "no first-launch penalty");
		return;
	}
	for (i = 0; i < cr->n_configs; i++)
		if (strcmp(cr->configs[i]->class_name, head->class_name) == 0 &&
		    cr->configs[i]->pad == cr->base_pad &&
		    cr->configs[i]->threads > max_threads)
			max_threads = cr->configs[i]->threads;
	if (max_threads <= 1) {
		cr->serialisation = SERIAL_NA;
		snprintf(cr->serial_reason, sizeof cr->serial_reason,
			 "only one thread count measured");
		return;
	}
	row = find_scaling(cr, head->class_name, max_threads);
	if (!row || isnan(row->first) || isnan(row->repeat)) {
		cr->serialisation = SERIAL_UNDETERMINED;
		snprintf(cr->serial_reason, sizeof cr->serial_reason,
			 "no T=1 throughput of class %s to compare T=%ld with",
			 head->class_name, max_threads);
		return;
	}
	top = stats_find_config(cr, head->class_name, max_threads);
	base = stats_find_config(cr, head->class_name, 1);
	idle_cores = top && top->cpus > 0 && !isnan(top->passes[PASS_FIRST].idle)
			     ? top->passes[PASS_FIRST].idle * (double)top->cpus : NAN;
	classify_scaling(cr, row, max_threads, base ? base->penalty.median_ms : NAN,
			 top ? &top->penalty : NULL,
			 top ? top->pass[PASS_REPEAT].median_ms : NAN, idle_cores,
			 top && top->rounds > 0 ? &top->round : NULL,
			 top && top->rounds > 0 ? &top->spread : NULL,
			 base ? base->penalty.ci_low_ms : NAN,
			 top && base ? top->pass[PASS_REPEAT].median_ms -
					       base->pass[PASS_REPEAT].median_ms : NAN);
}
