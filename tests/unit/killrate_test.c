/* killrate_test.c - the kill rate's interval (micro/stats/killrate.c)
 * against exact known values: docs/remedies.md's worked counts (computed
 * there from the published counts), the binomial sums at small n by hand,
 * and the words the table says them in.  Given KILLED OF, it prints the
 * rate's words instead, for tests/remedies.bats. */
#define _POSIX_C_SOURCE 200809L
#include "../../micro/stats/killrate.h"
#include "check.h"

#include <stdlib.h>

static void words_are(size_t k, size_t n, const char *want, const char *what)
{
	struct kill_rate r;
	char buf[64];

	stats_kill_rate(k, n, &r);
	check_str(stats_kill_rate_words(&r, buf, sizeof buf), want, what);
}

int main(int argc, char **argv)
{
	struct kill_rate r;
	char buf[64];

	if (argc == 3) {
		stats_kill_rate(strtoul(argv[1], NULL, 10), strtoul(argv[2], NULL, 10), &r);
		printf("%s\n", stats_kill_rate_words(&r, buf, sizeof buf));
		return 0;
	}
	/* the binomial sums by hand: n = 4, p = 1/2 */
	check_near(stats_binom_cdf(0, 4, 0.5), 1.0 / 16, 1e-12, "P(X<=0), n=4, p=1/2 is 1/16");
	check_near(stats_binom_cdf(2, 4, 0.5), 11.0 / 16, 1e-12, "P(X<=2), n=4, p=1/2 is 11/16");
	check_near(stats_binom_cdf(4, 4, 0.3), 1.0, 0, "P(X<=n) is 1");
	check_near(stats_binom_cdf(1, 10, 0.1), 0.7360989291, 1e-9, "P(X<=1), n=10, p=0.1");

	/* 0 of N: the one-sided bound 1 - 0.05^(1/N) */
	stats_kill_rate(0, 3840, &r);
	CHECK(r.one_sided && r.low == 0.0 && r.estimate == 0.0, "0 of 3,840 is one-sided from 0");
	check_near(r.high, 1.0 - pow(0.05, 1.0 / 3840), 1e-15, "0 of 3,840: 1 - 0.05^(1/3840)");
	check_near(r.high, 0.000780, 0.0000005, "0 of 3,840: at most 0.0780%");
	stats_kill_rate(0, 1680, &r);
	check_near(r.high, 0.00178158506222, 1e-14, "0 of 1,680: at most 0.178%");
	stats_kill_rate(0, 1, &r);
	check_near(r.high, 0.95, 1e-12, "0 of 1: at most 95%");

	/* K > 0: the two-sided interval; the values from the Beta quantiles
	 * (mpmath 1.3's regularized incomplete beta at 40 digits, bisected) */
	stats_kill_rate(5, 3840, &r);
	CHECK(!r.one_sided, "5 of 3,840 is two-sided");
	check_near(r.estimate, 5.0 / 3840, 1e-15, "5 of 3,840: the estimate 0.130%");
	check_near(r.low, 0.000422913811494, 1e-13, "5 of 3,840: lower limit 0.0423%");
	check_near(r.high, 0.0030359905426, 1e-12, "5 of 3,840: upper limit 0.3036%");
	check_near(stats_binom_cdf(5, 3840, r.high), 0.025, 1e-9, "the upper limit: P(X<=5) = 0.025");
	check_near(1.0 - stats_binom_cdf(4, 3840, r.low), 0.025, 1e-9,
		   "the lower limit: P(X>=5) = 0.025");
	stats_kill_rate(1, 960, &r);
	check_near(r.low, 2.63723688933e-5, 1e-15, "1 of 960: lower limit 0.00264%");
	check_near(r.low, 1.0 - pow(0.975, 1.0 / 960), 1e-12, "1 of 960: its closed form");
	check_near(r.high, 0.00578999483309, 1e-13, "1 of 960: upper limit 0.579%");
	stats_kill_rate(4, 4, &r);
	check_near(r.low, pow(0.025, 0.25), 1e-12, "4 of 4: lower limit 0.025^(1/4)");
	check_near(r.high, 1.0, 0, "4 of 4: upper limit 1");
	stats_kill_rate(0, 0, &r);
	CHECK(isnan(r.estimate) && isnan(r.high), "0 of 0: nothing known");

	/* the words: upper limits rounded up, lower ones down */
	words_are(0, 3840, "at most 0.08%", "0 of 3,840 says at most 0.08%");
	words_are(0, 1680, "at most 0.18%", "0 of 1,680 says at most 0.18%");
	words_are(0, 720, "at most 0.42%", "0 of 720 says at most 0.42%");
	words_are(5, 3840, "0.04\xe2\x80\x93" "0.31%", "5 of 3,840 says 0.04-0.31%");
	words_are(1, 960, "0.002\xe2\x80\x93" "0.58%", "1 of 960 says 0.002-0.58%");
	words_are(0, 0, "-", "0 of 0 says nothing");
	check_str(stats_percent_words(0.0004, 1, buf, sizeof buf), "0.04", "0.04% stays 0.04 rounded up");
	return check_done();
}
