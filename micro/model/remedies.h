/* remedies.h - the model of the remedies table (make remedies, issue 42;
 * docs/remedies.md): each placement of a run (a way a build puts a program
 * in place, a case of the placements table, micro/stats/placements.h) with
 * its first-launch cost, what it saves against a new file, its kills and
 * their rate, and which placement to use here and which to avoid.
 * Computed by micro/stats/remedies.c (the kill rate's interval by
 * micro/stats/killrate.c), shown by the writers of micro/report.  Types
 * only. */
#ifndef EXECLAG_REMEDIES_H
#define EXECLAG_REMEDIES_H

#include <stddef.h>

/* A kill rate: KILLED of OF launches, with its exact (Clopper-Pearson)
 * 95% interval, as fractions (0.0013 for 0.13%): for 0 kills the
 * one-sided upper bound 1 - 0.05^(1/OF) (low 0, one_sided 1); else the
 * two-sided interval.  OF 0: nothing launched, every number NAN. */
struct kill_rate {
	size_t killed, of;
	double estimate, low, high;
	int one_sided;
};

/* What the table says of a placement, beyond its numbers. */
enum remedy_mark {
	REMEDY_PLAIN,   /* neither to use nor to avoid */
	REMEDY_USE,     /* the one to use here: lowest cost with no kill seen */
	REMEDY_AVOID    /* to avoid: killed, changed code never checked, or highest cost */
};

/* One placement of the run. */
struct remedy_row {
	/* its row of the placements table (micro/stats/placements.c), or as
	 * run.json gave it: the case's name, what it is, who does it */
	const char *name, *what, *tools;
	/* the first launch's cost: the headline's paired penalty and interval */
	double cost_ms, cost_low, cost_high;
	/* what it saves against a new file: exe's cost minus its own, the
	 * interval from the two intervals' far ends (conservative); NAN for
	 * the baseline itself or without exe */
	double saves_ms, saves_low, saves_high;
	const char *verdict;      /* the headline's verdict, in run.json's words */
	struct kill_rate kills;   /* of its first launches */
	int unchecked;            /* new bytes that cost no check: changed code never checked */
	enum remedy_mark mark;
};

struct remedies {
	struct remedy_row *rows; /* the placements table's order */
	size_t n_rows;
	const struct remedy_row *baseline; /* exe, the new file; NULL: not run */
	const struct remedy_row *use;      /* NULL: none safe, or nothing pays here */
	int nothing_pays;                  /* the new file pays nothing here */
};

#endif
