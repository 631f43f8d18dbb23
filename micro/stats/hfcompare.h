/* hfcompare.h - hyperfine as a second instrument: read the JSON that
 * scripts/probe/hfcheck kept, and compare hyperfine's medians with the C
 * harness's for the same case (docs/method.md, "hyperfine cross-check").
 * The model (struct hf_result) carries the numbers and the agreement; the
 * writers in micro/report show it (run.json's "hyperfine", report.md's
 * "hyperfine cross-check", the terminal's lines). */
#ifndef EXECLAG_HFCOMPARE_H
#define EXECLAG_HFCOMPARE_H

#include "stats.h"

struct run;

/* Two medians agree when they differ by at most the larger of
 * HF_TOLERANCE_REL times the harness's value and HF_TOLERANCE_MS, plus
 * both medians' noise (half-widths of their intervals at
 * MEDIAN_NOISE_COVERAGE, in quadrature; for a penalty, all four). */
#define HF_TOLERANCE_REL 0.25
#define HF_TOLERANCE_MS 1.0

enum { HF_FIRST, HF_REPEAT, HF_PENALTY, HF_NVALUES };

struct hf_case {
	char *name;
	double hf[HF_NVALUES];      /* first median, repeat median, difference (ms) */
	long runs[2];               /* timed runs in the first and repeat files */
	int have_harness;
	long harness_threads;
	const char *harness_class;
	double harness[HF_NVALUES]; /* the same three from the C harness */
	double noise[HF_NVALUES];   /* both instruments' half-widths added (ms) */
	double tolerance[HF_NVALUES]; /* the allowed difference (ms) */
	int agree;                  /* -1 when there is nothing to compare */
	/* "path" or "content" when the run's cache key makes hyperfine's first
	 * runs (same path, same bytes) hits: only the repeats are compared;
	 * key_source says where the key came from ("the gate's key",
	 * "inferred"); NULL otherwise */
	const char *incomparable;
	const char *key_source;
	double hf_noise;            /* hyperfine's penalty's own noise (ms) */
	int penalty_seen;           /* hyperfine's difference above the floor by
				     * more than hf_noise */
	char reason[REASON_MAX];
};

struct hf_result {
	const char *status;  /* done, skipped or failed */
	const char *note;    /* why skipped or failed, or NULL */
	const char *version;
	long runs;           /* K, -1 when unknown */
	struct hf_case *cases;
	size_t n_cases;
	int agree;           /* -1 when no case was compared */
};

/* NULL when the run has no hyperfine.status condition (not attempted).
 * Call after the cases are summarised.  Bad input: exit 2. */
struct hf_result *hf_read(const char *dir, const struct run *r);

#endif
