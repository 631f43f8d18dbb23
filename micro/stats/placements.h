/* placements.h - the placements table: every way a build puts a program in
 * place that the kit has a case for (docs/remedies.md), a row each of
 * cases/placements (docs/formats.md, "Placements"): the case's name, what
 * it is, whether it is the new file the others are paired against or puts
 * new bytes under a launched file's inode, and which tools do it, each
 * with its source.  The remedies table's rows (remediesstats.h) and the
 * writers' words come from here, make remedies' case list from the same
 * file (scripts/lib/cases), so a new placement case is a row.  A row whose
 * case a run does not have is simply not in that run's table. */
#ifndef EXECLAG_PLACEMENTS_H
#define EXECLAG_PLACEMENTS_H

#include <stddef.h>

struct placement {
	const char *name;     /* the case (cases/NAME.case) */
	const char *what;     /* what it is, a few words */
	int baseline;         /* the new file every other is paired against */
	/* new bytes under the launched file's inode and path: where it costs
	 * no check while a new file does, changed code was never checked */
	int new_bytes_in_place;
	const char *tools;    /* who does this, each with its source */
};

extern const struct placement placements[];
extern const size_t n_placements;

#endif
