/* assessed.h - the assessments beside a manifest (docs/formats.md,
 * "Assessments beside the manifest"): MANIFEST.assessed, what mkfresh's
 * exe-assessed artifacts went through before their launch, one line a
 * step.  Its only reader (analyze, beside each config's manifest). */
#ifndef EXECLAG_ASSESSED_H
#define EXECLAG_ASSESSED_H

#include "config.h"

#include <stddef.h>

/* Read path's steps into *recs (malloc'd, in the file's order) and *n.
 * 0; -1 where there is no such file (every other case, an older or a
 * simulated run: nothing is said).  A line that is not a step exits 2
 * with "PATH:LINE: not an assessment (INDEX, TOOL, MS, STATUS): WHY". */
int assessed_read(const char *path, struct assess_rec **recs, size_t *n);

#endif
