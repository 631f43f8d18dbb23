/* feedback_text.c - the words of feedback.txt over its model (feedback.h),
 * ready to paste into Feedback Assistant: title, area, type, description,
 * steps to reproduce, expected and actual results with the run's own
 * numbers, the known workaround, what to attach, and sources (only public
 * ones listed in the kit's evidence notes).  A Linux run or a
 * calibration-gate run is said to be what it is: not evidence of macOS
 * behaviour. */
#define _POSIX_C_SOURCE 200809L
#include "feedback.h"
#include "remedies_text.h"
#include "util.h"

#include <math.h>
#include <string.h>

#define MAX_EXTRA_LINES 24
#define LOGS_BOUND_TEXT "1 MiB"

static void line(FILE *f, const char *s)
{
	fputs(s, f);
	fputc('\n', f);
}

/* conditions[KEY], or "unknown". */
static const char *cond(const struct feedback *fb, const char *key)
{
	const char *v = feedback_condition(fb, key);

	return v ? v : "unknown";
}

static int cond_is(const struct feedback *fb, const char *key, const char *want)
{
	const char *v = feedback_condition(fb, key);

	return v && strcmp(v, want) == 0;
}

/* "12.34 [10.00, 15.00]", "12.34 [no interval]" or "-". */
static const char *penalty_text(const struct feedback_penalty *p, char *buf, size_t len)
{
	if (isnan(p->median))
		snprintf(buf, len, "-");
	else if (isnan(p->low) || isnan(p->high))
		snprintf(buf, len, "%.2f [no interval]", p->median);
	else
		snprintf(buf, len, "%.2f [%.2f, %.2f]", p->median, p->low, p->high);
	return buf;
}

static const char *ratio_text(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f×", v);
	return buf;
}

/* ---- before the description ---------------------------------------------------------- */

static void banner(FILE *f, const struct feedback *fb)
{
	enum feedback_platform p = fb->platform;

	line(f, "execlag feedback — ready to paste into Feedback Assistant");
	fprintf(f, "Run %s, started %s, execlag %s.\n", fb->run_id, cond(fb, "run.started_utc"),
		cond(fb, "kit_version"));
	line(f, "Paste TITLE into the title field, choose the area and type, paste everything");
	line(f, "from DESCRIPTION to the end into the description field, and attach the files");
	line(f, "listed under ATTACHMENTS. Identifying values (user name, full name, host and");
	line(f, "computer names, home folder, serial number, hardware UUID) are replaced by");
	line(f, "placeholders such as <user> and <host> here and in the archive.");
	if (p == FEEDBACK_LINUX)
		fprintf(f, "\nNOT FOR FILING WITH APPLE: this run was made on %s,\n"
			"the kit's Linux control run. Linux has no first-launch assessment; these\n"
			"numbers are not evidence of macOS behaviour. Run `make repro` and\n"
			"`make feedback` on the Mac instead.\n", fb->os);
	if (p == FEEDBACK_LINUX && feedback_condition(fb, "fanotify_listeners")) {
		const char *a = cond(fb, "agents");

		fprintf(f, "Watching exec and open during this run (fanotify listeners): %s.\n",
			cond(fb, "fanotify_listeners"));
		if (strcmp(a, "none") != 0 && strcmp(a, "n/a") != 0)
			fprintf(f, "Known scanners and agents running: %s. A first-launch cost in\n"
				"this run is theirs: take it to their vendor, with this report.\n", a);
	}
	if (p == FEEDBACK_GATE)
		fprintf(f, "\nNOT FOR FILING WITH APPLE: this is a calibration run on %s:\n"
			"a test gate (Linux fanotify, latency %s ms, workers %s, key %s, exempt %s) held the\n"
			"launches on purpose. It tests the kit, not an OS, and is not evidence of\n"
			"macOS behaviour.\n", fb->os, cond(fb, "gate.latency_ms"), cond(fb, "gate.workers"),
			cond(fb, "gate.key"), cond(fb, "gate.exempt"));
	else if (p == FEEDBACK_OTHER)
		fprintf(f, "\nNOT FOR FILING WITH APPLE: this run was made on %s, not on macOS.\n", fb->os);
	else if (p != FEEDBACK_LINUX && !fb->worst)
		line(f, "\nThis run measured no first-launch slowdown on this Mac (no case has the\n"
			"verdict slowdown): it does not show the problem, and there is nothing to\n"
			"file from it. Re-run `make repro` when launches feel slow.");
	fputc('\n', f);
}

static void title(FILE *f, const struct feedback *fb)
{
	const struct feedback_case *w = fb->worst;
	enum feedback_platform p = fb->platform;
	char a[32], b[32], c[32];

	line(f, "TITLE");
	if (p == FEEDBACK_LINUX)
		fprintf(f, "[NOT FOR FILING: Linux control run] execlag first vs repeat launch on %s\n", fb->os);
	else if (p == FEEDBACK_GATE)
		fprintf(f, "[NOT FOR FILING: calibration run] execlag first vs repeat launch under a test gate on %s\n", fb->os);
	else if (p == FEEDBACK_OTHER)
		fprintf(f, "[NOT FOR FILING: not macOS] execlag first vs repeat launch on %s\n", fb->os);
	else if (!w)
		fprintf(f, "No first-launch slowdown measured by execlag on %s, %s\n", fb->os, cond(fb, "model"));
	else
		fprintf(f, "First launch of a newly created program waits %s ms longer than its second "
			"launch (%s; %s vs %s ms) on %s, %s\n", rj_num2(w->n.penalty.median, a, sizeof a), w->name,
			rj_num2(w->n.first_ms, b, sizeof b), rj_num2(w->n.repeat_ms, c, sizeof c), fb->os,
			cond(fb, "model"));
	line(f, "\nAREA");
	line(f, "macOS, then the area closest to Security or Gatekeeper that Feedback Assistant");
	line(f, "offers (no public source names the area for this problem; this is the nearest");
	line(f, "fit): it is about the security assessment of newly created executables,");
	line(f, "scripts and libraries on their first launch (syspolicyd, XprotectService, amfid).");
	line(f, "\nTYPE");
	line(f, "Incorrect/Unexpected Behavior");
	fputc('\n', f);
}

/* The suite case's projection at the most jobs it has one for. */
static void projection(FILE *f, const struct advice_projection *j)
{
	char programs[32];

	if (!j->present) {
		line(f, "(This run did not measure the kit's suite case, which projects the cost to a\n"
			"suite of 14,000 programs: make repro CASES=suite.)");
		return;
	}
	fprintf(f, "At this run's cost, a build or test suite that makes and runs %s "
		"new programs would spend at least %.0f minutes waiting on first-launch checks "
		"at %ld parallel job%s (the kit's suite case, measured in this run).\n",
		count_text((size_t)j->programs, programs, sizeof programs), j->minutes, j->jobs,
		j->jobs == 1 ? "" : "s");
}

static void description(FILE *f, const struct feedback *fb)
{
	const struct feedback_case *w = fb->worst;
	char a[32], b[32], c[32], d[96];

	line(f, "DESCRIPTION");
	if (fb->platform == FEEDBACK_MAC && w) {
		line(f, "On this Mac a program that was just created waits before it runs the first\n"
			"time; the same file started a second time does not. execlag, a measurement\n"
			"kit, made fresh files, launched each once and then again, and timed both\n"
			"launches (posix_spawn + waitpid, monotonic clock).");
		fprintf(f, "The largest penalty it measured is in case %s, %s.\n", w->name, w->meaning);
		fprintf(f, "  first launch %s ms, second launch %s ms (medians), ratio %s\n",
			rj_num2(w->n.first_ms, a, sizeof a), rj_num2(w->n.repeat_ms, b, sizeof b),
			ratio_text(w->n.ratio, c, sizeof c));
		fprintf(f, "  penalty %s ms (median of first - second for the same file, 95%% interval)\n",
			penalty_text(&w->n.penalty, d, sizeof d));
		line(f, "A test suite or build that creates and runs many small programs pays this\n"
			"once per new file. Public reports describe the same first-launch cost and a\n"
			"per-file cache (sources at the end).");
		projection(f, &fb->projection);
	} else if (fb->platform == FEEDBACK_MAC) {
		line(f, "execlag made fresh files on this Mac, launched each once and then again, and\n"
			"timed both launches. No case showed a first-launch slowdown in this run\n"
			"(numbers under ACTUAL RESULTS).");
	} else {
		line(f, "execlag made fresh files, launched each once and then again, and timed both\n"
			"launches. This run is a control or calibration run (see the note at the top),\n"
			"not a macOS measurement.");
	}
	fputc('\n', f);
}

/* ---- steps and expected results ----------------------------------------------------- */

/* The settings of this run, as make repro takes them. */
static void make_command(FILE *f, const struct feedback *fb)
{
	const char *count = feedback_condition(fb, "run.count");
	const char *classes = feedback_condition(fb, "run.classes");

	fprintf(f, "   %s", cond_is(fb, "run.profile", "full") ? "make repro-full" : "make repro");
	if (feedback_condition(fb, "run.cases"))
		fprintf(f, " CASES=%s", cond(fb, "run.cases"));
	if (feedback_condition(fb, "run.threads"))
		fprintf(f, " THREADS=%s", cond(fb, "run.threads"));
	if (count && strcmp(count, "per case") != 0)
		fprintf(f, " COUNT=%s", count);
	if (classes && strcmp(classes, "all") != 0)
		fprintf(f, " CLASSES=%s", classes);
	if (cond_is(fb, "gate.active", "1"))
		fprintf(f, " GATE='latency=%s workers=%s key=%s exempt=%s'", cond(fb, "gate.latency_ms"),
			cond(fb, "gate.workers"), cond(fb, "gate.key"), cond(fb, "gate.exempt"));
	fputc('\n', f);
}

static void steps(FILE *f, const struct feedback *fb)
{
	line(f, "STEPS TO REPRODUCE");
	if (fb->commit) {
		fprintf(f, "1. With the execlag kit (execlag %s, commit %s", fb->version, fb->commit);
		if (fb->from && strcmp(fb->from, "a local clone") == 0)
			fputs(", from a local clone", f);
		else if (fb->from)
			fprintf(f, ", git remote %s", fb->from);
	} else {
		fprintf(f, "1. With a copy of execlag %s (not a git checkout", fb->version);
	}
	if (fb->home)
		fprintf(f, ", home page %s", fb->home);
	line(f, "), from its folder, the settings of this run:");
	make_command(f, fb);
	line(f, "   then `make feedback` for this text and the archive. The kit builds its own");
	line(f, "   tools, makes N fresh files per case, and launches each twice.");
	line(f, "2. By hand, with a sysdiagnose capturing it: first start a sysdiagnose (press");
	line(f, "   Control-Option-Command-Shift-Period, or run `sudo sysdiagnose -f ~/Desktop/`");
	line(f, "   in a second window) and note the time; while it collects (its spindump,");
	line(f, "   fs_usage and top samples are of those seconds) run the one-line reproducer");
	line(f, "   from the public reports, as it is, in zsh or bash (`$'…'` is their syntax).");
	line(f, "   It removes /tmp/test.sh first: writing into an existing file keeps its");
	line(f, "   inode, and a file already checked starts at full speed.");
	line(f, "   rm -f /tmp/test.sh; echo $'#!/bin/sh\\necho Hello' > /tmp/test.sh && chmod a+x /tmp/test.sh; time /tmp/test.sh && time /tmp/test.sh");
	line(f, "   The same in any POSIX shell:");
	line(f, "   rm -f /tmp/test.sh; printf '#!/bin/sh\\necho Hello\\n' > /tmp/test.sh && chmod a+x /tmp/test.sh; time /tmp/test.sh && time /tmp/test.sh");
	line(f, "   The first `time` is the file's first launch, the second its second launch.");
	line(f, "3. Attach the sysdiagnose of step 2 (see ATTACHMENTS) with the time you noted.");
	fputc('\n', f);
}

static void expected(FILE *f)
{
	line(f, "EXPECTED RESULTS");
	line(f, "A program that was just created starts about as fast on its first launch as on");
	line(f, "its second: the kit's rule calls a penalty below 1 ms \"none\".");
	fputc('\n', f);
}

/* ---- actual results: the table ------------------------------------------------------ */

static void cell_row(FILE *f, const char *const *cells, const int *width, int n)
{
	int i;

	fputs("  ", f);
	for (i = 0; i < n; i++) {
		if (i == n - 1)
			fprintf(f, "%s\n", cells[i]);
		else
			fprintf(f, "%-*s  ", width[i], cells[i]);
	}
}

enum { C_CASE, C_T, C_CLASS, C_FIRST, C_REPEAT, C_PENALTY, C_RATIO, C_VERDICT, N_C };

static void config_cells(const struct feedback_case *k, const struct feedback_config *c,
			 char cells[N_C][96])
{
	snprintf(cells[C_CASE], 96, "%s", k->name);
	snprintf(cells[C_T], 96, "%ld", c->threads);
	if (c->pad > 0) {
		char size[32];

		snprintf(cells[C_CLASS], 96, "%s %s", c->class_name, size_text(c->pad, size, sizeof size));
	} else {
		snprintf(cells[C_CLASS], 96, "%s", c->class_name);
	}
	rj_num2(c->n.first_ms, cells[C_FIRST], 96);
	rj_num2(c->n.repeat_ms, cells[C_REPEAT], 96);
	penalty_text(&c->n.penalty, cells[C_PENALTY], 96);
	rj_num2(c->n.ratio, cells[C_RATIO], 96);
	snprintf(cells[C_VERDICT], 96, "%s", c->verdict);
}

static void results_table(FILE *f, const struct feedback *fb)
{
	static const char *const head[N_C] = {
		"case", "T", "class", "first ms", "second ms",
		"penalty ms [95% CI]", "ratio", "verdict"
	};
	char cells[N_C][96];
	const char *ptr[N_C];
	int width[N_C], i, pass;
	size_t k, j;

	for (i = 0; i < N_C; i++)
		width[i] = (int)strlen(head[i]);
	for (pass = 0; pass < 2; pass++) {
		if (pass == 1)
			cell_row(f, head, width, N_C);
		for (k = 0; k < fb->n_cases; k++) {
			const struct feedback_case *kase = &fb->kase[k];

			for (j = 0; j < kase->n_configs; j++) {
				config_cells(kase, &kase->config[j], cells);
				for (i = 0; i < N_C; i++) {
					int len = (int)strlen(cells[i]);

					ptr[i] = cells[i];
					if (pass == 0 && len > width[i])
						width[i] = len;
				}
				if (pass == 1)
					cell_row(f, ptr, width, N_C);
			}
		}
	}
}

/* ---- actual results: the fields of newer kit parts ----------------------------------- */

static void put_scalar(FILE *out, const json_t *v)
{
	if (json_is_string(v))
		fputs(json_string_value(v), out);
	else if (json_is_integer(v))
		fprintf(out, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_real(v))
		fprintf(out, "%g", json_real_value(v));
	else
		fputs(json_is_true(v) ? "true" : "false", out);
}

static int is_leaf(const json_t *v)
{
	return !json_is_object(v) && !json_is_array(v) && !json_is_null(v);
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n > t && s[n - t - 1] == '.' && strcmp(s + n - t, tail) == 0;
}

/* KEY is the "name" or "case" that element_path put at the end of PREFIX. */
static int names_path(const char *prefix, const char *key, const json_t *v)
{
	return (strcmp(key, "name") == 0 || strcmp(key, "case") == 0) && json_is_string(v) &&
	       ends_with(prefix, json_string_value(v));
}

/* The path of element I of an array: PREFIX.NAME when it is an object with
 * a "name" or "case" (services by name), else PREFIX[I]. */
static void element_path(char *buf, size_t len, const char *prefix, const json_t *el, size_t i)
{
	const char *name = json_is_object(el) ? rj_str(el, "name") : NULL;

	if (!name && json_is_object(el))
		name = rj_str(el, "case");

	if (name)
		snprintf(buf, len, "%s.%s", prefix, name);
	else
		snprintf(buf, len, "%s[%zu]", prefix, i);
}

/* A JSON value as lines; returns the lines printed.  tsv: one leaf a row,
 * "LEAD<TAB>path<TAB>value".  Text: each object's plain members on one line,
 * "LEADpath: key = value, key = value", nested ones below it.  Nulls
 * (nothing recorded) are left out. */
static int flatten(const char *prefix, const json_t *v, const char *lead, int budget,
		   FILE *out, int tsv)
{
	char path[512];
	const char *key;
	json_t *child;
	int n = 0, first = 1;
	size_t i;

	if (budget <= 0 || json_is_null(v))
		return 0;
	if (json_is_object(v)) {
		if (!tsv) {
			json_object_foreach((json_t *)v, key, child) {
				if (!is_leaf(child) || names_path(prefix, key, child))
					continue;
				if (first)
					fprintf(out, "%s%s: %s = ", lead, prefix, key);
				else
					fprintf(out, ", %s = ", key);
				first = 0;
				put_scalar(out, child);
			}
			if (!first) {
				fputc('\n', out);
				n++;
			}
		}
		json_object_foreach((json_t *)v, key, child) {
			if ((!tsv && is_leaf(child)) || names_path(prefix, key, child))
				continue;
			snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", key);
			n += flatten(path, child, lead, budget - n, out, tsv);
		}
		return n;
	}
	if (json_is_array(v)) {
		for (i = 0; i < json_array_size(v); i++) {
			element_path(path, sizeof path, prefix, json_array_get(v, i), i);
			n += flatten(path, json_array_get(v, i), lead, budget - n, out, tsv);
		}
		return n;
	}
	fprintf(out, tsv ? "%s\t%s\t" : "%s%s = ", lead, prefix);
	put_scalar(out, v);
	fputc('\n', out);
	return 1;
}

/* add KEY to the comma-separated LIST (of LEN bytes) unless it is there */
static void name_once(char *list, size_t len, const char *key)
{
	size_t n = strlen(key), used = strlen(list);
	const char *p = list;

	while ((p = strstr(p, key)) != NULL) {
		if ((p == list || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0'))
			return;
		p += n;
	}
	if (used + n + 3 < len)
		snprintf(list + used, len - used, "%s%s", used ? ", " : "", key);
}

/* The fields a reader at Apple acts on pasted as recorded, as long as
 * there is room; every other field of newer kit parts (the suite,
 * hyperfine, every-launch costs, reasons) named in one line each: it stays
 * in run.json in the archive, so that the paste stays short. */
static void extras(FILE *f, const struct feedback *fb)
{
	int budget = MAX_EXTRA_LINES, header = 0;
	char per_case[512] = "", per_run[512] = "", lead[128];
	size_t i;

	for (i = 0; i < fb->n_fields; i++) {
		const struct feedback_field *x = &fb->field[i];
		const json_t *v = x->value;

		if (!x->kase) {
			name_once(per_run, sizeof per_run, x->key);
			continue;
		}
		if (!x->paste || budget <= 0 || json_is_null(v) ||
		    (json_is_object(v) && json_object_size(v) == 0)) {
			name_once(per_case, sizeof per_case, x->key);
			continue;
		}
		if (!header++)
			line(f, "What the assessment services did, as run.json recorded it:");
		snprintf(lead, sizeof lead, "  %s: ", x->kase);
		budget -= flatten(x->key, v, lead, budget, f, 0);
	}
	if (budget <= 0)
		line(f, "  (more in run.json)");
	if (*per_case || *per_run) {
		line(f, "Also in run.json, in the attached archive, not repeated here:");
		if (*per_case)
			fprintf(f, "  per case: %s\n", per_case);
		if (*per_run)
			fprintf(f, "  for the run: %s\n", per_run);
		header = 1;
	}
	if (header)
		fputc('\n', f);
}

/* ---- actual results ------------------------------------------------------------------ */

static void conditions(FILE *f, const struct feedback *fb)
{
	line(f, "Conditions of this run:");
	fprintf(f, "  OS: %s, kernel %s, %s\n", fb->os, cond(fb, "kernel"), cond(fb, "arch"));
	fprintf(f, "  Model: %s; CPU: %s, %s logical cores (performance %s, efficiency %s)\n",
		cond(fb, "model"), cond(fb, "cpu"), cond(fb, "ncpu"), cond(fb, "cores_p"),
		cond(fb, "cores_e"));
	fprintf(f, "  SIP (csrutil status): %s%s\n", cond(fb, "sip"),
		cond_is(fb, "sip_custom", "yes") ? " (Custom Configuration)" : "");
	fprintf(f, "  Gatekeeper assessments (spctl --status): %s\n", cond(fb, "assessments"));
	fprintf(f, "  Developer Tools authorisation of the terminal: %s\n", cond(fb, "devtools"));
	fprintf(f, "  Terminal: %s\n", cond(fb, "terminal"));
	fprintf(f, "  Responsible app (its Developer Tools grant applies to what the kit starts): %s (%s)\n",
		cond(fb, "responsible_app"), cond(fb, "responsible_path"));
	fprintf(f, "  Started via: %s (ssh %s, multiplexer %s, launchd job %s)\n",
		cond(fb, "started_via"), cond(fb, "ssh"), cond(fb, "multiplexer"),
		cond(fb, "launchd_job"));
	fprintf(f, "  XProtect: version %s (from %s); launch scans %s, background scans %s\n",
		cond(fb, "xprotect_version"), cond(fb, "xprotect_version_from"),
		cond(fb, "xprotect_launch_scans"), cond(fb, "xprotect_background_scans"));
	fprintf(f, "  Network: %s (interface %s, VPN %s)\n", cond(fb, "network"),
		cond(fb, "network_interface"), cond(fb, "vpn"));
	fprintf(f, "  Spotlight on the volume: %s; work folder indexed: %s; file system %s\n",
		cond(fb, "spotlight_volume"), cond(fb, "workdir_indexed"), cond(fb, "work_fs"));
	if (cond_is(fb, "gate.active", "1"))
		fprintf(f, "  Calibration gate: latency %s ms, workers %s, key %s, exempt %s\n",
			cond(fb, "gate.latency_ms"), cond(fb, "gate.workers"), cond(fb, "gate.key"),
			cond(fb, "gate.exempt"));
	fprintf(f, "  Run: %s, profile %s, %s to %s\n", fb->run_id, cond(fb, "run.profile"),
		cond(fb, "run.started_utc"), cond(fb, "run.finished_utc"));
}

/* The first-launch checker's health before the run (issue 43): its state,
 * the figures it rests on, the assessment's line and the log lines quoted
 * (health.tsv in the archive has the whole record). */
static void checker(FILE *f, const struct feedback *fb)
{
	size_t i;

	if (!fb->checker_state)
		return;
	fputc('\n', f);
	line(f, "The first-launch checker before any launch (read without root; health.tsv in the archive):");
	fprintf(f, "  State: %s (%s; the kit's limits: docs/method.md, \"When the checker is sick\")\n",
		fb->checker_state, cond(fb, "checker.why"));
	fprintf(f, "  syspolicyd (ps): %s%% CPU, %s KiB resident, running %s s; trustd %s%% CPU\n",
		cond(fb, "checker.syspolicyd_cpu_pct"), cond(fb, "checker.syspolicyd_rss_kb"),
		cond(fb, "checker.syspolicyd_etime_s"), cond(fb, "checker.trustd_cpu_pct"));
	fprintf(f, "  spctl --assess --type execute --verbose=4 /System/Applications/Calculator.app: "
		"%s (bound %s s)%s%s%s\n", cond(fb, "checker.assess"), cond(fb, "checker.assess_bound_s"),
		fb->assess_line ? ": \"" : "", fb->assess_line ? fb->assess_line : "",
		fb->assess_line ? "\"" : "");
	fprintf(f, "  syspolicyd's log, the last %s s: %s lines, %s a second not the kit's; error 24: "
		"%s lines; the program named most: %s (%s lines)\n", cond(fb, "checker.window_s"),
		cond(fb, "checker.log_lines"), cond(fb, "checker.rate"), cond(fb, "checker.emfile_lines"),
		cond(fb, "checker.driver"), cond(fb, "checker.driver_lines"));
	if (fb->n_quotes)
		line(f, "  Its log lines, quoted as `log show --style compact` printed them:");
	for (i = 0; i < fb->n_quotes; i++)
		fprintf(f, "    > %s\n", fb->quotes[i]);
}

/* The headline case in one line: what the reader at Apple looks at first. */
static void actual_lead(FILE *f, const struct feedback_case *k)
{
	char a[32], b[32], p[96];

	fprintf(f, "%s (%s), T=%ld: first launch %s ms, second %s ms (medians); the first waits %s ms "
		"longer (95%% interval): %s.\n", k->name, k->meaning, k->threads,
		rj_num2(k->n.first_ms, a, sizeof a), rj_num2(k->n.repeat_ms, b, sizeof b),
		penalty_text(&k->n.penalty, p, sizeof p), k->verdict);
	fputc('\n', f);
}

/* make remedies' table: each placement's first launch and its kills */
static void remedies(FILE *f, const struct feedback *fb)
{
	if (fb->remedies.n_rows == 0)
		return;
	line(f, "Where a build puts a program (make remedies): each placement's first launch");
	line(f, "against a new file (exe), and the launches the system killed, with the kill");
	line(f, "rate's exact 95% interval.");
	remedies_print_table(&fb->remedies, f);
	fputc('\n', f);
	remedies_print_lines(&fb->remedies, "- ", f);
	fputc('\n', f);
}

static void actual(FILE *f, const struct feedback *fb)
{
	size_t i;

	line(f, "ACTUAL RESULTS");
	actual_lead(f, fb->headline);
	line(f, "The rest, per case, thread count T and core class: median first and second");
	line(f, "launch, the penalty (median of first - second for the same file) with its 95%");
	line(f, "interval, the ratio of the medians, and the verdict (slowdown: interval above");
	line(f, "1 ms and a first launch above 1.5 times an unloaded one; none: interval below");
	line(f, "1 ms; otherwise inconclusive).");
	results_table(f, fb);
	fputc('\n', f);
	for (i = 0; i < fb->n_cases; i++) {
		const struct feedback_case *k = &fb->kase[i];
		char p[96], ratio[32];

		fprintf(f, "- %s (%s), T=%ld %s: %s, penalty %s ms, ratio %s — %s. Serialisation: "
			"%s — %s.\n", k->name, k->meaning, k->threads, k->class_name, k->verdict,
			penalty_text(&k->n.penalty, p, sizeof p), ratio_text(k->n.ratio, ratio, sizeof ratio),
			k->reason ? k->reason : "no reason recorded",
			k->serialisation ? k->serialisation : "unknown",
			k->serialisation_reason ? k->serialisation_reason : "no reason recorded");
	}
	fputc('\n', f);
	remedies(f, fb);
	extras(f, fb);
	conditions(f, fb);
	checker(f, fb);
	fputc('\n', f);
}

/* ---- after the results ---------------------------------------------------------------- */

static void workaround(FILE *f, const struct feedback *fb)
{
	line(f, "WORKAROUND");
	line(f, "Known workaround, not a fix: System Settings › Privacy & Security › Developer");
	line(f, "Tools: add the terminal app (Terminal, or with \"+\" iTerm, Ghostty …), switch it");
	line(f, "on, and quit and reopen the terminal. `spctl developer-mode enable-terminal` only");
	line(f, "makes Terminal appear in that list; it still has to be switched on there.");
	line(f, "The exemption follows the app the programs are started from; reports say it was");
	line(f, "lost under tmux after detach/reattach and did not work for Alacritty on 26.x.");
	fprintf(f, "In this run the Developer Tools authorisation of the terminal was: %s.\n",
		cond(fb, "devtools"));
	fputc('\n', f);
}

static void attachments(FILE *f, const struct feedback *fb)
{
	const char *c = fb->contents;

	line(f, "ATTACHMENTS");
	if (fb->bundle) {
		fprintf(f, "- %s, made by `make feedback`", fb->bundle);
		if (c && *c) {
			fputs(": ", f);
			for (; *c; c++) {
				if (*c == ',')
					fputs(", ", f);
				else
					fputc(*c, f);
			}
		}
		line(f, ".");
	}
	if (fb->logs_total > 0 && fb->logs_kept < fb->logs_total)
		fprintf(f, "  Its log excerpts (raw/*.log.ndjson) hold at most %s in all: the run's came to\n"
			"  %ld bytes, so each was cut to an even share, %ld bytes kept, its first and last\n"
			"  lines with a line saying so between them. The full logs are in the sysdiagnose.\n",
			LOGS_BOUND_TEXT, fb->logs_total, fb->logs_kept);
	else if (fb->logs_total > 0)
		fprintf(f, "  Its log excerpts (raw/*.log.ndjson, %ld bytes) are whole: the archive keeps at\n"
			"  most %s of them. The full logs are in the sysdiagnose.\n", fb->logs_total,
			LOGS_BOUND_TEXT);
	line(f, "- The sysdiagnose of step 2, started just before the reproducer ran (Control-");
	line(f, "  Option-Command-Shift-Period, or `sudo sysdiagnose -f ~/Desktop/`). It");
	line(f, "  collects a spindump, fs_usage and top samples, recent logs and a System");
	line(f, "  Profiler report: the place for full logs. Attach it as it is; it is not");
	line(f, "  redacted.");
	fputc('\n', f);
}

static void sources(FILE *f)
{
	line(f, "SOURCES (public reports)");
	line(f, "- Apple Platform Security, XProtect: checks run when an app is first launched or");
	line(f, "  has changed: https://support.apple.com/en-gb/guide/security/sec469d47bd8/web");
	line(f, "- cargo PR #15908: an empty binary, 120-180 ms first launch vs 4-8 ms, and 3-9 ms");
	line(f, "  with the terminal in Developer Tools: https://github.com/rust-lang/cargo/pull/15908");
	line(f, "- The /tmp/test.sh reproducer: https://lapcatsoftware.com/articles/catalina-executables.html");
	line(f, "- An overwritten, already checked file is not checked again:");
	line(f, "  https://github.com/matz/spinel/issues/4667");
	line(f, "- Developer Tools steps: https://nexte.st/docs/installation/macos/ and");
	line(f, "  spctl(8): https://garagecluster.com/mac/spctl.html");
	line(f, "- Exemption lost or not working: https://github.com/tmux/tmux/issues/4803,");
	line(f, "  https://github.com/alacritty/alacritty/issues/8785");
	line(f, "- sysdiagnose(1): https://unix.com/man-page/mojave/1/sysdiagnose/");
	line(f, "- Feedback Assistant: https://support.apple.com/guide/feedback-assistant/fba2e39e53f5/mac");
}

void feedback_text(FILE *f, const struct feedback *fb)
{
	banner(f, fb);
	title(f, fb);
	description(f, fb);
	steps(f, fb);
	expected(f);
	actual(f, fb);
	workaround(f, fb);
	attachments(f, fb);
	sources(f);
}

void feedback_services_table(FILE *f, const struct feedback *fb)
{
	int header = 0;
	char lead[128];
	size_t i;

	for (i = 0; i < fb->n_fields; i++) {
		const struct feedback_field *x = &fb->field[i];

		if (!x->kase || strcmp(x->key, "services") != 0 || json_is_null(x->value))
			continue;
		if (!header++)
			line(f, "case\tfield\tvalue");
		snprintf(lead, sizeof lead, "%s", x->kase);
		flatten("services", x->value, lead, 100000, f, 1);
	}
}
