/* report_md_parts.c - report.md's sections of the parts a run may have
 * beside its cases (run.h), one a model: the services and the log
 * (services_log.h), the suite (suitestats.h), the hyperfine cross-check
 * (hfcompare.h).  report_md.c places them in the document. */
#define _POSIX_C_SOURCE 200809L
#include "report_md.h"
#include "remedies_text.h"
#include "report_common.h"
#include "conditions.h"
#include "services_log.h"
#include "thresholds.h"
#include "util.h"

#include <math.h>
#include <string.h>

/* ---- the services and the log (services_log.h) -------------------------------------- */

static void md_services(const struct services_log *sl, const struct run *r, FILE *f)
{
	size_t i;
	int k;
	char cpu[64];

	fputs("## Assessment services\n\n"
	      "CPU time (user + system, read with `ps`) each service used between a sample "
	      "taken just before a case's first pass and one taken just after its repeat "
	      "pass. A process that ended between the two samples is not counted, so these "
	      "are lower bounds.\n\n", f);
	for (i = 0; i < sl->n_cases; i++) {
		const struct services_log_case *sc = &sl->cases[i];

		if (sc->svc_windows == 0) {
			fprintf(f, "- **%s** — %s.\n", r->cases[i].name, sc->svc_why);
			continue;
		}
		fprintf(f, "- **%s** — %ld fresh %s and their %ld %s (%d %s):\n",
			r->cases[i].name, sc->svc_fresh, report_plural(sc->svc_fresh, "launch", "launches"),
			sc->svc_repeat, report_plural(sc->svc_repeat, "repeat", "repeats"), sc->svc_windows,
			report_plural(sc->svc_windows, "window", "windows"));
		for (k = 0; k < N_SERVICES; k++) {
			int s = sc->svc_order[k];
			const struct svc_total *t = &sc->svc[s];

			fprintf(f, "  - %s used %s of CPU during %ld fresh %s (%ld %s",
				service_names[s], report_cpu_text(t, cpu, sizeof cpu), sc->svc_fresh,
				report_plural(sc->svc_fresh, "launch", "launches"), t->instances,
				report_plural(t->instances, "process", "processes"));
			if (t->ended)
				fprintf(f, ", %ld ended between the samples", t->ended);
			fputs(")\n", f);
		}
		if (sc->svc_windows < sc->windows)
			fprintf(f, "  - only %d of %d windows could be read: %s\n", sc->svc_windows,
				sc->windows, sc->svc_why[0] ? sc->svc_why : "the others have no file");
	}
	fputc('\n', f);
}

/* The steps' counts, and how long the checks took from first to last line. */
static void md_steps(const struct services_log_case *sc, FILE *f)
{
	size_t n = sc->checks_timed;
	int k;

	fputs("  - steps:", f);
	for (k = 0; k < N_STEPS; k++)
		fprintf(f, "%s %ld `%s`", k ? "," : "", sc->steps[k], services_log_steps[k].text);
	fputc('\n', f);
	if (n)
		fprintf(f, "  - from a check's first line to its last (lines carrying the same path): "
			"median %.1f ms, longest %.1f ms, over %zu %s\n", sc->check_median_ms,
			sc->check_max_ms, n, report_plural((long)n, "check", "checks"));
	else
		fputs("  - no check could be timed: no two lines carry the same path\n", f);
}

static void md_log(const struct services_log *sl, const struct run *r, FILE *f)
{
	size_t i;

	fputs("## Assessments in the unified log\n\n"
	      "Events syspolicyd (com.apple.syspolicy.exec and com.apple.syspolicy), "
	      "XprotectService and amfid logged "
	      "while each case ran (`log show`, from the start of the second in which the "
	      "first pass began to the end of the second in which the repeat pass ended); an "
	      "assessment is counted by its `GK performScan` event. The events are about "
	      "every program checked in that window, not only the kit's. The steps are the "
	      "documented lines of an assessment (docs/evidence.md, \"The unified log\"), "
	      "counted by their text; a check is timed from its first line to its last among "
	      "the lines that carry the same path (on newer macOS the `PST` lines carry a hash "
	      "of the path, so those are timed apart from the lines that name it).\n\n", f);
	for (i = 0; i < sl->n_cases; i++) {
		const struct services_log_case *sc = &sl->cases[i];

		if (sc->log_windows == 0) {
			fprintf(f, "- **%s** — %s.\n", r->cases[i].name, sc->log_why);
			continue;
		}
		fprintf(f, "- **%s** — %ld %s observed (`GK performScan`) for %ld fresh %s; "
			"%ld `GK scan complete`, %ld `GK process assessment`, %ld amfid and "
			"%ld XprotectService %s, %ld %s in all",
			r->cases[i].name, sc->performscan,
			report_plural(sc->performscan, "assessment", "assessments"), sc->log_fresh,
			report_plural(sc->log_fresh, "launch", "launches"), sc->scan_complete,
			sc->process_assessment, sc->amfid, sc->xprotect,
			report_plural(sc->xprotect, "event", "events"), sc->events,
			report_plural(sc->events, "event", "events"));
		if (sc->unreadable)
			fprintf(f, ", %ld unreadable %s", sc->unreadable,
				report_plural(sc->unreadable, "line", "lines"));
		fputs(".\n", f);
		md_steps(sc, f);
		if (sc->log_cut)
			fprintf(f, "  - the excerpt of %d %s reached the size limit: the counts are "
				"lower bounds\n", sc->log_cut, report_plural(sc->log_cut, "window", "windows"));
		if (sc->log_windows < sc->windows)
			fprintf(f, "  - only %d of %d windows could be read: %s\n", sc->log_windows,
				sc->windows, sc->log_why[0] ? sc->log_why : "the others have no file");
	}
	fputc('\n', f);
}

void md_services_log(const struct run *r, FILE *f)
{
	const struct services_log *sl = r->services_log;

	/* Off macOS, with nothing watched, run.json says why; the report
	 * stays about what was measured. */
	if (!sl || (!sl->any_files && !sl->darwin))
		return;
	md_services(sl, r, f);
	md_log(sl, r, f);
}

/* ---- the suite (suitestats.h): nothing where it did not run --------------------------- */

static const char *const pass_titles[SP_COUNT] = {
	"fresh", "re-run", "build", "first runs alone"
};

/* The passes of each J: wall times, CPU, the first-launch cost, its share
 * of the fresh pass and the per-launch penalty; then what did not run OK. */
static void md_suite_table(const struct suite_result *s, FILE *f)
{
	char a[32], b[32], c3[32], d[32], e[32], g[32], h[32], k[32], l[32], m[64];
	size_t i;
	int p;

	fputs("| J | fresh s | build s | first runs alone s | re-run s | CPU fresh | "
	      "CPU alone | CPU re-run | first-launch cost s (alone − re-run) | share of "
	      "fresh | alone − re-run a launch, ms [95% CI] | verdict |\n", f);
	fputs("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n", f);
	for (i = 0; i < s->n_configs; i++) {
		const struct suite_config *c = &s->configs[i];

		fprintf(f, "| %ld | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			c->jobs, report_seconds(c->pass[SP_FRESH].wall_ms, a, sizeof a),
			report_seconds(c->pass[SP_BUILD].wall_ms, c3, sizeof c3),
			report_seconds(c->pass[SP_ALONE].wall_ms, d, sizeof d),
			report_seconds(c->pass[SP_RERUN].wall_ms, b, sizeof b),
			report_percent(c->pass[SP_FRESH].utilisation, e, sizeof e),
			report_percent(c->pass[SP_ALONE].utilisation, h, sizeof h),
			report_percent(c->pass[SP_RERUN].utilisation, g, sizeof g),
			report_seconds(c->cost_ms, k, sizeof k),
			c->verdict == VERDICT_NONE ? "none measurable" : report_percent(c->share, l, sizeof l),
			report_penalty_text(&c->launch, m, sizeof m), stats_verdict_name(c->verdict));
	}
	fputc('\n', f);
	for (i = 0; i < s->n_configs; i++)
		for (p = 0; p < SP_COUNT; p++)
			if (s->configs[i].pass[p].failures)
				fprintf(f, "- J=%ld %s: %zu program%s did not compile or exit 0\n",
					s->configs[i].jobs, pass_titles[p], s->configs[i].pass[p].failures,
					s->configs[i].pass[p].failures == 1 ? "" : "s");
}

/* The projection to a large suite, per J, and the formula it comes from. */
static void md_suite_projection(const struct suite_result *s, FILE *f)
{
	size_t i;

	fputs("### Projection\n\n", f);
	for (i = 0; i < s->n_configs; i++) {
		fprintf(f, "- J=%ld: ", s->configs[i].jobs);
		report_projection(s, &s->configs[i], f);
		fprintf(f, ". Measured: %s.\n", s->configs[i].reason);
	}
	if (!isnan(s->penalty_ms))
		fprintf(f, "\nPer-launch penalty p = (A₁ − R₁) ÷ M = %.2f ms (measured at J = 1).\n",
			s->penalty_ms);
	else if (s->configs[0].jobs == 1)
		fprintf(f, "\nNo per-launch penalty p: at J = 1 the first-launch cost was %s "
			"(%s).\n", s->configs[0].verdict == VERDICT_NONE ? "not measurable" :
			"not shown", stats_verdict_name(s->configs[0].verdict));
	else
		fputs("\nNo per-launch penalty p: the suite was not run at J = 1.\n", f);
	fprintf(f, "\nFormula: X_J = N × p ÷ s_J = N × (A_J − R_J) ÷ M, with N = %ld programs, "
		"A_J and R_J the wall times of the first-runs-alone and re-run passes at J "
		"jobs, M the programs per pass, p = (A₁ − R₁) ÷ M the per-launch penalty at "
		"J = 1 and s_J = M × p ÷ (A_J − R_J) the number of first-launch checks the "
		"machine overlapped at J jobs (1 when they queue on one checker). "
		"It is a lower bound on the wall time those checks take at the measured "
		"overlap, and is given only where the per-launch penalty's interval lies above "
		"the floor every case is held to: %g ms, or %g × an unloaded launch (the re-runs' "
		"lower quartile) where that is more. "
		"The share of the fresh pass is (A_J − R_J) ÷ fresh wall. See docs/method.md.\n\n",
		SUITE_PROJECT_PROGRAMS, PENALTY_FLOOR_MS, FLOOR_SHARE);
}

void md_suite(const struct run *r, FILE *f)
{
	const struct suite_result *s = r->suite;

	if (!s)
		return;
	fprintf(f, "## Test suite\n\n");
	fprintf(f, "%ld small C programs (each with a nonce), each compiled with `%s` and "
		"run, J at a time. Passes, in the order run: **fresh** (compile + first "
		"run), **build** (compile %ld new programs; not part of the next pass), "
		"**first runs alone** (the new programs' first runs only), **re-run** (the "
		"fresh pass's binaries again). Wall times in seconds; CPU is the pass's CPU "
		"time ÷ (wall × cores).\n\n",
		s->configs[0].m, s->configs[0].cc, s->configs[0].m);
	md_suite_table(s, f);
	md_suite_projection(s, f);
}

/* ---- the hyperfine cross-check (hfcompare.h): nothing where not attempted ----------------- */

void md_hyperfine(const struct run *r, FILE *f)
{
	const struct hf_result *h = r->hyperfine;
	char a[32], b[32], c3[32], d[32], e[32], g[32];
	size_t i;

	if (!h)
		return;
	fputs("## hyperfine cross-check\n\n", f);
	if (strcmp(h->status, "done") != 0) {
		fprintf(f, "Cross-check %s: %s.\n\n", h->status,
			h->note ? h->note : "no reason recorded");
		return;
	}
	fprintf(f, "hyperfine %s, %ld runs each: \"every run a first run\" is `hyperfine -N "
		"--prepare <a new file renamed over the same path> --runs %ld`, the repeat "
		"`hyperfine -N --warmup 3 --runs %ld`. The new file has the same bytes and a "
		"new inode, so it shows a first-launch penalty only where the cache is keyed "
		"by inode (compare the exe-rewrite case). Medians in ms; penalty = first "
		"median − repeat median for both instruments.\n\n",
		h->version ? h->version : "?", h->runs, h->runs, h->runs);
	fputs("| case | hyperfine first | hyperfine repeat | hyperfine penalty | harness "
	      "first | harness repeat | harness penalty | harness config | result |\n", f);
	fputs("|---|---:|---:|---:|---:|---:|---:|---|---|\n", f);
	for (i = 0; i < h->n_cases; i++) {
		const struct hf_case *c = &h->cases[i];
		char cfg[64];

		if (c->have_harness)
			snprintf(cfg, sizeof cfg, "T=%ld %s", c->harness_threads, c->harness_class);
		else
			snprintf(cfg, sizeof cfg, "-");
		fprintf(f, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c->name,
			num2(c->hf[HF_FIRST], a, sizeof a), num2(c->hf[HF_REPEAT], b, sizeof b),
			num2(c->hf[HF_PENALTY], c3, sizeof c3), num2(c->harness[HF_FIRST], d, sizeof d),
			num2(c->harness[HF_REPEAT], e, sizeof e),
			num2(c->harness[HF_PENALTY], g, sizeof g), cfg, report_agree_word(c));
	}
	fputc('\n', f);
	for (i = 0; i < h->n_cases; i++)
		fprintf(f, "- %s: %s — %s.\n", h->cases[i].name, report_agree_word(&h->cases[i]),
			h->cases[i].reason);
	if (h->agree == 0)
		fputs("\nThe two instruments ran one after the other: other work on the machine "
		      "during one of them is enough to part medians of about a millisecond. "
		      "Run again on a quiet machine before reading a disagreement as a fault of "
		      "either instrument.\n", f);
	fprintf(f, "\nTolerance: two values agree when they differ by at most the larger of "
		"%g%% of the harness's value and %g ms, plus both instruments' noise: the "
		"half-widths of the medians' %g%% intervals, added in quadrature (for a "
		"penalty, all four medians'), so that a busy machine widens it (each of "
		"first median, repeat median and penalty; the tolerances are in each case's "
		"line above). See "
		"docs/method.md.\n\n", HF_TOLERANCE_REL * 100.0, HF_TOLERANCE_MS,
		MEDIAN_NOISE_COVERAGE * 100.0);
}

/* What the case's log excerpts said of its killed programs, after the
 * count: "; the log: N kernel lines of them (M: the file changed after its
 * signature was loaded)", or "; nothing in the log of them"; nothing where
 * no excerpt was read (off macOS). */
static void md_kill_log(const struct case_result *cr, FILE *f)
{
	size_t j, lines = 0, changed = 0;
	int read = 0;

	for (j = 0; j < cr->n_configs; j++) {
		read |= cr->configs[j]->kill_log_read;
		lines += cr->configs[j]->kill_log_lines;
		changed += cr->configs[j]->kill_log_changed;
	}
	if (!read)
		return;
	if (lines == 0) {
		fputs("; nothing in the log of them", f);
		return;
	}
	fprintf(f, "; the log: %zu kernel line%s of them", lines, lines == 1 ? "" : "s");
	if (changed)
		fprintf(f, " (%zu: a page rejected because the file changed after its signature "
			"was loaded, cs_mtime != mtime)", changed);
}

/* ## Killed launches: each case whose first launches the system ended
 * before the program ran (launch's killed records), counted; nothing
 * where none was. */
void md_kills(const struct run *r, FILE *f)
{
	char text[96];
	size_t i, killed, of;
	int any = 0;

	for (i = 0; i < r->n_cases; i++) {
		if (!stats_case_kills(&r->cases[i], &killed, &of) || killed == 0)
			continue;
		if (!any++)
			fputs("## Killed launches\n\nA first launch the system ended before the program "
			      "ran (SIGKILL the kit did not send, or EPERM at exec: a checker's refusal) "
			      "is a finding, kept apart: never a time, never a failure.\n\n", f);
		fprintf(f, "- %s: %s", r->cases[i].name, report_kills_text(killed, of, text, sizeof text));
		md_kill_log(&r->cases[i], f);
		fputc('\n', f);
	}
	if (any)
		fputc('\n', f);
}

/* ## Not applicable here: the cases this machine could not make (the
 * conditions' na.CASE lines, "CASE: WHY": scripts/repro); nothing where
 * none was. */
void md_not_here(const struct run *r, FILE *f)
{
	size_t i;
	int any = 0;

	for (i = 0; i < r->n_conditions; i++) {
		if (strncmp(r->conditions[i].key, "na.", 3) != 0)
			continue;
		if (!any++)
			fputs("## Not applicable here\n\nA case this machine cannot make is n/a, "
			      "not a failure; the run went on without it.\n\n", f);
		fprintf(f, "- %s\n", r->conditions[i].value);
	}
	if (any)
		fputc('\n', f);
}

/* ---- make remedies' table (remedies.h): nothing in any other run ------------------------ */

void md_remedies(const struct run *r, FILE *f)
{
	const struct remedies *t = r->remedies;
	char cells[N_RCOLS][REMEDY_CELL];
	size_t i;
	int c;

	if (!t)
		return;
	fputs("## Remedies: where a build puts a program\n\n"
	      "Each placement's first launch at the headline's threads and class (the paired "
	      "penalty and its 95% interval), what it saves against a new file (exe; its "
	      "interval from the far ends of the two), the first launches the system killed "
	      "with the kill rate's exact 95% interval (Clopper–Pearson; none killed: the "
	      "one-sided bound 1 − 0.05^(1/N)), and who does it; docs/remedies.md has the "
	      "sources.\n\n", f);
	for (i = 0; i <= t->n_rows; i++) {
		remedies_cells(i == 0 ? NULL : &t->rows[i - 1], cells);
		for (c = 0; c < N_RCOLS; c++)
			fprintf(f, "| %s ", cells[c]);
		fputs("|\n", f);
		if (i == 0)
			fputs("|---|---:|---:|---:|---|---|---|\n", f);
	}
	fputc('\n', f);
	remedies_print_lines(t, "- ", f);
	fputc('\n', f);
}
