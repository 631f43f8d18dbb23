/* remedies_test.c - the remedies table's marks (micro/stats/remedies.c,
 * stats_remedies_decide) on rows built here: the placement to use is the
 * lowest cost with no kill seen, the new file aside (of those its interval
 * cannot tell from it, the first in the table's order); a kill seen or
 * changed code never checked is avoided whatever it costs; without either,
 * the costliest that pays; a new file that pays nothing says so. */
#define _POSIX_C_SOURCE 200809L
#include "../../micro/stats/killrate.h"
#include "../../micro/stats/remediesstats.h"
#include "check.h"

static struct remedy_row row(const char *name, double cost, const char *verdict, size_t killed,
			     int unchecked)
{
	struct remedy_row r;

	memset(&r, 0, sizeof r);
	r.name = name;
	r.cost_ms = cost;
	r.cost_low = cost - 1;
	r.cost_high = cost + 1;
	r.verdict = verdict;
	r.unchecked = unchecked;
	stats_kill_rate(killed, 3840, &r.kills);
	return r;
}

static const char *marks(const struct remedies *t, char *buf, size_t len)
{
	static const char code[] = { '.', 'U', 'A' };
	size_t i;

	for (i = 0; i < t->n_rows && i + 1 < len; i++)
		buf[i] = code[t->rows[i].mark];
	buf[i] = '\0';
	return buf;
}

int main(void)
{
	struct remedy_row rows[6];
	struct remedies t;
	char m[8];

	/* a Mac as the sources say: the fresh link killed 5 of 3,840, the
	 * overwrite unchecked, the old link free, the copy and clone pay */
	rows[0] = row("exe", 150, "slowdown", 0, 0);
	rows[1] = row("exe-hardlink", 0.5, "none", 0, 0);
	rows[2] = row("exe-freshlink", 0.2, "none", 5, 0);
	rows[3] = row("exe-copy", 150, "slowdown", 0, 0);
	rows[4] = row("exe-overwrite", 0.1, "none", 0, 1);
	rows[5] = row("exe-clone", 151, "slowdown", 0, 0);
	memset(&t, 0, sizeof t);
	t.rows = rows;
	t.n_rows = 6;
	t.baseline = &rows[0];
	stats_remedies_decide(&t);
	check_str(t.use ? t.use->name : NULL, "exe-hardlink",
		  "use: the lowest cost with no kill seen, not the killed or the unchecked");
	check_str(marks(&t, m, sizeof m), ".UA.A.", "avoid: the killed and the unchecked, not the costliest");
	CHECK(!t.nothing_pays, "a new file pays: nothing_pays 0");

	/* no kill, nothing unchecked: the costliest that pays is avoided; the
	 * fresh link (0.2 ms [-0.8, 1.2]) cannot be told from the hard link
	 * (0.5 ms [-0.5, 1.5]), which comes first in the table */
	rows[2] = row("exe-freshlink", 0.2, "none", 0, 0);
	rows[4] = row("exe-rewrite", 150.5, "slowdown", 0, 0);
	stats_remedies_decide(&t);
	check_str(t.use ? t.use->name : NULL, "exe-hardlink",
		  "use: of two the intervals cannot tell apart, the first in the table");
	check_str(marks(&t, m, sizeof m), ".U...A", "avoid: the costliest (exe-clone, 151 ms)");
	/* told apart: the lowest, wherever it is in the table */
	rows[1] = row("exe-hardlink", 5.0, "slowdown", 0, 0);
	stats_remedies_decide(&t);
	check_str(t.use ? t.use->name : NULL, "exe-freshlink", "use: the lowest, told apart from the rest");

	/* the unchecked flag counts only where a new file pays */
	rows[0] = row("exe", 0.1, "none", 0, 0);
	rows[1] = row("exe-overwrite", 0.0, "none", 0, 1);
	rows[3] = row("exe-copy", 0.2, "none", 0, 0);
	rows[4] = row("exe-rewrite", 0.3, "none", 0, 0);
	rows[5] = row("exe-clone", 0.4, "inconclusive", 0, 0);
	stats_remedies_decide(&t);
	CHECK(t.nothing_pays, "a new file pays nothing: nothing_pays 1");
	check_str(t.use ? t.use->name : NULL, "exe-overwrite",
		  "nothing is checked here: an overwrite is no worse than the rest");
	check_str(marks(&t, m, sizeof m), ".U....", "nothing pays: nothing to avoid");

	/* every placement killed: none to use */
	rows[0] = row("exe", 150, "slowdown", 0, 0);
	t.n_rows = 3;
	rows[1] = row("exe-hardlink", 0.5, "none", 1, 0);
	rows[2] = row("exe-freshlink", 0.2, "none", 5, 0);
	stats_remedies_decide(&t);
	CHECK(t.use == NULL, "every placement killed: no use");
	check_str(marks(&t, m, sizeof m), ".AA", "both killed placements avoided");
	return check_done();
}
