/* remedies_text.c - the remedies table in words (remedies_text.h). */
#define _POSIX_C_SOURCE 200809L
#include "remedies_text.h"
#include "killrate.h"
#include "report_common.h"
#include "util.h"

#include <math.h>
#include <string.h>

/* "12.34 [10.00, 15.00]", "12.34 [no interval]" or "-", as the results
 * table says a penalty */
static const char *ms_text(double v, double lo, double hi, char *buf, size_t len)
{
	struct penalty p;

	p.median_ms = v;
	p.ci_low_ms = isnan(hi) ? NAN : lo;
	p.ci_high_ms = hi;
	p.coverage = NAN;
	return report_penalty_text(&p, buf, len);
}

const char *remedies_kills_text(const struct kill_rate *k, char *buf, size_t len)
{
	char a[32], b[32];

	snprintf(buf, len, "%s of %s", count_text(k->killed, a, sizeof a), count_text(k->of, b, sizeof b));
	return buf;
}

static const char *mark_word(enum remedy_mark m)
{
	return m == REMEDY_USE ? "use here" : m == REMEDY_AVOID ? "avoid" : "";
}

void remedies_cells(const struct remedy_row *row, char cells[N_RCOLS][REMEDY_CELL])
{
	static const char *const head[N_RCOLS] = {
		"placement", "first launch ms [95% CI]", "saves ms [95% CI]", "killed",
		"kill rate (95%)", "verdict", ""
	};
	int i;

	if (!row) {
		for (i = 0; i < N_RCOLS; i++)
			snprintf(cells[i], REMEDY_CELL, "%s", head[i]);
		return;
	}
	snprintf(cells[RCOL_PLACEMENT], REMEDY_CELL, "%s", row->name);
	ms_text(row->cost_ms, row->cost_low, row->cost_high, cells[RCOL_COST], REMEDY_CELL);
	ms_text(row->saves_ms, row->saves_low, row->saves_high, cells[RCOL_SAVES], REMEDY_CELL);
	remedies_kills_text(&row->kills, cells[RCOL_KILLS], REMEDY_CELL);
	stats_kill_rate_words(&row->kills, cells[RCOL_RATE], REMEDY_CELL);
	snprintf(cells[RCOL_VERDICT], REMEDY_CELL, "%s", row->verdict);
	snprintf(cells[RCOL_MARK], REMEDY_CELL, "%s", mark_word(row->mark));
}

/* the width a cell takes on a terminal: UTF-8's continuation bytes take none */
static int text_width(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

void remedies_print_table(const struct remedies *t, FILE *f)
{
	char cells[N_RCOLS][REMEDY_CELL];
	int width[N_RCOLS] = { 0 };
	size_t i;
	int c;

	for (i = 0; i <= t->n_rows; i++) {
		remedies_cells(i == 0 ? NULL : &t->rows[i - 1], cells);
		for (c = 0; c < N_RCOLS; c++)
			if (text_width(cells[c]) > width[c])
				width[c] = text_width(cells[c]);
	}
	for (i = 0; i <= t->n_rows; i++) {
		int last = N_RCOLS - 1;

		remedies_cells(i == 0 ? NULL : &t->rows[i - 1], cells);
		while (last > 0 && !cells[last][0])
			last--; /* no blanks after the last word */
		for (c = 0; c < last; c++)
			fprintf(f, "%s%*s  ", cells[c], width[c] - text_width(cells[c]), "");
		fprintf(f, "%s\n", cells[last]);
	}
}

/* "killed 0 of 20 (at most 13.91%)" */
static void kills_words(const struct kill_rate *k, char *buf, size_t len)
{
	char kt[64], rate[64];

	snprintf(buf, len, "killed %s (%s)", remedies_kills_text(k, kt, sizeof kt),
		 stats_kill_rate_words(k, rate, sizeof rate));
}

static void print_line(const struct remedy_row *r, const char *prefix, FILE *f)
{
	char cost[96], saved[96], kills[160];

	ms_text(r->cost_ms, r->cost_low, r->cost_high, cost, sizeof cost);
	kills_words(&r->kills, kills, sizeof kills);
	fprintf(f, "%s%s, %s: first launch %s ms", prefix, r->name, r->what, cost);
	if (!isnan(r->saves_ms))
		fprintf(f, ", saves %s ms against a new file",
			ms_text(r->saves_ms, r->saves_low, r->saves_high, saved, sizeof saved));
	fprintf(f, ", %s", kills);
	if (r->unchecked)
		fputs(", changed code never checked", f);
	fprintf(f, "; who does it: %s\n", r->tools ? r->tools : "-");
}

static void use_text(const struct remedies *t, char *buf, size_t len)
{
	const struct remedy_row *u = t->use;
	char cost[96], kills[160];

	if (!u) {
		snprintf(buf, len, "use here: none: every placement but a new file was killed or left "
			 "changed code unchecked");
		return;
	}
	ms_text(u->cost_ms, u->cost_low, u->cost_high, cost, sizeof cost);
	kills_words(&u->kills, kills, sizeof kills);
	snprintf(buf, len, "use here: %s (%s), the lowest first-launch cost with no kill seen: "
		 "%s ms, %s%s", u->name, u->what, cost, kills,
		 t->nothing_pays ? "; a new file pays nothing here either" : "");
}

static void avoid_text(const struct remedies *t, char *buf, size_t len)
{
	size_t i, o;
	int any = 0;

	o = (size_t)snprintf(buf, len, "avoid: ");
	for (i = 0; i < t->n_rows && o < len; i++) {
		const struct remedy_row *r = &t->rows[i];
		char why[200], cost[96], kt[64], rate[64];

		if (r->mark != REMEDY_AVOID)
			continue;
		if (r->kills.killed > 0)
			snprintf(why, sizeof why, "killed %s: %s",
				 remedies_kills_text(&r->kills, kt, sizeof kt),
				 stats_kill_rate_words(&r->kills, rate, sizeof rate));
		else if (r->unchecked)
			snprintf(why, sizeof why, "changed code never checked: its new bytes cost no "
				 "check where a new file pays");
		else
			snprintf(why, sizeof why, "the highest first-launch cost: %s ms",
				 ms_text(r->cost_ms, r->cost_low, r->cost_high, cost, sizeof cost));
		o += (size_t)snprintf(buf + o, len - o, "%s%s (%s)", any ? ", " : "", r->name, why);
		any = 1;
	}
	if (!any && o < len)
		snprintf(buf + o, len - o, "none here: no kill seen, no changed code left unchecked, "
			 "%s", t->baseline && strcmp(t->baseline->verdict, "slowdown") == 0
				       ? "and no placement but a new file pays"
				       : "and no placement was seen to pay");
}

void remedies_print_lines(const struct remedies *t, const char *prefix, FILE *f)
{
	char buf[1024];
	size_t i;

	for (i = 0; i < t->n_rows; i++)
		print_line(&t->rows[i], prefix, f);
	use_text(t, buf, sizeof buf);
	fprintf(f, "%s%s\n", prefix, buf);
	avoid_text(t, buf, sizeof buf);
	fprintf(f, "%s%s\n", prefix, buf);
}
