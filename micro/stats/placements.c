/* placements.c - the placements table (placements.h): cases/placements'
 * rows, generated into PLACEMENT_ROWS at build time (scripts/tool/casegen
 * --placements). */
#include "placements.h"
#include "placements_gen.h" /* PLACEMENT_ROWS: PLACEMENT(CASE, BASELINE, INPLACE, WHAT, TOOLS) */

const struct placement placements[] = {
#define PLACEMENT(name, baseline, inplace, what, tools) { name, what, baseline, inplace, tools },
	PLACEMENT_ROWS
#undef PLACEMENT
};
const size_t n_placements = sizeof placements / sizeof placements[0];
