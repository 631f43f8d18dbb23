/* stop_test.c - the stopping decision (micro/stats/stop.c) on fixed arrays. */
#include "../../micro/stats/looks.h"
#include "../../micro/stats/orderstats.h"
#include "../../micro/stats/stop.h"
#include "../../micro/stats/thresholds.h"
#include "check.h"

#include <math.h>

#define N 20

/* first[i] = repeat[i] + d[i] */
static void pairs(double *first, double *repeat, const double *r, const double *d, int n)
{
	for (int i = 0; i < n; i++) {
		repeat[i] = r[i];
		first[i] = r[i] + d[i];
	}
}

int main(void)
{
	double first[N], repeat[N], d[N], r[N];
	long looks[LOOKS_MAX];
	int k, i;

	/* relative: (q1 + median d) / q1; repeats 2, 3, 4, 5 five times each */
	{
		double rep[N] = { 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5 };

		check_near(stop_unloaded(rep, N), 2.75, 1e-9, "unloaded: the repeats' lower quartile");
		check_near(stop_relative(19.5, stop_unloaded(rep, N)), (2.75 + 19.5) / 2.75, 1e-9,
			   "relative: an unloaded launch plus the penalty, over it");
		CHECK(isnan(stop_unloaded(rep, 0)), "unloaded: NAN without repeats");
		CHECK(isnan(stop_relative(NAN, 2.75)), "relative: NAN without a penalty");
		CHECK(isnan(stop_relative(1.0, NAN)), "relative: NAN without an unloaded launch");
	}

	/* the rule itself */
	check_str(stop_verdict(2.0, 3.0, 2.5, 2.0), "slowdown", "verdict: above the floor, 2.25x");
	check_str(stop_verdict(2.0, 3.0, 2.5, 10.0), "none",
		  "verdict: above the floor but at most 1.3x an unloaded launch: no slowdown");
	check_str(stop_verdict(2.0, 6.0, 2.5, 10.0), NULL,
		  "verdict: above the floor, 1.25x, but up to 1.6x: not yet");
	check_str(stop_verdict(-0.5, 0.9, 0.1, 10.0), "none", "verdict: under the floor");
	check_str(stop_verdict(-12.5, 7.7, 0.0, 74.0), "none",
		  "verdict: under half of a 74 ms unloaded launch, however far over the floor");
	check_str(stop_verdict(-12.5, 40.0, 0.0, 74.0), NULL,
		  "verdict: up to 1.54x an unloaded launch: not yet");
	check_str(stop_verdict(2.0, 3.0, 2.5, NAN), "slowdown", "verdict: no relative rule (suite)");
	check_str(stop_verdict(-12.5, 7.7, 0.0, NAN), NULL, "verdict: no relative rule: the floor alone");
	{
	}

	/* 20 pairs of a clear 10 ms penalty on 2 ms launches: slowdown */
	for (i = 0; i < N; i++) {
		r[i] = 2.0 + 0.01 * i;
		d[i] = 10.0 + 0.1 * (i % 5);
	}
	pairs(first, repeat, r, d, N);
	check_str(stop_certain(first, repeat, N, CONFIDENCE), "slowdown",
		  "certain: a 10 ms penalty on 2 ms launches is a slowdown");

	/* no penalty: every pair within 0.3 ms */
	for (i = 0; i < N; i++)
		d[i] = -0.3 + 0.03 * i;
	pairs(first, repeat, r, d, N);
	check_str(stop_certain(first, repeat, N, CONFIDENCE), "none",
		  "certain: pairs within 0.3 ms are none");

	/* the interval straddles the floor: go on */
	for (i = 0; i < N; i++)
		d[i] = (i % 2) ? 0.2 : 3.0;
	pairs(first, repeat, r, d, N);
	check_str(stop_certain(first, repeat, N, CONFIDENCE), NULL,
		  "certain: pairs on both sides of the floor decide nothing");

	/* five pairs cannot make a 95% interval */
	for (i = 0; i < N; i++)
		d[i] = 10.0;
	pairs(first, repeat, r, d, N);
	check_str(stop_certain(first, repeat, 5, CONFIDENCE), NULL,
		  "certain: 5 pairs are too few for an interval");

	/* failed launches (NAN) are left out of the pairs */
	for (i = 0; i < N; i++)
		first[i] = i < 10 ? NAN : repeat[i] + 10.0;
	check_str(stop_certain(first, repeat, N, CONFIDENCE), "slowdown",
		  "certain: 10 good pairs of 20 still decide");
	check_str(stop_certain(first, repeat, 15, CONFIDENCE), NULL,
		  "certain: 5 good pairs of 15 do not");

	/* a 1.2 ms penalty on 10 ms launches: above the floor, not 1.5x an
	 * unloaded launch */
	for (i = 0; i < N; i++) {
		r[i] = 10.0 + 0.05 * i;
		d[i] = 1.2 + 0.01 * i;
	}
	pairs(first, repeat, r, d, N);
	check_str(stop_certain(first, repeat, N, CONFIDENCE), "none",
		  "certain: a penalty certainly under half an unloaded launch is none");

	/* bursts: half the pairs fall in a burst that triples both launches.
	 * The ratio of the medians drops under the floor; the penalty against
	 * an unloaded launch does not. */
	{
		double f[N], p[N], mf, mp;

		for (i = 0; i < N; i++) {
			double x = (i % 2) ? 3.0 : 1.0;

			p[i] = x * (3.5 + 0.01 * i);
			f[i] = p[i] + 2.0 + 0.01 * i;
		}
		for (i = 0; i < N; i++)
			d[i] = f[i];
		stats_sort(d, N);
		mf = stats_median(d, N);
		for (i = 0; i < N; i++)
			d[i] = p[i];
		stats_sort(d, N);
		mp = stats_median(d, N);
		CHECK(mf / mp < RATIO_FLOOR, "bursts: the ratio of the medians falls under the floor");
		check_str(stop_certain(f, p, N, CONFIDENCE), "slowdown",
			  "bursts: a 2 ms penalty on 3.5 ms launches is still a slowdown");
	}

	/* rounds: T = 2, blocks of 2; a queue's excess in every round */
	for (i = 0; i < N; i++) {
		repeat[i] = 1.0;
		first[i] = (i % 2) ? 1.0 + 40.0 + 0.1 * (i % 3) : 1.0 + 20.0;
	}
	CHECK(stop_rounds_sharp(first, repeat, N, 2, 4), "rounds: the same queue in every round is sharp");
	for (i = 0; i < N; i++)
		first[i] = (i % 2) ? 1.0 + 5.0 + 8.0 * (i % 4) : 1.0 + 2.0;
	CHECK(!stop_rounds_sharp(first, repeat, N, 2, 4), "rounds: excesses from 5 to 29 ms are not");
	CHECK(!stop_rounds_sharp(first, repeat, 10, 2, 4), "rounds: 5 rounds are too few");

	/* looks: the quick profile's plan for 20 */
	k = looks_plan(LOOKS_FIRST, N, looks);
	CHECK(k == 4 && looks[0] == 8 && looks[3] == 20, "looks: 8, 12, 16, 20 for 20 artifacts");
	for (i = 0; i < N; i++) {
		repeat[i] = 1.0 + 0.01 * i;
		first[i] = repeat[i] + 20.0 + 0.01 * i;
	}
	check_str(stop_at_look(first, repeat, 8, 1, 2, 4, looks_coverage(looks, k, 0), k), "slowdown",
		  "look: T=1 stops at the first look on a clear slowdown");
	check_str(stop_at_look(first, repeat, 8, 2, 2, 4, looks_coverage(looks, k, 0), k), NULL,
		  "look: T=2 does not stop before 8 rounds");
	/* T = 2, 8 rounds of a sharp queue: stops; the same rounds spread: goes on */
	for (i = 0; i < 16; i++)
		first[i] = repeat[i] + ((i % 2) ? 40.0 : 20.0);
	check_str(stop_at_look(first, repeat, 16, 2, 2, 8, looks_coverage(looks, k, 2), k), "slowdown",
		  "look: T=2 stops after 8 sharp rounds of a slowdown");
	for (i = 0; i < 16; i++)
		first[i] = repeat[i] + ((i % 2) ? 20.0 + 3.0 * (i % 7) : 20.0);
	check_str(stop_at_look(first, repeat, 16, 2, 2, 8, looks_coverage(looks, k, 2), k), NULL,
		  "look: T=2 goes on after 8 rounds that are not sharp");
	check_str(stop_at_look(first, repeat, 20, 2, 2, 10, looks_coverage(looks, k, 3), k), "slowdown",
		  "look: T=2 stops after 10 rounds, sharp or not");
	for (i = 0; i < N; i++)
		first[i] = repeat[i] + 0.1;
	check_str(stop_at_look(first, repeat, 16, 2, 2, 8, looks_coverage(looks, k, 2), k), NULL,
		  "look: T=2 never stops as none before 10 rounds");
	check_str(stop_at_look(first, repeat, 20, 2, 2, 10, looks_coverage(looks, k, 3), k), "none",
		  "look: T=2 stops as none after 10 rounds");
	return check_done();
}
