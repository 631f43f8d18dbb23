/* gatelog.h - the calibration gate's log (docs/formats.md, "The calibration
 * gate's log"): micro/prog/gate.c writes it (--log FILE), one JSON object a
 * line.  This is its one reader: measure's gate block, and measure
 * --gate-log FILE for scripts/tool/bench-measure. */
#ifndef EXECLAG_GATELOG_H
#define EXECLAG_GATELOG_H

#include <stddef.h>

#include "measure.h"

/* What the log at PATH says the gate held, into *H: 0; -1 when it cannot
 * be opened (why: the system's word); -2 when a line is not one the gate
 * writes (why: "line N: WHAT"), H then zero. */
int gatelog_read(const char *path, struct gate_held *h, char *why, size_t len);

#endif
