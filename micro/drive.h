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

extern const char *const pass_name[PASS_ALL];

struct drive {
	/* the plan */
	struct launcher *l;
	struct manifest *m;      /* the artifacts made so far */
	const struct artifact *ref; /* the reference pass's program, or NULL */
	long planned;            /* artifacts the plan may launch */
	long block;              /* artifacts per block */
	int order[PASS_ALL], npass; /* the passes, in order */
	int sequential;
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
	long looks[LOOKS_MAX];   /* sequential: artifacts at each look */
	int k;                   /* looks planned */
	const char *stopped;     /* "slowdown", "none" (certain) or "maximum" */
};

/* The default block: 2 launches per thread at T = 1 and 1 above (per_thread
 * < 0), per_thread x T otherwise, 0 for one block of every artifact. */
long drive_block(long per_thread, int threads, long planned);

/* Run the plan; exits on an interrupt (128 + the signal, nothing written). */
void drive_run(struct drive *d);

/* The share of the CPUs idle in pass p, or -1 where unknown. */
double drive_idle(const struct drive *d, int p);

#endif
