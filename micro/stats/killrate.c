/* killrate.c - the kill rate's exact interval (killrate.h): Clopper and
 * Pearson, "The use of confidence or fiducial limits illustrated in the
 * case of the binomial", Biometrika 26(4), 1934; the worked values in
 * docs/remedies.md are tests/unit/killrate_test.c's. */
#define _POSIX_C_SOURCE 200809L
#include "killrate.h"

#include <math.h>
#include <stdio.h>

#define KILL_ALPHA 0.05

double stats_binom_cdf(size_t k, size_t n, double p)
{
	double lp, lq, lnf, sum = 0.0;
	size_t i;

	if (k >= n || p <= 0.0)
		return 1.0;
	if (p >= 1.0)
		return 0.0;
	lp = log(p);
	lq = log1p(-p);
	lnf = lgamma((double)n + 1.0);
	for (i = 0; i <= k; i++)
		sum += exp(lnf - lgamma((double)i + 1.0) - lgamma((double)(n - i) + 1.0) +
			   (double)i * lp + (double)(n - i) * lq);
	return sum > 1.0 ? 1.0 : sum;
}

/* The p in (0, 1) where f, falling in p, meets target: bisection to the
 * last bits a double holds. */
static double solve_falling(double (*f)(size_t, size_t, double), size_t k, size_t n,
			    double target)
{
	double lo = 0.0, hi = 1.0;
	int i;

	for (i = 0; i < 200 && hi - lo > 1e-15; i++) {
		double mid = (lo + hi) / 2.0;

		if (f(k, n, mid) > target)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2.0;
}

/* P(X <= k - 1): falls as p grows, so P(X >= k) = 1 - it rises */
static double cdf_below(size_t k, size_t n, double p)
{
	return stats_binom_cdf(k - 1, n, p);
}

void stats_kill_rate(size_t killed, size_t of, struct kill_rate *out)
{
	out->killed = killed;
	out->of = of;
	out->one_sided = 0;
	if (of == 0 || killed > of) {
		out->estimate = out->low = out->high = NAN;
		return;
	}
	out->estimate = (double)killed / (double)of;
	if (killed == 0) {
		out->one_sided = 1;
		out->low = 0.0;
		out->high = 1.0 - pow(KILL_ALPHA, 1.0 / (double)of);
		return;
	}
	/* lower: P(X >= K) = alpha/2, i.e. P(X <= K-1) = 1 - alpha/2 */
	out->low = solve_falling(cdf_below, killed, of, 1.0 - KILL_ALPHA / 2.0);
	/* upper: P(X <= K) = alpha/2; 1 when every launch was killed */
	out->high = killed == of ? 1.0
				 : solve_falling(stats_binom_cdf, killed, of, KILL_ALPHA / 2.0);
}

const char *stats_percent_words(double fraction, int up, char *buf, size_t len)
{
	double pct = fraction * 100.0, scale, v;
	int decimals = 2;

	if (!isfinite(pct)) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (pct > 0.0 && pct < 0.01)
		decimals = (int)-floor(log10(pct)); /* one significant digit */
	scale = pow(10.0, decimals);
	/* a hair off the exact value, so 0.04 computed as 0.0400000001 stays 0.04 */
	v = up ? ceil(pct * scale - 1e-9) / scale : floor(pct * scale + 1e-9) / scale;
	snprintf(buf, len, "%.*f", decimals, v);
	return buf;
}

const char *stats_kill_rate_words(const struct kill_rate *k, char *buf, size_t len)
{
	char lo[32], hi[32];

	if (k->of == 0 || !isfinite(k->high)) {
		snprintf(buf, len, "-");
		return buf;
	}
	stats_percent_words(k->high, 1, hi, sizeof hi);
	if (k->one_sided) {
		snprintf(buf, len, "at most %s%%", hi);
		return buf;
	}
	stats_percent_words(k->low, 0, lo, sizeof lo);
	snprintf(buf, len, "%s\xe2\x80\x93%s%%", lo, hi);
	return buf;
}
