/* placements.c - the placements table (placements.h): cases/placements'
 * rows, generated into PLACEMENT_ROWS at build time (scripts/tool/casegen
 * --placements). */
#include "placements.h"
#include "placements_gen.h" /* PLACEMENT_ROWS: PLACEMENT(CASE, BASELINE, INPLACE, WHAT, TOOLS) */

#include <string.h>

const struct placement placements[] = {
#define PLACEMENT(name, baseline, inplace, what, tools) { name, what, baseline, inplace, tools },
	PLACEMENT_ROWS
#undef PLACEMENT
};
const size_t n_placements = sizeof placements / sizeof placements[0];

const struct placement *placement_find(const char *name)
{
	size_t i;

	for (i = 0; i < n_placements; i++)
		if (strcmp(placements[i].name, name) == 0)
			return &placements[i];
	return NULL;
}
