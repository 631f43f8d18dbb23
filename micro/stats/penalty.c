/* penalty.c - one configuration (stats_config, stats.h): the passes'
 * medians, the paired penalty and its interval, the rounds of T > 1, the
 * cost against the reference, and the verdicts.
 *
 * The method is written up in docs/method.md; the numbers it depends on are
 * in thresholds.h. */
#define _POSIX_C_SOURCE 200809L
#include "stats.h"
#include "looks.h"
#include "looksmeta.h"
#include "stop.h"
#include "thresholds.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int stats_sample_ok(const struct sample *s)
{
	return s->exit_status == 0 && s->signal == 0 && s->spawn_errno == 0;
}

static void summarise_pass(const struct config *c, enum pass p,
			   struct pass_stats *out, size_t *failures)
{
	double *ok_ms = xmalloc(c->n_samples * sizeof *ok_ms);
	size_t i, n_ok = 0, failed = 0;

	for (i = 0; i < c->n_samples; i++) {
		const struct sample *s = &c->samples[i];

		if (s->pass != p)
			continue;
		if (stats_sample_ok(s))
			ok_ms[n_ok++] = s->dur_ms;
		else if (!s->killed) /* a kill is a finding, not a failure */
			failed++;
	}
	stats_sort(ok_ms, n_ok);
	out->n_ok = n_ok;
	out->median_ms = stats_median(ok_ms, n_ok);
	out->p90_ms = stats_quantile(ok_ms, n_ok, 0.9);
	out->median_halfwidth_ms = stats_median_halfwidth(ok_ms, n_ok, MEDIAN_NOISE_COVERAGE);
	*failures = failed;
	free(ok_ms);
}

/* Each index's successful launch in pass p (NAN where it failed or is
 * missing), over max(n, 1) slots (caller frees): its duration, or with
 * start when it started (launch's 9th field; NAN in older files). */
static double *by_index(const struct config *c, enum pass p, int start)
{
	size_t slots = c->n > 0 ? (size_t)c->n : 1, i;
	double *v = xmalloc(slots * sizeof *v);

	for (i = 0; i < slots; i++)
		v[i] = NAN;
	for (i = 0; i < c->n_samples; i++) {
		const struct sample *s = &c->samples[i];

		if (s->pass == p && stats_sample_ok(s) && s->index >= 0 &&
		    (size_t)s->index < slots)
			v[s->index] = start ? s->start_ms : s->dur_ms;
	}
	return v;
}

/* d_i = a_i - b_i for every index whose launches in passes a and b both
 * succeeded; returns how many, ascending in *diffs (caller frees). */
static size_t differences(const struct config *c, enum pass a, enum pass b, double **diffs)
{
	size_t slots = c->n > 0 ? (size_t)c->n : 1, i, n = 0;
	double *x = by_index(c, a, 0), *y = by_index(c, b, 0);
	double *d = xmalloc(slots * sizeof *d);

	for (i = 0; i < slots; i++)
		if (!isnan(x[i]) && !isnan(y[i]))
			d[n++] = x[i] - y[i];
	free(x);
	free(y);
	stats_sort(d, n);
	*diffs = d;
	return n;
}

/* The first round of every block, as launch takes them (micro/prog/launch.c):
 * blocks of c->block artifacts, a last one shorter than T joined to the one
 * before; thread t launches the block's artifact lo + t first, all T
 * together off the barrier.  Checks that queue show there: the round's
 * longest first launch waited for the T - 1 checks ahead of it.  Two values
 * per block whose 2 x T launches all succeeded, each ascending in its
 * array (caller frees both):
 *   excess: the longest first launch minus the longest repeat;
 *   spread: the spread of the first launches (longest - shortest) minus the
 *     spread of the repeats.  A queue spreads a round's first launches
 *     (T - 1) x L apart, parallel checks not at all, and what both passes
 *     share - the launches' contention for the CPUs, which the repeat pass
 *     has and a queue's staggered first launches have less of - cancels.
 * A round whose threads started further apart than max_skew is left out
 * and counted in *skewed. */
static size_t round_differences(const struct config *c, double max_skew, size_t *skewed,
				double **excess, double **spread)
{
	double *dur[PASS_COUNT], *start;
	size_t n_rounds = 0;
	long t = c->threads, b, end, k;
	int p;

	*excess = *spread = NULL;
	*skewed = 0;
	if (t < 2 || c->block < t || c->n < t)
		return 0;
	for (p = 0; p < PASS_COUNT; p++)
		dur[p] = by_index(c, (enum pass)p, 0);
	start = by_index(c, PASS_FIRST, 1);
	*excess = xmalloc((size_t)c->n * sizeof **excess);
	*spread = xmalloc((size_t)c->n * sizeof **spread);
	for (b = 0; b < c->n; b = end) {
		double longest[PASS_COUNT] = { -1, -1 };
		double shortest[PASS_COUNT] = { INFINITY, INFINITY };
		double first = INFINITY, last = -INFINITY;
		int whole = 1;

		end = b + c->block < c->n ? b + c->block : c->n;
		if (c->n - end > 0 && c->n - end < t)
			end = c->n;
		if (end - b < t)
			continue;
		for (k = b; k < b + t; k++) {
			for (p = 0; p < PASS_COUNT; p++) {
				double v = dur[p][k];

				if (isnan(v)) {
					whole = 0;
					continue;
				}
				longest[p] = v > longest[p] ? v : longest[p];
				shortest[p] = v < shortest[p] ? v : shortest[p];
			}
			if (!isnan(start[k])) {
				first = start[k] < first ? start[k] : first;
				last = start[k] > last ? start[k] : last;
			}
		}
		if (!whole)
			continue;
		/* a round whose threads started apart is no round: a late
		 * thread's check waits less or not at all */
		if (last > first && last - first > max_skew) {
			(*skewed)++;
			continue;
		}
		(*excess)[n_rounds] = longest[PASS_FIRST] - longest[PASS_REPEAT];
		(*spread)[n_rounds++] = (longest[PASS_FIRST] - shortest[PASS_FIRST]) -
					(longest[PASS_REPEAT] - shortest[PASS_REPEAT]);
	}
	for (p = 0; p < PASS_COUNT; p++)
		free(dur[p]);
	free(start);
	stats_sort(*excess, n_rounds);
	stats_sort(*spread, n_rounds);
	return n_rounds;
}

/* The median of n ascending values and its interval at confidence (NAN
 * where there are too few); frees d. */
static void summarise(double *d, size_t n, double confidence, struct penalty *out)
{
	out->median_ms = stats_median(d, n);
	if (stats_median_ci(d, n, confidence, &out->ci_low_ms, &out->ci_high_ms,
			    &out->coverage) != 0)
		out->ci_low_ms = out->ci_high_ms = out->coverage = NAN;
	free(d);
}

const char *stats_floor_words(double unloaded, char *buf, size_t len)
{
	double floor_ms = stop_floor(unloaded);

	if (floor_ms > PENALTY_FLOOR_MS)
		snprintf(buf, len, "the %.2f ms floor (%g x an unloaded launch of %.2f ms)",
			 floor_ms, FLOOR_SHARE, unloaded);
	else
		snprintf(buf, len, "the %g ms floor", PENALTY_FLOOR_MS);
	return buf;
}

/* The verdict (stop_verdict, the rule launch stops by) on a penalty or
 * cost over `pairs` pairs against an unloaded launch of `unloaded` ms (0
 * where the launches give none), and its reason, which names the floor
 * it was held to: 1 ms, or FLOOR_SHARE of the unloaded launch. */
static enum verdict judge(const struct penalty *pen, size_t pairs, double unloaded,
			  double confidence, char *reason, size_t len)
{
	const char *v;
	char floor_says[96];

	if (pairs < MIN_PAIRS || isnan(pen->ci_low_ms)) {
		snprintf(reason, len, "too few successful pairs (%zu) for a %.4g%% interval", pairs,
			 confidence * 100.0);
		return VERDICT_INCONCLUSIVE;
	}
	stats_floor_words(unloaded, floor_says, sizeof floor_says);
	v = stop_verdict(pen->ci_low_ms, pen->ci_high_ms, unloaded);
	if (v && v[0] == 's') {
		snprintf(reason, len, "interval [%.2f, %.2f] ms above %s", pen->ci_low_ms,
			 pen->ci_high_ms, floor_says);
		return VERDICT_SLOWDOWN;
	}
	if (v) {
		snprintf(reason, len, "interval [%.2f, %.2f] ms below %s", pen->ci_low_ms,
			 pen->ci_high_ms, floor_says);
		return VERDICT_NONE;
	}
	snprintf(reason, len, "interval [%.2f, %.2f] ms includes %s", pen->ci_low_ms,
		 pen->ci_high_ms, floor_says);
	return VERDICT_INCONCLUSIVE;
}

/* The cost of every launch in the work folder: repeat against reference,
 * by the penalty's rule. */
static void decide_reference(struct config *c)
{
	c->ref_verdict = judge(&c->ref_cost, c->ref_pairs, c->ref_unloaded_ms, CONFIDENCE,
			       c->ref_reason, sizeof c->ref_reason);
}

/* The penalty's confidence: CONFIDENCE, or for a sequential run the
 * coverage of the look it ended at (looks_coverage), so that the chance
 * that any look's interval misses stays within 1 - CONFIDENCE (docs/method.md). */
double stats_confidence(const struct config *c)
{
	return c->looks > 0 ? looks_coverage_at(c->looks_at, c->n, NULL) : CONFIDENCE;
}

/* hang: some launch passed its bound ("1 of 3 first launches did not end
 * within 30 s"); it stands beside the penalty's verdicts, never mixed
 * with them.  Returns 1 when it is the verdict. */
static int decide_hang(struct config *c)
{
	size_t len = 0;
	int p;

	if (c->n_hangs == 0)
		return 0;
	c->verdict = VERDICT_HANG;
	c->reason[0] = '\0';
	for (p = 0; p < PASS_ALL; p++) {
		if (!c->hung[p])
			continue;
		len += (size_t)snprintf(c->reason + len, len < sizeof c->reason ? sizeof c->reason - len : 0,
				       "%s%zu of %zu %s launch%s did not end within %g s", len ? "; " : "",
				       c->hung[p], c->made[p], stats_pass_name((enum pass)p),
				       c->made[p] == 1 ? "" : "es",
				       isnan(c->hang_s) ? 0.0 : c->hang_s);
		if (len >= sizeof c->reason)
			break;
	}
	return 1;
}

static void decide(struct config *c)
{
	if (decide_hang(c))
		return;
	c->verdict = judge(&c->penalty, c->pairs, c->unloaded_ms, stats_confidence(c),
			   c->reason, sizeof c->reason);
}

/* An unloaded launch of pass p: the lower quartile of its successful
 * launches (stop_unloaded), 0 where there is none. */
static double unloaded(const struct config *c, enum pass p)
{
	double *v = xmalloc((c->n_samples ? c->n_samples : 1) * sizeof *v), q;
	size_t i, n = 0;

	for (i = 0; i < c->n_samples; i++)
		if (c->samples[i].pass == p && stats_sample_ok(&c->samples[i]))
			v[n++] = c->samples[i].dur_ms;
	stats_sort(v, n);
	q = stop_unloaded(v, n);
	free(v);
	return isnan(q) ? 0 : q;
}

/* Each pass's medians and failures; the launches made and hung per pass. */
static void summarise_passes(struct config *c)
{
	int p;

	for (p = 0; p < PASS_ALL; p++)
		summarise_pass(c, (enum pass)p, &c->pass[p], &c->failures[p]);
	for (p = 0; p < PASS_ALL; p++)
		c->hung[p] = c->made[p] = 0;
	for (size_t i = 0; i < c->n_samples; i++) {
		c->made[c->samples[i].pass]++;
		c->hung[c->samples[i].pass] += c->samples[i].hang != 0;
	}
	/* the first launches the system killed, of those made */
	c->killed = 0;
	c->killed_of = c->made[PASS_FIRST];
	for (size_t i = 0; i < c->n_samples; i++)
		c->killed += c->samples[i].pass == PASS_FIRST && c->samples[i].killed;
}

/* The penalty: first - repeat, paired by index, its median and interval;
 * then, at T > 1, the rounds' excess and spread. */
static void pair_penalty(struct config *c)
{
	struct penalty *pen = &c->penalty;
	double *d, *sp, max_skew;

	c->pairs = differences(c, PASS_FIRST, PASS_REPEAT, &d);
	summarise(d, c->pairs, stats_confidence(c), pen);

	/* threads that started a round further apart than a quarter of the
	 * penalty at this T (a queue's 1.5 x L at T = 2, parallel checks' L)
	 * are left out of the rounds */
	max_skew = pen->median_ms > 0 ? ROUND_SKEW_MAX * pen->median_ms : INFINITY;
	c->rounds = round_differences(c, max_skew, &c->rounds_skewed, &d, &sp);
	summarise(d, c->rounds, CONFIDENCE, &c->round);
	summarise(sp, c->rounds, CONFIDENCE, &c->spread);
}

/* The penalty against an unloaded launch, and the medians' ratio. */
static void relate(struct config *c)
{
	c->unloaded_ms = unloaded(c, PASS_REPEAT);
	c->relative = stop_relative(c->penalty.median_ms, c->unloaded_ms);
	c->ratio = NAN;
	if (c->pass[PASS_REPEAT].median_ms > 0.0 &&
	    !isnan(c->pass[PASS_FIRST].median_ms))
		c->ratio = c->pass[PASS_FIRST].median_ms /
			   c->pass[PASS_REPEAT].median_ms;
}

/* A sequential run's reason says which look its interval is of. */
static void name_the_look(struct config *c)
{
	size_t len = strlen(c->reason);
	int which, planned = looks_planned(c->looks_at);
	double cov = looks_coverage_at(c->looks_at, c->n, &which);

	if (planned > 0 && which > planned)
		snprintf(c->reason + len, sizeof c->reason - len,
			 " (a %.4g%% interval: look %d of %d of the extension, after an "
			 "interval across the floor at %ld)", cov * 100.0, which - planned,
			 c->looks - planned, c->planned);
	else
		snprintf(c->reason + len, sizeof c->reason - len,
			 " (a %.4g%% interval: look %d of %d)", cov * 100.0, which,
			 planned > 0 ? planned : c->looks);
}

/* Every launch's cost in the work folder: repeat - reference, paired by
 * index, with its verdict where there was a reference. */
static void reference_cost(struct config *c)
{
	double *d;

	c->ref_pairs = differences(c, PASS_REPEAT, PASS_REFERENCE, &d);
	summarise(d, c->ref_pairs, CONFIDENCE, &c->ref_cost);
	c->ref_unloaded_ms = unloaded(c, PASS_REFERENCE);
	c->ref_relative = stop_relative(c->ref_cost.median_ms, c->ref_unloaded_ms);
	c->ref_ratio = NAN;
	if (c->pass[PASS_REFERENCE].median_ms > 0.0 && !isnan(c->pass[PASS_REPEAT].median_ms))
		c->ref_ratio = c->pass[PASS_REPEAT].median_ms / c->pass[PASS_REFERENCE].median_ms;
	if (c->pass[PASS_REFERENCE].n_ok > 0 || c->failures[PASS_REFERENCE] > 0)
		decide_reference(c);
}

void stats_config(struct config *c)
{
	summarise_passes(c);
	pair_penalty(c);
	relate(c);
	decide(c);
	if (c->looks > 1 && c->verdict != VERDICT_HANG)
		name_the_look(c);
	reference_cost(c);
}
