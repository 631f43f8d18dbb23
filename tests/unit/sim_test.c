/* sim_test.c - the simulator's model (micro/launcher/sim.c) on fixed settings: the
 * gate's semantics per kind and key, the queue, every, per_mb, bursts, and
 * that a seed makes the same run. */
#include "../../micro/launcher/sim.h"
#include "../../micro/lib/util.h"
#include "check.h"

#include <stdlib.h>

#define N 8

/* The settings of spec, with every kind's base cost 1.00 to 1.10 ms (the
 * built-in fit's tail would blur the holds these tests look for). */
static struct sim_params params(const char *spec)
{
	struct sim_params p;
	struct sim_fit fit;
	char err[320];
	int k, j;

	if (sim_parse(spec, &p, err, sizeof err) != 0) {
		printf("not ok - sim_parse '%s': %s\n", spec, err);
		exit(1);
	}
	fit.threads = 1;
	for (j = 0; j < SIM_QUANTILES; j++)
		fit.q[j] = 1.0 + 0.005 * j;
	for (k = 0; k < SIM_KINDS; k++) {
		p.base[k].n = 0;
		sim_base_add(&p.base[k], &fit);
	}
	return p;
}

/* N artifacts at T threads, in rounds of T: each round's first launches,
 * then their repeats; the durations in first[] and again[]. */
static void twice(const char *spec, const char *kind, int threads, double mib, double *first,
		  double *again)
{
	struct sim_params p = params(spec);
	struct sim *s = sim_open(&p, sim_kind(kind), "test");
	struct sim_launch l[N];
	int pass, i, b;

	/* in blocks of T, as launch does at T > 1: a round of first launches,
	 * then their repeats */
	for (b = 0; b < N; b += threads) {
		for (pass = 0; pass < 2; pass++) {
			for (i = 0; i < threads; i++) {
				memset(&l[i], 0, sizeof l[i]);
				l[i].thread = i;
				l[i].artifact = b + i;
				l[i].run = 1;
				l[i].size_mib = mib;
			}
			sim_pass(s, l, (size_t)threads, threads, NULL);
			for (i = 0; i < threads; i++)
				(pass ? again : first)[b + i] = l[i].dur_ms;
		}
	}
	sim_close(s);
}

/* the smallest and largest of the first launches' extra over the repeat */
static void extra(const double *first, const double *again, double *lo, double *hi)
{
	*lo = 1e9;
	*hi = -1e9;
	for (int i = 0; i < N; i++) {
		double x = first[i] - again[i];

		*lo = x < *lo ? x : *lo;
		*hi = x > *hi ? x : *hi;
	}
}

/* Whether the first launches of kind are held (by more than half the
 * latency, 50 ms, over the noise of the base costs) under key/on. */
static int held(const char *kind, const char *settings)
{
	double f[N], a[N], lo, hi;
	char spec[256];

	snprintf(spec, sizeof spec, "latency=50 workers=4 cpus=4 seed=3 %s", settings);
	twice(spec, kind, 1, 0, f, a);
	extra(f, a, &lo, &hi);
	return lo > 25;
}

int main(void)
{
	struct sim_params p;
	char err[320], buf[600];
	double f[N], a[N], g[N], b[N], lo, hi;
	int i, same;

	progname = "sim_test";
	check_near(0, 0, 0, "check.h: near");
	CHECK(sim_parse("", &p, err, sizeof err) == 0 && p.latency_ms == 0 && p.workers == 1 &&
	      p.key == SIM_KEY_INODE && p.seed == 1, "parse: the defaults");
	CHECK(sim_parse("latency=x", &p, err, sizeof err) != 0 && strstr(err, "latency 'x'"),
	      "parse: a bad latency is refused, named");
	CHECK(sim_parse("key=hash", &p, err, sizeof err) != 0, "parse: an unknown key is refused");
	CHECK(sim_parse("seed=1 seed=2", &p, err, sizeof err) != 0 && strstr(err, "twice"),
	      "parse: a setting given twice is refused");
	CHECK(sim_parse("colour=red", &p, err, sizeof err) != 0 && strstr(err, "unknown"),
	      "parse: an unknown setting is refused");
	p = params("latency=20 workers=2 key=content on=open every=1 per_mb=2 seed=9 cpus=2 corr=0.5");
	sim_describe(&p, buf, sizeof buf);
	check_str(buf, "latency=20 workers=2 key=content on=open every=1 per_mb=2 exempt=0 "
		  "bursts=0 burst_x=2 cpus=2 seed=9 base=default corr=0.5", "describe: every setting, in order");
	CHECK(sim_parse(buf, &p, err, sizeof err) == 0, "describe: what it says parses again");

	/* the same seed and stream, the same run; another seed, another */
	twice("latency=5 seed=7 cpus=2", "exe", 2, 0, f, a);
	twice("latency=5 seed=7 cpus=2", "exe", 2, 0, g, b);
	for (same = 1, i = 0; i < N; i++)
		same &= f[i] == g[i] && a[i] == b[i];
	CHECK(same, "seed: the same seed gives the same durations");
	twice("latency=5 seed=8 cpus=2", "exe", 2, 0, g, b);
	for (same = 1, i = 0; i < N; i++)
		same &= f[i] == g[i];
	CHECK(!same, "seed: another seed gives other durations");

	/* the gate's semantics, per kind and key */
	CHECK(held("exe", "key=inode"), "exe: a new program is checked");
	CHECK(held("exe-hardlink", "key=path"), "hard link: a new path is checked when keyed by path");
	CHECK(!held("exe-hardlink", "key=inode"), "hard link: the launched inode is not checked again");
	CHECK(!held("exe-hardlink", "key=content"), "hard link: the launched content is not checked again");
	CHECK(held("exe-copy", "key=inode"), "copy: a new inode is checked");
	CHECK(!held("exe-copy", "key=content"), "copy: known content is not checked again");
	CHECK(held("exe-rewrite", "key=inode"), "rewrite: a new inode is checked");
	CHECK(!held("exe-rewrite", "key=path"), "rewrite: the launched path is not checked again");
	CHECK(!held("script-via-sh", "on=exec"), "sh x.sh: only read, not checked on exec");
	CHECK(held("script-via-sh", "on=open"), "sh x.sh: checked where every open is");
	CHECK(held("dylib", "on=exec"), "dylib: the library's open is checked");
	CHECK(held("script", "key=inode"), "script: checked on its exec");
	CHECK(!held("exe", "exempt=1"), "exempt: nothing is held");

	/* the repeat pays nothing; the first pays the latency */
	twice("latency=20 workers=1 seed=4 cpus=2", "exe", 1, 0, f, a);
	extra(f, a, &lo, &hi);
	CHECK(lo > 19.8 && hi < 20.2, "latency: each first launch pays 20 ms over its repeat");

	/* the queue: two threads, one checker: one of each round waits for
	 * the other's check */
	twice("latency=20 workers=1 seed=4 cpus=2", "exe", 2, 0, f, a);
	for (same = 0, i = 0; i + 1 < N; i += 2)
		same += (f[i] > 38) + (f[i + 1] > 38) == 1;
	CHECK(same == N / 2, "workers=1: in every round of two, one waits for the other's check");
	twice("latency=20 workers=2 seed=4 cpus=2", "exe", 2, 0, f, a);
	for (same = 0, i = 0; i < N; i++)
		same += f[i] > 38;
	CHECK(same == 0, "workers=2: no launch waits for another's check");

	/* every: each decision, seen or not; per_mb: a check grows with size */
	twice("latency=0 every=3 seed=4 cpus=2", "exe", 1, 0, f, a);
	for (same = 1, i = 0; i < N; i++)
		same &= a[i] >= 4.0 && a[i] < 4.1;
	CHECK(same, "every=3: a repeat launch is held 3 ms too");
	twice("latency=0 every=3 seed=4 cpus=2", "script", 1, 0, f, a);
	twice("latency=0 every=3 on=open seed=4 cpus=2", "script", 1, 0, g, b);
	extra(b, a, &lo, &hi);
	CHECK(lo > 2.5, "every with on=open: sh's read of the script is one more decision");
	twice("latency=10 per_mb=2 seed=4 cpus=2", "exe", 1, 4.0, f, a);
	extra(f, a, &lo, &hi);
	CHECK(lo > 17.8 && hi < 18.2, "per_mb=2: a 4 MiB program's check holds 10 + 8 ms");

	/* bursts: some launches slowed, none faster than the base allows */
	{
		struct sim_params q = params("latency=0 bursts=1 burst_x=3 seed=5 cpus=2");
		struct sim *s = sim_open(&q, sim_kind("exe"), "bursts");
		struct sim_launch l[400];
		int slow = 0;

		for (i = 0; i < 400; i++) {
			memset(&l[i], 0, sizeof l[i]);
			l[i].artifact = i;
			l[i].run = 1;
			l[i].pre_ms = 2.0; /* spread the launches over time */
		}
		sim_pass(s, l, 400, 1, NULL);
		for (i = 0; i < 400; i++)
			slow += l[i].dur_ms > 2.0;
		sim_close(s);
		CHECK(slow > 40 && slow < 360, "bursts: some launches fall in a burst and some not");
	}

	/* the fit: the quantiles of 1..21 */
	{
		double ms[21];
		struct sim_fit fit;

		for (i = 0; i < 21; i++)
			ms[i] = 21 - i;
		CHECK(sim_fit(ms, 21, 2, &fit) == 0 && fit.threads == 2 && fit.q[0] == 1 &&
		      fit.q[10] == 11 && fit.q[20] == 21, "fit: the quantiles at 0, 50 and 100%");
		CHECK(sim_fit(ms, 5, 1, &fit) != 0, "fit: 5 launches are too few");
	}
	return check_done();
}
