/* stats.c - medians, the paired penalty and its interval, and the verdicts.
 *
 * The method is written up in docs/method.md; the numbers it depends on are
 * in thresholds.h. */
#define _POSIX_C_SOURCE 200809L
#include "stats.h"
#include "looks.h"
#include "stop.h"
#include "thresholds.h"
#include "looksmeta.h"
#include "util.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ----------------------------------------------------------------- */

int stats_sample_ok(const struct sample *s)
{
	return s->exit_status == 0 && s->signal == 0 && s->spawn_errno == 0;
}

/* Host numbering: analyze runs where launch ran, and the numbers differ
 * between Linux and macOS (SIGBUS is 7 on one, 10 on the other). */
const char *stats_signal_name(long sig, char *buf, size_t len)
{
	static const struct {
		int number;
		const char *name;
	} table[] = {
		{ SIGHUP, "SIGHUP" },   { SIGINT, "SIGINT" },
		{ SIGQUIT, "SIGQUIT" }, { SIGILL, "SIGILL" },
		{ SIGABRT, "SIGABRT" }, { SIGFPE, "SIGFPE" },
		{ SIGKILL, "SIGKILL" }, { SIGSEGV, "SIGSEGV" },
		{ SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" },
		{ SIGTERM, "SIGTERM" }, { SIGUSR1, "SIGUSR1" },
		{ SIGUSR2, "SIGUSR2" },
#ifdef SIGBUS
		{ SIGBUS, "SIGBUS" },
#endif
#ifdef SIGTRAP
		{ SIGTRAP, "SIGTRAP" },
#endif
#ifdef SIGSYS
		{ SIGSYS, "SIGSYS" },
#endif
#ifdef SIGXCPU
		{ SIGXCPU, "SIGXCPU" },
#endif
	};
	size_t i;

	for (i = 0; i < sizeof table / sizeof table[0]; i++)
		if (table[i].number == sig)
			return table[i].name;
	snprintf(buf, len, "SIG%ld", sig);
	return buf;
}

const char *stats_pass_name(enum pass p)
{
	return p == PASS_FIRST ? "first" : p == PASS_REPEAT ? "repeat" : "reference";
}

const char *stats_verdict_name(enum verdict v)
{
	switch (v) {
	case VERDICT_SLOWDOWN: return "slowdown";
	case VERDICT_NONE: return "none";
	case VERDICT_HANG: return "hang";
	default: return "inconclusive";
	}
}

const char *stats_serialisation_name(enum serialisation s)
{
	switch (s) {
	case SERIAL_SERIALISED: return "serialised";
	case SERIAL_PARALLEL: return "parallel";
	case SERIAL_UNDETERMINED: return "undetermined";
	default: return "n/a";
	}
}

const char *stats_cache_key_name(enum cache_key k)
{
	switch (k) {
	case KEY_INODE: return "inode";
	case KEY_PATH: return "path";
	case KEY_CONTENT: return "content";
	default: return "undetermined";
	}
}

/* ---- one configuration ------------------------------------------------------ */

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
		else
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

void stats_config(struct config *c)
{
	struct penalty *pen = &c->penalty;
	double *d, *sp, max_skew;
	int p;

	for (p = 0; p < PASS_ALL; p++)
		summarise_pass(c, (enum pass)p, &c->pass[p], &c->failures[p]);
	for (p = 0; p < PASS_ALL; p++)
		c->hung[p] = c->made[p] = 0;
	for (size_t i = 0; i < c->n_samples; i++) {
		c->made[c->samples[i].pass]++;
		c->hung[c->samples[i].pass] += c->samples[i].hang != 0;
	}

	c->pairs = differences(c, PASS_FIRST, PASS_REPEAT, &d);
	summarise(d, c->pairs, stats_confidence(c), pen);

	/* threads that started a round further apart than a quarter of the
	 * penalty at this T (a queue's 1.5 x L at T = 2, parallel checks' L)
	 * are left out of the rounds */
	max_skew = pen->median_ms > 0 ? ROUND_SKEW_MAX * pen->median_ms : INFINITY;
	c->rounds = round_differences(c, max_skew, &c->rounds_skewed, &d, &sp);
	summarise(d, c->rounds, CONFIDENCE, &c->round);
	summarise(sp, c->rounds, CONFIDENCE, &c->spread);

	c->unloaded_ms = unloaded(c, PASS_REPEAT);
	c->relative = stop_relative(pen->median_ms, c->unloaded_ms);
	c->ratio = NAN;
	if (c->pass[PASS_REPEAT].median_ms > 0.0 &&
	    !isnan(c->pass[PASS_FIRST].median_ms))
		c->ratio = c->pass[PASS_FIRST].median_ms /
			   c->pass[PASS_REPEAT].median_ms;
	decide(c);
	if (c->looks > 1 && c->verdict != VERDICT_HANG) {
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

/* ---- one case: headline, scaling, serialisation ------------------------------ */

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
static struct config *find_config(const struct case_result *cr,
				  const char *class_name, long threads)
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
		const struct config *base = find_config(cr, c->class_name, 1);
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
static void decide_serialisation(struct case_result *cr)
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
	top = find_config(cr, head->class_name, max_threads);
	base = find_config(cr, head->class_name, 1);
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

/* ---- the penalty against size ------------------------------------------------ */

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
static void build_slopes(struct case_result *cr)
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

void stats_case(struct case_result *cr)
{
	size_t i;

	qsort(cr->configs, cr->n_configs, sizeof *cr->configs, cmp_config);
	cr->base_pad = cr->configs[0]->pad;
	for (i = 1; i < cr->n_configs; i++)
		if (cr->configs[i]->pad < cr->base_pad)
			cr->base_pad = cr->configs[i]->pad;
	cr->headline = find_config(cr, "all", 1);
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
	decide_serialisation(cr);
	build_slopes(cr);
}

/* ---- the cache key ------------------------------------------------------------ */

/* find_case: the case of kind KIND that the key's inference reads: the
 * one named KIND, as the kit's own cases are, else the first of that kind
 * (a case file of the kit's kinds under another name). */
static const struct case_result *find_case(const struct case_result *cases,
					   size_t n, const char *kind)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(cases[i].name, kind) == 0)
			return &cases[i];
	for (i = 0; i < n; i++)
		if (cases[i].kind && strcmp(cases[i].kind, kind) == 0)
			return &cases[i];
	return NULL;
}

static void set_key(struct inference *out, enum cache_key key, const char *why)
{
	out->key = key;
	snprintf(out->reason, sizeof out->reason, "%s", why);
}

/* What a cache keyed by X would do: a hard link keeps inode and content but
 * not the path; a copy keeps content only; a rename-over keeps the path only. */
void stats_infer_key(const struct case_result *cases, size_t n_cases,
		     struct inference *out)
{
	const struct case_result *exe = find_case(cases, n_cases, "exe");
	const struct case_result *link = find_case(cases, n_cases, "exe-hardlink");
	const struct case_result *copy = find_case(cases, n_cases, "exe-copy");
	const struct case_result *rewrite = find_case(cases, n_cases, "exe-rewrite");
	enum verdict l, c, r;

	if (!exe || !link || !copy || !rewrite) {
		set_key(out, KEY_UNDETERMINED,
			"needs exe, exe-hardlink, exe-copy and exe-rewrite");
		return;
	}
	if (exe->headline->verdict != VERDICT_SLOWDOWN) {
		set_key(out, KEY_UNDETERMINED, "no first-launch penalty to key");
		return;
	}
	l = link->headline->verdict;
	c = copy->headline->verdict;
	r = rewrite->headline->verdict;
	if (l == VERDICT_NONE && c == VERDICT_SLOWDOWN && r == VERDICT_SLOWDOWN)
		set_key(out, KEY_INODE,
			"hardlink none, copy slowdown, rewrite slowdown: a new inode is assessed again, a new name for a known inode is not");
	else if (l == VERDICT_SLOWDOWN && c == VERDICT_SLOWDOWN && r == VERDICT_NONE)
		set_key(out, KEY_PATH,
			"hardlink slowdown, copy slowdown, rewrite none: a new path is assessed again, a new file at a known path is not");
	else if (l == VERDICT_NONE && c == VERDICT_NONE && r == VERDICT_NONE)
		set_key(out, KEY_CONTENT,
			"hardlink none, copy none, rewrite none: only new content is assessed");
	else {
		out->key = KEY_UNDETERMINED;
		snprintf(out->reason, sizeof out->reason,
			 "hardlink %s, copy %s, rewrite %s: matches no single key",
			 stats_verdict_name(l), stats_verdict_name(c),
			 stats_verdict_name(r));
	}
}
