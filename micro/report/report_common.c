/* report_common.c - the facts and words the writers share (report_common.h). */
#define _POSIX_C_SOURCE 200809L
#include "report_common.h"
#include "thresholds.h"
#include "launcherspec.h"
#include "conditions.h"
#include "util.h"

#include <math.h>
#include <string.h>

int report_sections(report_section *const *sections, size_t n, const struct run *r, FILE *f)
{
	size_t i;

	for (i = 0; i < n; i++)
		sections[i](r, f);
	return ferror(f) ? -1 : 0;
}

/* ---- the run's facts ------------------------------------------------------------- */

const char *report_simulated(const struct run *r)
{
	const char *l = run_condition(r, "launcher");

	return launcher_is_sim(l) ? l : NULL;
}

int report_gate_active(const struct run *r)
{
	const char *active = run_condition(r, "gate.active");

	return active && strcmp(active, "1") == 0;
}

const char *report_emulated(const struct run *r)
{
	const char *e = run_condition(r, "emulation");

	return e && strcmp(e, "no") != 0 ? e : NULL;
}

const char *report_listeners(const struct run *r)
{
	const char *l = run_condition(r, "fanotify_listeners");

	if (!l || strcmp(l, "none") == 0 || strcmp(l, "n/a") == 0 || strncmp(l, "not read", 8) == 0)
		return NULL;
	return l;
}

int report_has_reference(const struct config *c)
{
	return c->pass[PASS_REFERENCE].n_ok > 0 || c->failures[PASS_REFERENCE] > 0;
}

const char *report_kills_text(size_t killed, size_t of, char *buf, size_t len)
{
	char k[40], n[40];

	snprintf(buf, len, "killed %s of %s first launch%s", count_text(killed, k, sizeof k),
		 count_text(of, n, sizeof n), of == 1 ? "" : "es");
	return buf;
}

const char *report_assessed_text(const struct case_result *cr, char *buf, size_t len)
{
	size_t i, at = 0;
	char a[40], b[40], c[40];

	buf[0] = '\0';
	for (i = 0; i < cr->n_assessed && at < len; i++) {
		const struct assessed_tool *t = &cr->assessed[i];
		const char *name = strcmp(t->tool, "read") == 0 ? "read whole" : t->tool;
		const char *sep = i > 0 ? "; " : "";

		if (t->absent == t->steps) {
			at += (size_t)snprintf(buf + at, len - at, "%s%s absent (%s not run)", sep,
					       name, count_text(t->absent, a, sizeof a));
			continue;
		}
		at += (size_t)snprintf(buf + at, len - at, "%s%s ran %s of %s (%s ended 0", sep, name,
				       count_text(t->steps - t->absent, a, sizeof a),
				       count_text(t->steps, b, sizeof b), count_text(t->ok, c, sizeof c));
		if (at < len && t->other > 0)
			at += (size_t)snprintf(buf + at, len - at, ", %s with another status",
					       count_text(t->other, a, sizeof a));
		if (at < len && t->bound > 0)
			at += (size_t)snprintf(buf + at, len - at, ", %s of them killed at the bound",
					       count_text(t->bound, a, sizeof a));
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, "), median %.1f ms (max %.1f ms)",
					       t->median_ms, t->max_ms);
	}
	return buf;
}

const struct services_log_case *report_services_of(const struct run *r, size_t i)
{
	return r->services_log && i < r->services_log->n_cases ? &r->services_log->cases[i] : NULL;
}

const struct services_log_hang *report_hang_services(const struct services_log_case *sc, size_t j)
{
	static const struct services_log_hang none = { 1, { { 0, 0, 0, 0 } }, "" };

	return sc && j < sc->n_hangs ? &sc->hangs[j] : &none;
}

/* ---- the results table ------------------------------------------------------------ */

const char *report_penalty_text(const struct penalty *p, char *buf, size_t len)
{
	if (isnan(p->median_ms))
		snprintf(buf, len, "-");
	else if (isnan(p->ci_low_ms))
		snprintf(buf, len, "%.2f [no interval]", p->median_ms);
	else
		snprintf(buf, len, "%.2f [%.2f, %.2f]", p->median_ms,
			 p->ci_low_ms, p->ci_high_ms);
	return buf;
}

/* The results row of one config, shared by report.md and the terminal. */
void report_result_cells(const struct case_result *cr, const struct config *c,
			 char cells[N_COLS][CELL_MAX])
{
	snprintf(cells[COL_CASE], CELL_MAX, "%s", cr->name);
	snprintf(cells[COL_T], CELL_MAX, "%ld", c->threads);
	if (c->pad > 0) {
		char size[32];

		snprintf(cells[COL_CLASS], CELL_MAX, "%s %s", c->class_name,
			 size_text(c->pad, size, sizeof size));
	} else {
		snprintf(cells[COL_CLASS], CELL_MAX, "%s", c->class_name);
	}
	num2(c->pass[PASS_FIRST].median_ms, cells[COL_FIRST], CELL_MAX);
	num2(c->pass[PASS_REPEAT].median_ms, cells[COL_REPEAT], CELL_MAX);
	report_penalty_text(&c->penalty, cells[COL_PENALTY], CELL_MAX);
	num2(c->relative, cells[COL_RELATIVE], CELL_MAX);
	snprintf(cells[COL_VERDICT], CELL_MAX, "%s", stats_verdict_name(c->verdict));
}

void report_header_cells(char cells[N_COLS][CELL_MAX])
{
	static const char *const names[N_COLS] = {
		"case", "T", "class", "first median ms", "repeat median ms",
		NULL, "x unloaded", "verdict"
	};
	int i;

	for (i = 0; i < N_COLS; i++)
		snprintf(cells[i], CELL_MAX, "%s", names[i] ? names[i] : "");
	snprintf(cells[COL_PENALTY], CELL_MAX, "penalty ms [%g%% CI]",
		 CONFIDENCE * 100.0);
}

/* ---- hyperfine ------------------------------------------------------------------ */

const char *report_agree_word(const struct hf_case *c)
{
	if (c->agree < 0)
		return "not compared";
	if (c->incomparable)
		return c->agree ? "agree (repeats only)" : "DISAGREE (repeats only)";
	return c->agree ? "agree" : "DISAGREE";
}

/* ---- the suite -------------------------------------------------------------------- */

const char *report_seconds(double ms, char *buf, size_t len)
{
	if (isnan(ms))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f", ms / 1000.0);
	return buf;
}

const char *report_percent(double frac, char *buf, size_t len)
{
	if (isnan(frac))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.0f%%", frac * 100.0);
	return buf;
}

/* The projection sentence for one J, without a trailing period. */
void report_projection(const struct suite_result *s, const struct suite_config *c, FILE *f)
{
	char n[32];

	count_text((size_t)SUITE_PROJECT_PROGRAMS, n, sizeof n);
	if (c->verdict == VERDICT_SLOWDOWN && !isnan(c->projection_min)) {
		fprintf(f, "a suite of %s programs at %ld job%s would spend at least %.1f "
			"minutes in first-launch checks", n, c->jobs, c->jobs == 1 ? "" : "s",
			c->projection_min);
		if (!isnan(s->penalty_ms) && !isnan(c->concurrency) &&
		    c->concurrency != c->concurrency_est)
			fprintf(f, " (%s × %.1f ms ÷ %ld; %.0f check%s at once: %.2f measured is "
				"noise around that bound)", n, c->cost_ms, c->m, c->concurrency,
				c->concurrency == 1.0 ? "" : "s", c->concurrency_est);
		else if (!isnan(s->penalty_ms) && !isnan(c->concurrency))
			fprintf(f, " (%s × %.2f ms ÷ %.2f = %s × %.1f ms ÷ %ld)", n, s->penalty_ms,
				c->concurrency, n, c->cost_ms, c->m);
		else if (!isnan(c->concurrency_est))
			fprintf(f, " (%s × %.1f ms ÷ %ld; the overlap is not given: %.2f checks at "
				"once at %ld job%s is outside 1..%ld, noise in one of the costs)", n,
				c->cost_ms, c->m, c->concurrency_est, c->jobs, c->jobs == 1 ? "" : "s",
				c->jobs);
		else
			fprintf(f, " (%s × %.1f ms ÷ %ld)", n, c->cost_ms, c->m);
	} else if (c->verdict == VERDICT_NONE) {
		fprintf(f, "no measurable first-launch cost: a suite of %s programs at %ld "
			"job%s would spend no measurable time in first-launch checks", n, c->jobs,
			c->jobs == 1 ? "" : "s");
	} else if (!isnan(c->launch.ci_low_ms)) {
		char floor_says[96];

		fprintf(f, "no measurable first-launch cost at this run's noise (the per-launch "
			"interval [%.2f, %.2f] ms includes %s), so no projection for "
			"%ld job%s", c->launch.ci_low_ms, c->launch.ci_high_ms,
			stats_floor_words(c->unloaded_ms, floor_says, sizeof floor_says),
			c->jobs, c->jobs == 1 ? "" : "s");
	} else {
		fprintf(f, "no projection for %ld job%s: too few programs ran", c->jobs,
			c->jobs == 1 ? "" : "s");
	}
}

/* ---- the services -------------------------------------------------------------- */

const char *report_cpu_text(const struct svc_total *t, char *buf, size_t len)
{
	if (t->unknown)
		snprintf(buf, len, "an unknown amount");
	else
		snprintf(buf, len, "%.2f s", round(t->cpu_s * 100.0) / 100.0);
	return buf;
}

const char *report_plural(long n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}
