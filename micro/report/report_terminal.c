/* report_terminal.c - what analyze prints: the results table, a row a
 * config, and under it the run's notes and a line or more per model
 * (report.h): the cases' verdicts and the cache key, the services and the
 * log, the suite, the hyperfine cross-check. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"
#include "report_common.h"
#include "services_log.h"
#include "conditions.h"
#include "remedies_text.h"

#include <string.h>

/* ---- the table ----------------------------------------------------------------------- */

static void print_row(FILE *f, char cells[N_COLS][CELL_MAX], const int *width)
{
	int i;

	for (i = 0; i < N_COLS; i++) {
		if (i == N_COLS - 1)
			fprintf(f, "%s\n", cells[i]);
		else
			fprintf(f, "%-*s  ", width[i], cells[i]);
	}
}

static void widen(int *width, char cells[N_COLS][CELL_MAX])
{
	int i;

	for (i = 0; i < N_COLS; i++) {
		int len = (int)strlen(cells[i]);

		if (len > width[i])
			width[i] = len;
	}
}

/* ---- the run's cases ---------------------------------------------------------------- */

static void print_case_lines(const struct run *r, FILE *f)
{
	char text[96], assessed[512];
	size_t i, j, killed, of;

	for (i = 0; i < r->n_cases; i++) {
		const struct case_result *cr = &r->cases[i];

		fprintf(f, "%s: %s", cr->name, stats_verdict_name(cr->headline->verdict));
		if (cr->serialisation != SERIAL_NA)
			fprintf(f, " (%s)", stats_serialisation_name(cr->serialisation));
		fprintf(f, " — %s\n", cr->headline->reason);
		if (report_has_reference(cr->headline) && cr->headline->ref_verdict == VERDICT_SLOWDOWN)
			fprintf(f, "%s: every launch in the work folder costs %.2f ms more than "
				"outside, first or repeat — %s\n", cr->name,
				cr->headline->ref_cost.median_ms, cr->headline->ref_reason);
		if (stats_case_kills(cr, &killed, &of) && killed > 0)
			fprintf(f, "%s: %s (the system ended them before the program ran; "
				"not counted as times)\n", cr->name,
				report_kills_text(killed, of, text, sizeof text));
		if (cr->n_assessed > 0)
			fprintf(f, "%s: assessed first, apart from the launch: %s\n", cr->name,
				report_assessed_text(cr, assessed, sizeof assessed));
		for (j = 0; j < cr->n_slopes; j++)
			fprintf(f, "%s: against size (T=%ld, class %s): %s — %s\n", cr->name,
				cr->slopes[j].threads, cr->slopes[j].class_name,
				stats_verdict_name(cr->slopes[j].verdict), cr->slopes[j].reason);
	}
	/* the cases this machine could not make (scripts/repro: na.CASE) */
	for (i = 0; i < r->n_conditions; i++)
		if (strncmp(r->conditions[i].key, "na.", 3) == 0)
			fprintf(f, "%s (n/a here, not run)\n", r->conditions[i].value);
	fprintf(f, "cache key: %s — %s\n", stats_cache_key_name(r->inference.key),
		r->inference.reason);
}

/* ---- the services and the log (services_log.h) ------------------------------------------ */

/* One line: how long the checks took in the log, where any was timed. */
static void print_check_times(const struct services_log_case *sc, const char *name, FILE *f)
{
	if (sc->checks_timed)
		fprintf(f, "%s: a check took %.1f ms from its first log line to its last "
			"(median of %zu; longest %.1f ms)\n", name, sc->check_median_ms,
			sc->checks_timed, sc->check_max_ms);
}

static void print_services_log(const struct run *r, FILE *f)
{
	const struct services_log *sl = r->services_log;
	size_t i;
	int k, svc_any = 0, log_any = 0;
	char cpu[64];

	if (!sl || (!sl->any_files && !sl->darwin))
		return;
	for (i = 0; i < sl->n_cases; i++) {
		const struct services_log_case *sc = &sl->cases[i];

		const int *order = sc->svc_order;

		if (sc->svc_windows > 0) {
			svc_any = 1;
			fprintf(f, "%s: %s used %s of CPU during %ld fresh %s", r->cases[i].name,
				service_names[order[0]], report_cpu_text(&sc->svc[order[0]], cpu, sizeof cpu),
				sc->svc_fresh, report_plural(sc->svc_fresh, "launch", "launches"));
			for (k = 1; k < N_SERVICES; k++)
				fprintf(f, "%s%s %s", k == 1 ? " (" : ", ", service_names[order[k]],
					report_cpu_text(&sc->svc[order[k]], cpu, sizeof cpu));
			fputs(")\n", f);
		}
		if (sc->log_windows > 0) {
			log_any = 1;
			fprintf(f, "%s: %ld %s logged (GK performScan) for %ld fresh %s%s\n",
				r->cases[i].name, sc->performscan,
				report_plural(sc->performscan, "assessment", "assessments"), sc->log_fresh,
				report_plural(sc->log_fresh, "launch", "launches"),
				sc->log_cut ? " (at least: an excerpt reached the size limit)" : "");
			print_check_times(sc, r->cases[i].name, f);
		}
	}
	if (!svc_any && sl->n_cases > 0)
		fprintf(f, "assessment services: %s\n", sl->cases[0].svc_why);
	if (!log_any && sl->n_cases > 0)
		fprintf(f, "unified log: %s\n", sl->cases[0].log_why);
}

/* ---- the suite (suitestats.h): nothing where it did not run ------------------------------- */

static void print_suite(const struct run *r, FILE *f)
{
	const struct suite_result *s = r->suite;
	char a[32], b[32], d[32], e[32], g[32], h[32];
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n_configs; i++) {
		const struct suite_config *c = &s->configs[i];

		fprintf(f, "suite J=%ld (M=%ld): fresh %s s, re-run %s s, first runs alone %s s "
			"(CPU %s, %s, %s); ", c->jobs, c->m,
			report_seconds(c->pass[SP_FRESH].wall_ms, a, sizeof a),
			report_seconds(c->pass[SP_RERUN].wall_ms, b, sizeof b),
			report_seconds(c->pass[SP_ALONE].wall_ms, d, sizeof d),
			report_percent(c->pass[SP_FRESH].utilisation, e, sizeof e),
			report_percent(c->pass[SP_RERUN].utilisation, g, sizeof g),
			report_percent(c->pass[SP_ALONE].utilisation, h, sizeof h));
		report_projection(s, c, f);
		fputc('\n', f);
	}
}

/* ---- the hyperfine cross-check (hfcompare.h): nothing where not attempted ---------------- */

static void print_hyperfine(const struct run *r, FILE *f)
{
	const struct hf_result *h = r->hyperfine;
	size_t i;

	if (!h)
		return;
	if (strcmp(h->status, "done") != 0) {
		fprintf(f, "hyperfine cross-check %s: %s\n", h->status,
			h->note ? h->note : "no reason recorded");
		return;
	}
	for (i = 0; i < h->n_cases; i++) {
		const struct hf_case *c = &h->cases[i];

		fprintf(f, "hyperfine %s: first %.2f ms, repeat %.2f ms (harness %.2f, %.2f): %s\n",
			c->name, c->hf[HF_FIRST], c->hf[HF_REPEAT], c->harness[HF_FIRST],
			c->harness[HF_REPEAT], report_agree_word(c));
	}
}

/* ---- the whole ---------------------------------------------------------------------------- */

/* The results table, its columns as wide as their widest cell. */
static void print_results(const struct run *r, FILE *f)
{
	char cells[N_COLS][CELL_MAX];
	int width[N_COLS] = { 0 };
	size_t i, j;

	report_header_cells(cells);
	widen(width, cells);
	for (i = 0; i < r->n_cases; i++)
		for (j = 0; j < r->cases[i].n_configs; j++) {
			report_result_cells(&r->cases[i], r->cases[i].configs[j], cells);
			widen(width, cells);
		}
	report_header_cells(cells);
	print_row(f, cells, width);
	for (i = 0; i < r->n_cases; i++)
		for (j = 0; j < r->cases[i].n_configs; j++) {
			report_result_cells(&r->cases[i], r->cases[i].configs[j], cells);
			print_row(f, cells, width);
		}
	fputc('\n', f);
}

/* What the run was, where that changes how its numbers read. */
static void print_notes(const struct run *r, FILE *f)
{
	if (report_simulated(r))
		fprintf(f, "(simulated: launcher %s; nothing was launched: a test of the kit, "
			"not evidence)\n", report_simulated(r));
	if (report_gate_active(r))
		fputs("(calibration gate active: a test of the kit, not of an OS)\n", f);
	if (report_emulated(r))
		fprintf(f, "(emulated: %s; the timings are the emulator's, not evidence of the OS)\n",
			report_emulated(r));
	if (report_listeners(r))
		fprintf(f, "fanotify listeners: %s\n", report_listeners(r));
	if (report_gate_active(r) && run_condition(r, "gate.failure"))
		fprintf(f, "gate failure: %s\n", run_condition(r, "gate.failure"));
}

static void print_simulated(const struct run *r, FILE *f)
{
	if (report_simulated(r))
		fputs("simulated run: nothing was launched; the numbers above are the model's, "
		      "not evidence of this machine or any OS\n", f);
}

/* make remedies' run: the placements side by side, the plain lines last */
static void print_remedies(const struct run *r, FILE *f)
{
	if (!r->remedies)
		return;
	fputs("\nremedies: where a build puts a program, first launch at the headline's "
	      "threads, against a new file (exe)\n", f);
	remedies_print_table(r->remedies, f);
	fputc('\n', f);
	remedies_print_lines(r->remedies, "", f);
}

static report_section *const sections[] = {
	print_results, print_notes, print_case_lines,
	print_services_log, print_suite, print_hyperfine,
	print_simulated, print_remedies
};

int report_print_table(const struct run *r, FILE *f)
{
	return report_sections(sections, sizeof sections / sizeof sections[0], r, f);
}
