/* remedies.c - the remedies table from a run's cases (remediesstats.h;
 * docs/remedies.md, issue 42). */
#define _POSIX_C_SOURCE 200809L
#include "remediesstats.h"
#include "killrate.h"
#include "placements.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct case_result *find_case(const struct case_result *cases, size_t n,
					   const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(cases[i].name, name) == 0)
			return &cases[i];
	return NULL;
}

/* ROW's numbers from its case: the headline's penalty, every config's kills */
static void row_of(struct remedy_row *row, const struct placement *p, const struct case_result *cr)
{
	const struct config *h = cr->headline;
	size_t i, killed = 0, of = 0;

	memset(row, 0, sizeof *row);
	row->name = p->name;
	row->what = p->what;
	row->tools = p->tools;
	row->cost_ms = h ? h->penalty.median_ms : NAN;
	row->cost_low = h ? h->penalty.ci_low_ms : NAN;
	row->cost_high = h ? h->penalty.ci_high_ms : NAN;
	row->verdict = h ? stats_verdict_name(h->verdict) : "inconclusive";
	row->saves_ms = row->saves_low = row->saves_high = NAN;
	for (i = 0; i < cr->n_configs; i++) {
		killed += cr->configs[i]->killed;
		of += cr->configs[i]->killed_of;
	}
	stats_kill_rate(killed, of, &row->kills);
}

/* What ROW saves against the new file BASE: the difference of the two
 * costs, its interval from the far ends of theirs */
static void saves(struct remedy_row *row, const struct remedy_row *base)
{
	row->saves_ms = base->cost_ms - row->cost_ms;
	row->saves_low = base->cost_low - row->cost_high;
	row->saves_high = base->cost_high - row->cost_low;
}

static int pays(const struct remedy_row *r)
{
	return strcmp(r->verdict, "slowdown") == 0;
}

/* whether R may be used: no kill seen, no changed code left unchecked, not
 * the new file itself, not hung, its cost known */
static int usable(const struct remedies *t, const struct remedy_row *r)
{
	return r->kills.killed == 0 && !r->unchecked && r != t->baseline &&
	       strcmp(r->verdict, "hang") != 0 && !isnan(r->cost_ms);
}

/* The placement to use: the lowest cost among the usable; where others
 * cannot be told from it (their interval reaches below its upper end),
 * the first of them in the table's order, so that noise between two
 * placements that cost alike does not choose */
static struct remedy_row *choose_use(struct remedies *t)
{
	struct remedy_row *low = NULL;
	double reach;
	size_t i;

	for (i = 0; i < t->n_rows; i++)
		if (usable(t, &t->rows[i]) && (!low || t->rows[i].cost_ms < low->cost_ms))
			low = &t->rows[i];
	if (!low)
		return NULL;
	reach = isnan(low->cost_high) ? low->cost_ms : low->cost_high;
	for (i = 0; i < t->n_rows; i++) {
		struct remedy_row *r = &t->rows[i];
		double from = isnan(r->cost_low) ? r->cost_ms : r->cost_low;

		if (usable(t, r) && from <= reach)
			return r;
	}
	return low;
}

void stats_remedies_decide(struct remedies *t)
{
	struct remedy_row *use, *worst = NULL;
	int avoided = 0;
	size_t i;

	t->nothing_pays = t->baseline && strcmp(t->baseline->verdict, "none") == 0;
	for (i = 0; i < t->n_rows; i++) {
		struct remedy_row *r = &t->rows[i];

		r->unchecked = r->unchecked && t->baseline && pays(t->baseline);
		r->mark = REMEDY_PLAIN;
		if (r->kills.killed > 0 || r->unchecked) {
			r->mark = REMEDY_AVOID;
			avoided = 1;
		}
	}
	use = choose_use(t);
	for (i = 0; i < t->n_rows; i++)
		if (usable(t, &t->rows[i]) && (!worst || t->rows[i].cost_ms > worst->cost_ms))
			worst = &t->rows[i];
	/* nothing killed, nothing unchecked: the costliest, where it pays */
	if (!avoided && worst && worst != use && pays(worst))
		worst->mark = REMEDY_AVOID;
	if (use)
		use->mark = REMEDY_USE;
	t->use = use;
}

struct remedies *stats_remedies(const struct case_result *cases, size_t n_cases)
{
	struct remedies *t = xmalloc(sizeof *t);
	size_t i, others = 0;

	memset(t, 0, sizeof *t);
	t->rows = xmalloc(n_placements * sizeof *t->rows);
	for (i = 0; i < n_placements; i++) {
		const struct case_result *cr = find_case(cases, n_cases, placements[i].name);
		struct remedy_row *row = &t->rows[t->n_rows];

		if (!cr)
			continue;
		row_of(row, &placements[i], cr);
		row->unchecked = placements[i].new_bytes_in_place && strcmp(row->verdict, "none") == 0;
		if (placements[i].baseline)
			t->baseline = row;
		else
			others++;
		t->n_rows++;
	}
	if (others == 0) {
		stats_remedies_free(t);
		return NULL;
	}
	for (i = 0; t->baseline && i < t->n_rows; i++)
		if (&t->rows[i] != t->baseline)
			saves(&t->rows[i], t->baseline);
	stats_remedies_decide(t);
	return t;
}

void stats_remedies_free(struct remedies *t)
{
	if (!t)
		return;
	free(t->rows);
	free(t);
}
