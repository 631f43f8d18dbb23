/* drive.h - the plan launch follows (docs/method.md): blocks of K launches
 * per thread, each block's first launches, then its repeats (then the
 * reference), then the next block; with sequential stopping, a look after
 * each planned number of artifacts, stopped where the verdict is certain
 * (stop.h).  The launches go through a launcher (launcher.h), so the same
 * plan runs on the real machine and on the simulator. */
#ifndef EXECLAG_DRIVE_H
#define EXECLAG_DRIVE_H

#include "launcher.h"
#include "looks.h"
#include "manifest.h"
#include "pass.h"

struct drive {
	/* the plan */
	struct launcher *l;
	struct manifest *m;      /* the artifacts made so far */
	const struct artifact *ref; /* the reference pass's program, or NULL */
	long planned;            /* artifacts the plan may launch */
	long block;              /* artifacts per block */
	int order[PASS_ALL], npass; /* the passes, in order */
	int sequential;
	/* sequential, with a maker: a configuration that reaches `planned`
	 * with its interval across the floor goes on to extend x planned
	 * (SEQ_EXTEND; 1: never) */
	long extend_factor;
	/* make the artifacts m->n .. target-1 (sequential stopping makes them
	 * along the looks); NULL when the manifest holds them all */
	void (*extend)(struct drive *d, long target);
	void *extend_arg;
	volatile sig_atomic_t *interrupted; /* checked after every pass */

	/* what it did */
	struct launch_sample *samples[PASS_ALL]; /* planned slots each */
	uint64_t wall[PASS_ALL];    /* summed over the blocks */
	double idle[PASS_ALL], total[PASS_ALL]; /* CPU ticks, summed; total 0: unknown */
	int idle_ok;
	int ran[PASS_ALL];
	long n;                  /* artifacts launched */
	long blocks;
	long looks[LOOKS_ALL];   /* sequential: artifacts at each look */
	int k;                   /* looks, the extension's included */
	int kp;                  /* of them, the plan's */
	int extended;            /* 1: went on past planned */
	const char *stopped;     /* "slowdown", "none" (certain), "maximum", or
				    "hang": a launch passed its bound (the
				    case stops after that block's pass) */
};

/* The default block: 2 launches per thread at T = 1 and 1 above (per_thread
 * < 0), per_thread x T otherwise, 0 for one block of every artifact. */
long drive_block(long per_thread, int threads, long planned);

/* Run the plan; exits on an interrupt (128 + the signal, nothing written). */
void drive_run(struct drive *d);

/* The looks as a samples file's "meta looks": "8,12,16,20", with the
 * extension's after a '+' ("8,12,16,20+40,60"); returns buf. */
const char *drive_looks(const struct drive *d, char *buf, size_t len);

/* The share of the CPUs idle in pass p, or -1 where unknown. */
double drive_idle(const struct drive *d, int p);

#endif
