/* report_md.c - report.md, the one people attach to a bug report: the
 * plain lines first, then the verdicts and numbers, then the conditions and
 * rules that produced them.  A section per model (report.h): here the run's
 * conditions and its cases (verdicts, hangs, results, plots, scaling,
 * failures); the parts beside the cases (the services and the log, the
 * suite, the hyperfine cross-check) in report_md_parts.c.  The list of
 * sections at the end is the document's order. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"
#include "report_common.h"
#include "report_md.h"
#include "advice.h"
#include "looks.h"
#include "services_log.h"
#include "thresholds.h"
#include "conditions.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef EXECLAG_VERSION
#define EXECLAG_VERSION "0.0.0"
#endif

/* ---- Markdown -------------------------------------------------------------------- */

/* A '|' inside a value would end the table cell. */
static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void md_row(FILE *f, char cells[N_COLS][CELL_MAX])
{
	int i;

	for (i = 0; i < N_COLS; i++) {
		fputs("| ", f);
		md_cell(f, cells[i]);
		fputc(' ', f);
	}
	fputs("|\n", f);
}

static const char *or_unknown(const char *s)
{
	return s ? s : "?";
}

/* ---- the run's conditions --------------------------------------------------------- */

static void md_simulated(const struct run *r, FILE *f)
{
	if (!report_simulated(r))
		return;
	fprintf(f, "**Simulated run — not evidence.** Nothing was launched: every time in "
		"this report was drawn from the kit's seeded model of a first-launch checker "
		"(launcher %s), not measured on this machine or any OS. It is a test of the "
		"kit, not of an OS, and never for filing: make feedback refuses it.\n\n",
		report_simulated(r));
}

static void md_gate(const struct run *r, FILE *f)
{
	if (!report_gate_active(r))
		return;
	fprintf(f, "Calibration gate active: latency %s ms, workers %s, key %s, on %s, exempt %s\n\n",
		or_unknown(run_condition(r, "gate.latency_ms")),
		or_unknown(run_condition(r, "gate.workers")),
		or_unknown(run_condition(r, "gate.key")),
		run_condition(r, "gate.on") ? run_condition(r, "gate.on") : "exec",
		or_unknown(run_condition(r, "gate.exempt")));
	fputs("A calibration gate (Linux fanotify) held launches: these numbers are a "
	      "test of the kit, not of an OS.\n\n", f);
	if (run_condition(r, "gate.failure"))
		fprintf(f, "**Gate failure:** %s.\n\n", run_condition(r, "gate.failure"));
}

static void md_emulation(const struct run *r, FILE *f)
{
	if (!report_emulated(r))
		return;
	fprintf(f, "**Emulated:** the kit was built for %s and ran under emulation (%s). "
		"Launch timings under an emulator are the emulator's: they test the kit, and "
		"are not evidence of what the OS does to a new program.\n\n",
		or_unknown(run_condition(r, "kit_arch")), report_emulated(r));
}

static void md_watchers(const struct run *r, FILE *f)
{
	const char *agents = run_condition(r, "agents");

	if (!report_listeners(r))
		return;
	fprintf(f, "**Watching exec and open (fanotify listeners):** %s", report_listeners(r));
	if (agents && strcmp(agents, "none") != 0)
		fprintf(f, " — known: %s", agents);
	fputs(". An on-access scanner or agent can add to every launch in the work "
	      "folder, first or repeat, as well as to the first.\n\n", f);
}

static const char *condition_of(const void *ctx, const char *key)
{
	return run_condition((const struct run *)ctx, key);
}

/* How the kit was started, and what that means for the verdicts (the
 * words and their sources are advice.c's); runs older than started_via
 * have no such section. */
static void md_started(const struct run *r, FILE *f)
{
	if (!run_condition(r, "started_via"))
		return;
	fputs("## How the kit was started\n\n", f);
	advice_started(f, condition_of, r, "- ");
	fputc('\n', f);
}

static void md_conditions(const struct run *r, FILE *f)
{
	size_t i;

	fputs("## Conditions\n\n| key | value |\n|---|---|\n", f);
	for (i = 0; i < r->n_conditions; i++) {
		fputs("| ", f);
		md_cell(f, r->conditions[i].key);
		fputs(" | ", f);
		md_cell(f, r->conditions[i].value);
		fputs(" |\n", f);
	}
	if (r->n_conditions == 0)
		fputs("| (none recorded) | |\n", f);
	fputc('\n', f);
}

static void md_thresholds(const struct run *r, FILE *f)
{
	(void)r;
	fputs("## Thresholds\n\n| threshold | value |\n|---|---|\n", f);
	fprintf(f, "| penalty floor | %g ms |\n", PENALTY_FLOOR_MS);
	fprintf(f, "| floor's share of an unloaded launch (the floor is the larger of the penalty floor and this share of q1, the repeats' lower quartile) | %g |\n", FLOOR_SHARE);
	fprintf(f, "| confidence of the interval | %g%% |\n", CONFIDENCE * 100.0);
	fprintf(f, "| serial scaling max (throughput at T / at 1) | %g |\n",
		SERIAL_SCALING_MAX);
	fprintf(f, "| queue growth min (share of the way from a parallel penalty L to a queue's T×L − u) | %g |\n",
		QUEUE_GROWTH_MIN);
	fprintf(f, "| fewest successful pairs | %d |\n\n", MIN_PAIRS);
}

/* Sequential stopping: how many artifacts each config took, and why. */
/* ---- the run's cases ------------------------------------------------------------- */

/* Sequential stopping: how many artifacts each config took, and why. */
static void md_stopping(const struct run *r, FILE *f)
{
	size_t i, j, n = 0;

	for (i = 0; i < r->n_cases; i++)
		for (j = 0; j < r->cases[i].n_configs; j++) {
			const struct config *c = r->cases[i].configs[j];
			char size[32];

			if (c->looks == 0)
				continue;
			if (n++ == 0)
				fprintf(f, "Sequential stopping (docs/method.md): each configuration "
					"looked at its pairs at planned counts and stopped once its "
					"verdict was certain at the looks' adjusted coverage.  Looks "
					"after a + are the extension's: one whose interval still lay "
					"across the floor at its planned maximum went on.\n\n");
			if (c->n > c->planned)
				fprintf(f, "- %s T=%ld %s%s%s: %ld artifacts, past the %ld planned: "
					"its interval lay across the floor there (looks at %s), %s.\n",
					r->cases[i].name, c->threads, c->class_name,
					c->pad > 0 ? " " : "",
					c->pad > 0 ? size_text(c->pad, size, sizeof size) : "", c->n,
					c->planned, c->looks_at, looks_stop_words(c->stopped));
			else
				fprintf(f, "- %s T=%ld %s%s%s: %ld of %ld artifacts (looks at %s), %s.\n",
					r->cases[i].name, c->threads, c->class_name,
					c->pad > 0 ? " " : "",
					c->pad > 0 ? size_text(c->pad, size, sizeof size) : "", c->n,
					c->planned, c->looks_at, looks_stop_words(c->stopped));
		}
	if (n)
		fputc('\n', f);
}

static void md_results(const struct run *r, FILE *f)
{
	char cells[N_COLS][CELL_MAX];
	size_t i, j;

	fputs("## Results\n\n", f);
	report_header_cells(cells);
	md_row(f, cells);
	fputs("|---|---:|---|---:|---:|---:|---:|---|\n", f);
	for (i = 0; i < r->n_cases; i++)
		for (j = 0; j < r->cases[i].n_configs; j++) {
			report_result_cells(&r->cases[i], r->cases[i].configs[j], cells);
			md_row(f, cells);
		}
	fputc('\n', f);
	md_stopping(r, f);
}

/* "  Size (T=1, class all): slowdown — …; penalty 2.10 ms at 16 KiB, …" */
static void md_slopes(const struct case_result *cr, FILE *f)
{
	size_t i, j;

	for (i = 0; i < cr->n_slopes; i++) {
		const struct size_slope *s = &cr->slopes[i];
		const char *sep = "";

		fprintf(f, "  Size (T=%ld, class %s): %s — %s; penalty ", s->threads,
			s->class_name, stats_verdict_name(s->verdict), s->reason);
		for (j = 0; j < cr->n_configs; j++) {
			const struct config *c = cr->configs[j];
			char pen[96], size[32];

			if (c->threads != s->threads || strcmp(c->class_name, s->class_name) != 0)
				continue;
			fprintf(f, "%s%s ms at %s", sep, report_penalty_text(&c->penalty, pen, sizeof pen),
				size_text(c->pad, size, sizeof size));
			sep = ", ";
		}
		fputs(".\n", f);
	}
}

static void md_verdicts(const struct run *r, FILE *f)
{
	size_t i;

	fputs("## Verdicts\n\n", f);
	for (i = 0; i < r->n_cases; i++) {
		const struct case_result *cr = &r->cases[i];
		const struct config *h = cr->headline;

		char size[32];

		fprintf(f, "- **%s** (%s, T=%ld, class %s%s%s): %s — %s.\n", cr->name,
			cr->kind, h->threads, h->class_name, h->pad > 0 ? ", padded " : "",
			h->pad > 0 ? size_text(h->pad, size, sizeof size) : "",
			stats_verdict_name(h->verdict), h->reason);
		fprintf(f, "  Serialisation: %s — %s.\n",
			stats_serialisation_name(cr->serialisation), cr->serial_reason);
		if (report_has_reference(h)) {
			char buf[96];

			fprintf(f, "  Every launch: %s — a launch in the work folder costs %s ms "
				"more than the same kind of program outside it, first or repeat "
				"(repeat median %.2f ms, outside %.2f ms): %s.\n",
				stats_verdict_name(h->ref_verdict),
				report_penalty_text(&h->ref_cost, buf, sizeof buf),
				h->pass[PASS_REPEAT].median_ms, h->pass[PASS_REFERENCE].median_ms,
				h->ref_reason);
		}
		md_slopes(cr, f);
		if (cr->n_assessed > 0) {
			char text[512];

			fprintf(f, "  Assessed first, apart from the launch (its time not in a launch's): %s.\n",
				report_assessed_text(cr, text, sizeof text));
		}
	}
	fputc('\n', f);
}

/* One hung launch: what launch read of it before the kill. */
static void md_hung_launch(const struct hang_ev *h, FILE *f)
{
	if (strcmp(h->state, "sim") == 0) {
		fprintf(f, "  - %s #%ld: simulated: the model's checker answered nothing\n",
			stats_pass_name(h->pass), h->index);
		return;
	}
	fprintf(f, "  - %s #%ld: process %ld, state %s, CPU time ", stats_pass_name(h->pass),
		h->index, h->pid, h->state);
	if (isnan(h->cpu_s))
		fputs("unknown", f);
	else
		fprintf(f, "%.2f s", h->cpu_s);
	fprintf(f, ", wait channel %s: %s\n", h->wchan,
		h->unkillable ? "did not die from SIGKILL within 2 s: left behind "
				"(pid kept above), the run went on"
			      : "killed");
}

/* One configuration in which a launch hung: how many per pass, each hung
 * launch, and the services' CPU over the wait (services_log.h). */
static void md_hung_config(const char *name, const struct config *c,
			   const struct services_log_hang *svcs, FILE *f)
{
	size_t k;
	int p;

	fprintf(f, "- **%s** T=%ld class %s:", name, c->threads, c->class_name);
	for (p = 0; p < PASS_ALL; p++)
		if (c->hung[p])
			fprintf(f, " %zu of %zu %s launch%s did not end within %g s;", c->hung[p],
				c->made[p], stats_pass_name((enum pass)p),
				c->made[p] == 1 ? "" : "es", c->hang_s);
	fputs(" the case stopped.\n", f);
	for (k = 0; k < c->n_hangs; k++)
		md_hung_launch(&c->hangs[k], f);
	if (svcs->state != 0) {
		fprintf(f, "  - services' CPU: %s\n", svcs->state == 1 ? "not sampled" : svcs->why);
		return;
	}
	fputs("  - services' CPU from half the bound to the kill:", f);
	for (k = 0; k < N_SERVICES; k++) {
		if (svcs->cpu[k].unknown)
			fprintf(f, "%s %s unknown", k ? "," : "", service_names[k]);
		else
			fprintf(f, "%s %s %.2f s", k ? "," : "", service_names[k], svcs->cpu[k].cpu_s);
	}
	fputs("\n", f);
}

/* ## Hangs: each configuration in which a launch passed its bound, the
 * evidence of each hung launch as launch read it before the kill, the
 * services' CPU over the wait and the copy test (docs/method.md, "When the
 * checker hangs"); nothing where no launch hung. */
static void md_hangs(const struct run *r, FILE *f)
{
	const char *copy = run_condition(r, "hang.copy");
	size_t i, j, any = 0;

	for (i = 0; i < r->n_cases; i++)
		for (j = 0; j < r->cases[i].n_configs; j++) {
			if (r->cases[i].configs[j]->n_hangs == 0)
				continue;
			if (!any++)
				fputs("## Hangs\n\nA launch that did not end within its bound (HANG_S) "
				      "was killed after its state, CPU time and wait channel were read; "
				      "its case stopped there.\n\n", f);
			md_hung_config(r->cases[i].name, r->cases[i].configs[j],
				       report_hang_services(report_services_of(r, i), j), f);
		}
	if (run_condition(r, "hang.making")) {
		if (!any++)
			fputs("## Hangs\n\n", f);
		fprintf(f, "- %s.\n", run_condition(r, "hang.making"));
	}
	if (!any)
		return;
	if (copy)
		fprintf(f, "\nThe same bytes copied to a new path and launched once (bound %s s): %s%s%s%s "
			"(openai/codex#23802: a hung program ran after cp).\n",
			run_condition(r, "hang.copy_s") ? run_condition(r, "hang.copy_s") : "?", copy,
			run_condition(r, "hang.copy_ms") ? ", in " : "",
			run_condition(r, "hang.copy_ms") ? run_condition(r, "hang.copy_ms") : "",
			run_condition(r, "hang.copy_ms") ? " ms" : "");
	if (run_condition(r, "run.stopped"))
		fprintf(f, "\nThe run ended early: %s.\n", run_condition(r, "run.stopped"));
	fputc('\n', f);
}

static void md_scaling(const struct run *r, FILE *f)
{
	char a[32], b[32];
	size_t i, j, rows = 0;

	fputs("## Scaling\n\nThroughput (launches per second over the pass) at T "
	      "threads divided by the throughput at 1 thread, same class.\n\n", f);
	fputs("| case | class | T | first pass | repeat pass |\n|---|---|---:|---:|---:|\n", f);
	for (i = 0; i < r->n_cases; i++)
		for (j = 0; j < r->cases[i].n_scaling; j++) {
			const struct scaling_row *row = &r->cases[i].scaling[j];

			fprintf(f, "| %s | %s | %ld | %s | %s |\n", r->cases[i].name,
				row->class_name, row->threads,
				num2(row->first, a, sizeof a),
				num2(row->repeat, b, sizeof b));
			rows++;
		}
	if (rows == 0)
		fputs("| (no class measured at T=1) | | | | |\n", f);
	fputc('\n', f);
}

static void md_cache_key(const struct run *r, FILE *f)
{
	fprintf(f, "## Inferred cache key\n\n**%s** — %s.\n\n",
		stats_cache_key_name(r->inference.key), r->inference.reason);
}

static void md_failed_samples(const struct config *c, FILE *f)
{
	char buf[32];
	size_t i, listed = 0;

	for (i = 0; i < c->n_samples && listed < MAX_LISTED_FAILURES; i++) {
		const struct sample *s = &c->samples[i];

		if (stats_sample_ok(s) || s->killed) /* a kill: ## Killed launches */
			continue;
		fprintf(f, "  - %s #%ld: exit %ld, signal %ld", stats_pass_name(s->pass),
			s->index, s->exit_status, s->signal);
		if (s->hang)
			fputs(" (SIGKILL: a hang, killed at the bound; see Hangs)", f);
		else if (s->signal)
			fprintf(f, " (%s)", stats_signal_name(s->signal, buf, sizeof buf));
		fprintf(f, ", errno %ld\n", s->spawn_errno);
		listed++;
	}
	if (listed < c->failures[PASS_FIRST] + c->failures[PASS_REPEAT])
		fprintf(f, "  - (only the first %d are listed)\n", MAX_LISTED_FAILURES);
}

static void md_failures(const struct run *r, FILE *f)
{
	size_t i, j, any = 0;

	fputs("## Failures\n\n", f);
	for (i = 0; i < r->n_cases; i++)
		for (j = 0; j < r->cases[i].n_configs; j++) {
			const struct config *c = r->cases[i].configs[j];

			if (c->failures[PASS_FIRST] + c->failures[PASS_REPEAT] == 0)
				continue;
			fprintf(f, "- %s T=%ld class %s: %zu failed in the first pass, "
				"%zu in the repeat pass\n", r->cases[i].name, c->threads,
				c->class_name, c->failures[PASS_FIRST],
				c->failures[PASS_REPEAT]);
			md_failed_samples(c, f);
			any++;
		}
	if (!any)
		fputs("No launch failed: every child exited 0, without a signal.\n", f);
	fputc('\n', f);
}

/* The plots report_write_plots wrote beside report.md (report_svg.c). */
static void md_plots(const struct run *r, FILE *f)
{
	if (r->n_cases == 0)
		return;
	fputs("## Plots\n\n", f);
	fputs("![First vs repeat launch time per case, log time axis](" PLOT_LAUNCH_SVG ")\n\n", f);
	fputs("![Launches per second against threads, first and repeat pass](" PLOT_SCALING_SVG ")\n\n", f);
	fputs("Both pictures are drawn from this run's samples; the numbers written on "
	      "them are the medians, penalties and throughputs of the tables here.\n\n", f);
}

static void md_how_to_read(const struct run *r, FILE *f)
{
	(void)r;
	fputs("## How to read this\n\n", f);
	fputs("Each artifact was launched twice: once just after it was made (first "
	      "pass) and once more (repeat pass). ", f);
	fputs("The penalty is the median of the paired differences first − repeat "
	      "over the artifacts whose two launches both succeeded. ", f);
	fprintf(f, "Its %g%% interval comes from order statistics of those "
		"differences (no assumption about their distribution); the coverage "
		"actually reached is in run.json. ", CONFIDENCE * 100.0);
	fprintf(f, "The floor, the least penalty called a cost, is %g ms, or %g times "
		"an unloaded launch (the lower quartile of the repeats) where that is "
		"more. A case is a slowdown when the whole interval lies above the "
		"floor, none when it lies below, and inconclusive when it lies across "
		"(the reason gives the floor). ", PENALTY_FLOOR_MS, FLOOR_SHARE);
	fputs("These are measurements of this machine under the conditions above; "
	      "the method is in docs/method.md.\n", f);
}

/* ---- the document -------------------------------------------------------------------- */

/* The plain lines first (advice.c, the same words make repro ends with),
 * read from run.json as it is written (the same rounding), so that
 * advise --brief on the finished run says exactly this. */
static void md_brief(const struct run *r, FILE *f)
{
	json_t *root = report_json_tree(r);

	if (root && advice_brief(f, root, "- ") > 0)
		fputc('\n', f);
	json_decref(root);
}

static void md_title(const struct run *r, FILE *f)
{
	fprintf(f, "# execlag report — %s%s\n\n", r->run_id, report_simulated(r) ? " (simulated)" : "");
}

static void md_about(const struct run *r, FILE *f)
{
	fprintf(f, "execlag %s: launch time of freshly made files on their first "
		"launch against their second launch, %s on the machine "
		"described under Conditions (at the end).\n\n", EXECLAG_VERSION,
		report_simulated(r) ? "simulated" : "measured");
}

/* The plain lines first; verdicts and numbers next: the conditions and
 * the rules that produced them follow, for the reader who wants to check. */
static report_section *const sections[] = {
	md_title, md_brief, md_simulated, md_about, md_remedies,
	md_gate, md_emulation, md_watchers,
	md_verdicts, md_hangs, md_started, md_results, md_plots, md_scaling, md_cache_key,
	md_failures, md_kills, md_not_here,
	md_services_log, md_suite, md_hyperfine,
	md_how_to_read, md_thresholds, md_conditions
};

int report_write_markdown(const struct run *r, FILE *f)
{
	return report_sections(sections, sizeof sections / sizeof sections[0], r, f);
}
