/* runrow.h - a run.json (docs/run.schema.json) read as one row of
 * aggregate's table: the machine class (never a host or user name), the
 * conditions in the table's words, and per case the penalty with its
 * interval, the verdict and the serialisation.  The file is read and
 * checked by runjson.c; this turns it into text a table line can hold
 * (control characters become spaces, "?" where a value is missing). */
#ifndef EXECLAG_RUNROW_H
#define EXECLAG_RUNROW_H

#include <stddef.h>

struct cell {
	char *name;
	double median, low, high; /* NAN when null */
	char *verdict;
	char *serialisation;
};

struct row {
	char *run_id;
	char *chip, *model, *os, *arch, *cores;
	char *sip, *assessments, *devtools, *network, *gate;
	char *cache_key;
	/* for the plot's colours: "macOS, SIP on", "macOS, Developer Tools",
	 * "macOS, other", "Linux", "Linux, gate", "Linux, gate, exempt",
	 * "simulated" or "other" (a string constant) */
	const char *group;
	struct cell *cells;
	size_t n_cells;
};

/* Read the run.json at PATH into ROW: 0, or -1 with WHY set and nothing
 * left to free (a file aggregate passes over with a warning). */
int runrow_read(const char *path, struct row *row, char *why, size_t len);
/* Free what runrow_read allocated; ROW is left zeroed. */
void runrow_free(struct row *row);

#endif
