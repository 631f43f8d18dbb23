/* report_md.c - report.md, the one people attach to a bug report: the
 * plain lines first, then the verdicts and numbers, then the conditions and
 * rules that produced them; a section per model (report.h): the run and its
 * cases (verdicts, hangs, results, plots, scaling, failures), the services
 * and the log, the suite, the hyperfine cross-check. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"
#include "report_common.h"
#include "advice.h"
#include "looks.h"
#include "services_log.h"
#include "thresholds.h"
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
	}
	fputc('\n', f);
}

/* ## Hangs: each configuration in which a launch passed its bound, the
 * evidence of each hung launch as launch read it before the kill, the
 * services' CPU over the wait and the copy test (docs/method.md, "When the
 * checker hangs"); nothing where no launch hung. */
static void md_hangs(const struct run *r, FILE *f)
{
	const char *copy = run_condition(r, "hang.copy");
	size_t i, j, k, any = 0;

	for (i = 0; i < r->n_cases; i++)
		for (j = 0; j < r->cases[i].n_configs; j++) {
			const struct config *c = r->cases[i].configs[j];
			const struct services_log_hang *svcs =
				report_hang_services(report_services_of(r, i), j);
			int p;

			if (c->n_hangs == 0)
				continue;
			if (!any++)
				fputs("## Hangs\n\nA launch that did not end within its bound (HANG_S) "
				      "was killed after its state, CPU time and wait channel were read; "
				      "its case stopped there.\n\n", f);
			fprintf(f, "- **%s** T=%ld class %s:", r->cases[i].name, c->threads, c->class_name);
			for (p = 0; p < PASS_ALL; p++)
				if (c->hung[p])
					fprintf(f, " %zu of %zu %s launch%s did not end within %g s;", c->hung[p],
						c->made[p], stats_pass_name((enum pass)p),
						c->made[p] == 1 ? "" : "es", c->hang_s);
			fputs(" the case stopped.\n", f);
			for (k = 0; k < c->n_hangs; k++) {
				const struct hang_ev *h = &c->hangs[k];

				if (strcmp(h->state, "sim") == 0) {
					fprintf(f, "  - %s #%ld: simulated: the model's checker answered nothing\n",
						stats_pass_name(h->pass), h->index);
					continue;
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
			if (svcs->state == 0) {
				fputs("  - services' CPU from half the bound to the kill:", f);
				for (k = 0; k < N_SERVICES; k++) {
					if (svcs->cpu[k].unknown)
						fprintf(f, "%s %s unknown", k ? "," : "", service_names[k]);
					else
						fprintf(f, "%s %s %.2f s", k ? "," : "", service_names[k],
							svcs->cpu[k].cpu_s);
				}
				fputs("\n", f);
			} else {
				fprintf(f, "  - services' CPU: %s\n",
					svcs->state == 1 ? "not sampled" : svcs->why);
			}
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

		if (stats_sample_ok(s))
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

static void md_services_log(const struct run *r, FILE *f)
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

static void md_suite(const struct run *r, FILE *f)
{
	const struct suite_result *s = r->suite;
	char a[32], b[32], c3[32], d[32], e[32], g[32], h[32], k[32], l[32], m[64];
	size_t i;
	int p;

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

/* ---- the hyperfine cross-check (hfcompare.h): nothing where not attempted ----------------- */

static void md_hyperfine(const struct run *r, FILE *f)
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
	md_title, md_brief, md_simulated, md_about,
	md_gate, md_emulation, md_watchers,
	md_verdicts, md_hangs, md_started, md_results, md_plots, md_scaling, md_cache_key,
	md_failures,
	md_services_log, md_suite, md_hyperfine,
	md_how_to_read, md_thresholds, md_conditions
};

int report_write_markdown(const struct run *r, FILE *f)
{
	return report_sections(sections, sizeof sections / sizeof sections[0], r, f);
}
