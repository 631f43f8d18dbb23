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

	/* the floor: 1 ms, or a quarter of an unloaded launch where that is more */
	check_near(stop_floor(2.0), PENALTY_FLOOR_MS, 1e-12, "floor: 1 ms under a 2 ms launch");
	check_near(stop_floor(8.0), 2.0, 1e-12, "floor: a quarter of an 8 ms launch");
	check_near(stop_floor(NAN), PENALTY_FLOOR_MS, 1e-12, "floor: 1 ms without an unloaded launch");
	check_near(stop_floor(0.0), PENALTY_FLOOR_MS, 1e-12, "floor: 1 ms for a 0 ms launch");

	/* the rule itself: the interval against the floor, both ends */
	check_str(stop_verdict(2.0, 3.0, 2.0), "slowdown", "verdict: above the 1 ms floor");
	check_str(stop_verdict(2.0, 3.0, 10.0), NULL,
		  "verdict: across the 2.5 ms floor of a 10 ms launch: not yet");
	check_str(stop_verdict(3.0, 6.0, 10.0), "slowdown", "verdict: above the 2.5 ms floor");
	check_str(stop_verdict(-0.5, 0.9, 10.0), "none", "verdict: under the floor");
	check_str(stop_verdict(-0.5, 2.4, 10.0), "none", "verdict: under a quarter of a 10 ms launch");
	check_str(stop_verdict(-12.5, 7.7, 74.0), "none",
		  "verdict: under a quarter of a 74 ms unloaded launch, however far over 1 ms");
	check_str(stop_verdict(-12.5, 40.0, 74.0), NULL, "verdict: up to 40 ms of 74: not yet");
	/* the independent ClamAV set-up of issue 32 (SIZE=4m): a plain 42.6 ms
	 * penalty on a 94.7 ms unloaded launch, a copy it knows at [-11.7, 15.8] */
	check_str(stop_verdict(39.4, 47.4, 94.7), "slowdown",
		  "verdict: 39.4 ms and up on a 94.7 ms launch is a slowdown");
	check_str(stop_verdict(-11.7, 15.8, 90.48), "none",
		  "verdict: at most 15.8 ms on a 90.48 ms launch is none");
	check_str(stop_verdict(2.0, 3.0, NAN), "slowdown", "verdict: no unloaded launch: the 1 ms floor");
	check_str(stop_verdict(-12.5, 7.7, NAN), NULL, "verdict: no unloaded launch: across the 1 ms floor");

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

	/* a 1.2 ms penalty on 10 ms launches: above 1 ms, under the 2.5 ms
	 * floor of a 10 ms launch */
	for (i = 0; i < N; i++) {
		r[i] = 10.0 + 0.05 * i;
		d[i] = 1.2 + 0.01 * i;
	}
	pairs(first, repeat, r, d, N);
	check_str(stop_certain(first, repeat, N, CONFIDENCE), "none",
		  "certain: a penalty certainly under a quarter of an unloaded launch is none");

	/* bursts: half the pairs fall in a burst that triples both launches.
	 * The ratio of the medians drops; the lower quartile of the repeats,
	 * an unloaded launch, and with it the floor, does not. */
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
		CHECK(mf / mp < 1.5, "bursts: the ratio of the medians falls under 1.5");
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
