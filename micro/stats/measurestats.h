/* measurestats.h - the measure's arithmetic (docs/measure.md): which L B
 * uses, B = N x L / (checks at once) with its interval, its share of W
 * and the projection without the checks; and when L is to be taken again
 * at the new programs' size.  Over the model (model/measure.h); nothing
 * here reads or prints. */
#ifndef EXECLAG_MEASURESTATS_H
#define EXECLAG_MEASURESTATS_H

#include "measure.h"

/* The rule: L is taken again at the new programs' median size when that is
 * more than this many times the probe's program (docs/measure.md). */
#define MEASURE_SIZE_RATIO 4
/* mkfresh --size pads at most 64 MiB (MAX_PAD); repro's SIZE the same */
#define MEASURE_MAX_PAD_BYTES (64LL * 1024 * 1024)

/* The padding at which L is to be taken again: the median less the probe's
 * program, at most MEASURE_MAX_PAD_BYTES (*capped 1 when it stopped
 * there); -1 when none is due (sizes unknown, or within the ratio). */
long long measure_reprobe_pad(long known, unsigned long long median, long long probe_bytes,
			      int *capped);

/* m->used: the L at the programs' size where that probe decided (slowdown
 * or none), else the probe's. */
void measure_choose_l(struct measure *m);

/* m->answer from N, the L used, whether checks queue and W; and the
 * remedy's projection (m->remedy) where a remedies run was read. */
void measure_compute(struct measure *m);

#endif
