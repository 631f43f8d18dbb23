/* fbtext - the text of feedback.txt, from a run's run.json.
 *
 *   fbtext --run DIR [--bundle NAME] [--contents LIST]
 *   fbtext --run DIR --services-table
 *
 * Prints, ready to paste into Feedback Assistant: title, area, type,
 * description, steps to reproduce, expected and actual results with the
 * run's own numbers, the known workaround, what to attach, and sources
 * (only public ones listed in the kit's evidence notes).  A Linux run or a
 * calibration-gate run is said to be what it is: not evidence of macOS
 * behaviour.  A simulated run (launcher sim:...) launched nothing: it is
 * refused, with one line and exit 2, and nothing is printed.  --services-table prints the cases' "services" fields (added
 * by newer kits) as "case<TAB>field<TAB>value" lines, or nothing.
 * scripts/feedback runs this and redacts the result. */
#define _POSIX_C_SOURCE 200809L
#include "runjson.h"
#include "jsonnum.h"
#include "kinds.h"
#include "opts.h"
#include "launcherspec.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EXTRA_LINES 24

/* What scripts/feedback tells: the kit's commit, where it was cloned from
 * (a git remote without credentials, or "a local clone") and home page,
 * and how much of the run's log excerpts the archive keeps. */
static const char *kit_commit, *kit_home, *kit_from;
static long logs_kept = -1, logs_total = -1;

#define LOGS_BOUND_TEXT "1 MiB"

static void usage(FILE *f)
{
	fputs("usage: fbtext --run DIR [--bundle NAME] [--contents LIST] [--kit COMMIT]\n"
	      "              [--from WHERE] [--home URL] [--logs KEPT,TOTAL]\n"
	      "       fbtext --run DIR --services-table\n"
	      "  --run DIR         a run folder (or its run.json)\n"
	      "  --bundle NAME     the archive feedback.txt tells to attach\n"
	      "  --contents LIST   comma-separated files in that archive\n"
	      "  --kit COMMIT      the kit's commit (git), said beside its version;\n"
	      "                    without it the kit is \"a copy of execlag VERSION\"\n"
	      "  --from WHERE      where that commit comes from: a git remote's URL\n"
	      "                    (no credentials) or \"a local clone\"\n"
	      "  --home URL        the kit's home page, where its README names one\n"
	      "  --logs KEPT,TOTAL bytes of log excerpts the archive keeps, of the run's\n"
	      "  --services-table  print cases[].services as case<TAB>field<TAB>value\n"
	      "Prints the text of feedback.txt (scripts/feedback redacts it).\n"
	      "Exit: 0 done, 2 bad usage, a run that cannot be read, or a simulated run\n"
	      "(it launched nothing and is never sent to Apple).\n", f);
}

enum platform { PLAT_MAC, PLAT_LINUX, PLAT_GATE, PLAT_OTHER };

static const char *cond(const struct runjson *r, const char *key)
{
	const char *v = runjson_condition(r, key);

	return v ? v : "unknown";
}

static int cond_is(const struct runjson *r, const char *key, const char *want)
{
	const char *v = runjson_condition(r, key);

	return v && strcmp(v, want) == 0;
}

static enum platform platform_of(const struct runjson *r)
{
	if (cond_is(r, "gate.active", "1"))
		return PLAT_GATE;
	if (cond_is(r, "os", "Darwin"))
		return PLAT_MAC;
	if (cond_is(r, "os", "Linux"))
		return PLAT_LINUX;
	return PLAT_OTHER;
}

/* "macOS 14.4.1 (23E224)" or "Debian GNU/Linux 12 (bookworm)". */
static void os_text(const struct runjson *r, char *buf, size_t len)
{
	const char *build = runjson_condition(r, "os_build");

	if (cond_is(r, "os", "Darwin"))
		snprintf(buf, len, "%s %s", cond(r, "os_name"), cond(r, "os_version"));
	else
		snprintf(buf, len, "%s", cond(r, "os_name"));
	if (build && strcmp(build, "n/a") != 0 && strcmp(build, "unknown") != 0) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, " (%s)", build);
	}
}

/* case_meaning: what a case's artifacts are, by its kind (run.json's
 * kind; its name in a run that records none), from the kinds table
 * (kinds.h), so that a case of the kit's own files reads the same under
 * any name. */
static const char *case_meaning(const json_t *k)
{
	const char *kind = rj_str(k, "kind");
	const char *name = kind && *kind ? kind : rj_str(k, "name");
	int i = name ? kind_find(name) : -1;

	return i >= 0 ? kind_table[i].meaning : "a case of the kit";
}

/* The slowdown case with the largest penalty, or NULL. */
static const json_t *worst_case(const struct runjson *r)
{
	const json_t *best = NULL;
	size_t i;

	for (i = 0; i < json_array_size(r->cases); i++) {
		const json_t *k = json_array_get(r->cases, i);

		if (strcmp(rj_str(k, "verdict"), "slowdown") != 0)
			continue;
		if (!best || rj_penalty(k, "median") > rj_penalty(best, "median"))
			best = k;
	}
	return best;
}

static const char *ratio_text(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f×", v);
	return buf;
}

/* The case ACTUAL RESULTS leads with: the title's (the largest slowdown),
 * else exe, else the first. */
static const json_t *headline_case(const struct runjson *r)
{
	const json_t *w = worst_case(r);

	if (w)
		return w;
	if (rj_case(r, "exe"))
		return rj_case(r, "exe");
	return json_array_get(r->cases, 0);
}

/* The suite case's projection at the most jobs it has one for, as one
 * sentence into buf; 0 when the run has none. */
static int projection_sentence(const struct runjson *r, char *buf, size_t len)
{
	const json_t *suite = json_object_get(r->json, "suite"), *runs, *best = NULL;
	long programs = rj_long(suite, "project_programs");
	size_t i;

	runs = json_object_get(suite, "runs");
	for (i = 0; i < json_array_size(runs); i++) {
		const json_t *one = json_array_get(runs, i);

		if (isnan(json_num_at(one, "projection_min")) || rj_long(one, "jobs") < 1)
			continue;
		if (!best || rj_long(one, "jobs") > rj_long(best, "jobs"))
			best = one;
	}
	if (!best || programs <= 0)
		return 0;
	snprintf(buf, len, "At this run's cost, a build or test suite that makes and runs %ld,%03ld "
		 "new programs would spend at least %.0f minutes waiting on first-launch checks "
		 "at %ld parallel job%s (the kit's suite case, measured in this run).",
		 programs / 1000, programs % 1000, json_num_at(best, "projection_min"),
		 rj_long(best, "jobs"), rj_long(best, "jobs") == 1 ? "" : "s");
	return 1;
}

/* ---- sections ---------------------------------------------------------- */

static void banner(const struct runjson *r, enum platform p)
{
	char os[256];

	os_text(r, os, sizeof os);
	puts("execlag feedback — ready to paste into Feedback Assistant");
	printf("Run %s, started %s, execlag %s.\n", r->run_id, cond(r, "run.started_utc"),
	       cond(r, "kit_version"));
	puts("Paste TITLE into the title field, choose the area and type, paste everything");
	puts("from DESCRIPTION to the end into the description field, and attach the files");
	puts("listed under ATTACHMENTS. Identifying values (user name, full name, host and");
	puts("computer names, home folder, serial number, hardware UUID) are replaced by");
	puts("placeholders such as <user> and <host> here and in the archive.");
	if (p == PLAT_LINUX)
		printf("\nNOT FOR FILING WITH APPLE: this run was made on %s,\n"
		       "the kit's Linux control run. Linux has no first-launch assessment; these\n"
		       "numbers are not evidence of macOS behaviour. Run `make repro` and\n"
		       "`make feedback` on the Mac instead.\n", os);
	if (p == PLAT_LINUX && runjson_condition(r, "fanotify_listeners")) {
		const char *a = cond(r, "agents");

		printf("Watching exec and open during this run (fanotify listeners): %s.\n",
		       cond(r, "fanotify_listeners"));
		if (strcmp(a, "none") != 0 && strcmp(a, "n/a") != 0)
			printf("Known scanners and agents running: %s. A first-launch cost in\n"
			       "this run is theirs: take it to their vendor, with this report.\n", a);
	}
	if (p == PLAT_GATE)
		printf("\nNOT FOR FILING WITH APPLE: this is a calibration run on %s:\n"
		       "a test gate (Linux fanotify, latency %s ms, workers %s, key %s, exempt %s) held the\n"
		       "launches on purpose. It tests the kit, not an OS, and is not evidence of\n"
		       "macOS behaviour.\n", os, cond(r, "gate.latency_ms"), cond(r, "gate.workers"),
		       cond(r, "gate.key"), cond(r, "gate.exempt"));
	else if (p == PLAT_OTHER)
		printf("\nNOT FOR FILING WITH APPLE: this run was made on %s, not on macOS.\n", os);
	else if (p != PLAT_LINUX && !worst_case(r))
		puts("\nThis run measured no first-launch slowdown on this Mac (no case has the\n"
		     "verdict slowdown): it does not show the problem, and there is nothing to\n"
		     "file from it. Re-run `make repro` when launches feel slow.");
	putchar('\n');
}

static void title(const struct runjson *r, enum platform p)
{
	const json_t *w = worst_case(r);
	char os[256], a[32], b[32], c[32];

	os_text(r, os, sizeof os);
	puts("TITLE");
	if (p == PLAT_LINUX)
		printf("[NOT FOR FILING: Linux control run] execlag first vs repeat launch on %s\n", os);
	else if (p == PLAT_GATE)
		printf("[NOT FOR FILING: calibration run] execlag first vs repeat launch under a test gate on %s\n", os);
	else if (p == PLAT_OTHER)
		printf("[NOT FOR FILING: not macOS] execlag first vs repeat launch on %s\n", os);
	else if (!w)
		printf("No first-launch slowdown measured by execlag on %s, %s\n", os, cond(r, "model"));
	else
		printf("First launch of a newly created program waits %s ms longer than its second "
		       "launch (%s; %s vs %s ms) on %s, %s\n",
		       rj_num2(rj_penalty(w, "median"), a, sizeof a), rj_str(w, "name"),
		       rj_num2(json_num_at(w, "first_median_ms"), b, sizeof b),
		       rj_num2(json_num_at(w, "repeat_median_ms"), c, sizeof c), os, cond(r, "model"));
	puts("\nAREA");
	puts("macOS, then the area closest to Security or Gatekeeper that Feedback Assistant");
	puts("offers (no public source names the area for this problem; this is the nearest");
	puts("fit): it is about the security assessment of newly created executables,");
	puts("scripts and libraries on their first launch (syspolicyd, XprotectService, amfid).");
	puts("\nTYPE");
	puts("Incorrect/Unexpected Behavior");
	putchar('\n');
}

static void description(const struct runjson *r, enum platform p)
{
	const json_t *w = worst_case(r);
	char a[32], b[32], c[32], d[96], proj[512];

	puts("DESCRIPTION");
	if (p == PLAT_MAC && w) {
		puts("On this Mac a program that was just created waits before it runs the first\n"
		     "time; the same file started a second time does not. execlag, a measurement\n"
		     "kit, made fresh files, launched each once and then again, and timed both\n"
		     "launches (posix_spawn + waitpid, monotonic clock).");
		printf("The largest penalty it measured is in case %s, %s.\n", rj_str(w, "name"),
		       case_meaning(w));
		printf("  first launch %s ms, second launch %s ms (medians), ratio %s\n",
		       rj_num2(json_num_at(w, "first_median_ms"), a, sizeof a),
		       rj_num2(json_num_at(w, "repeat_median_ms"), b, sizeof b),
		       ratio_text(json_num_at(w, "ratio"), c, sizeof c));
		printf("  penalty %s ms (median of first - second for the same file, 95%% interval)\n",
		       rj_penalty_text(w, d, sizeof d));
		puts("A test suite or build that creates and runs many small programs pays this\n"
		     "once per new file. Public reports describe the same first-launch cost and a\n"
		     "per-file cache (sources at the end).");
		if (projection_sentence(r, proj, sizeof proj))
			puts(proj);
		else
			puts("(This run did not measure the kit's suite case, which projects the cost to a\n"
			     "suite of 14,000 programs: make repro CASES=suite.)");
	} else if (p == PLAT_MAC) {
		puts("execlag made fresh files on this Mac, launched each once and then again, and\n"
		     "timed both launches. No case showed a first-launch slowdown in this run\n"
		     "(numbers under ACTUAL RESULTS).");
	} else {
		puts("execlag made fresh files, launched each once and then again, and timed both\n"
		     "launches. This run is a control or calibration run (see the note at the top),\n"
		     "not a macOS measurement.");
	}
	putchar('\n');
}

static void make_command(const struct runjson *r)
{
	const char *count = runjson_condition(r, "run.count");
	const char *classes = runjson_condition(r, "run.classes");

	printf("   %s", cond_is(r, "run.profile", "full") ? "make repro-full" : "make repro");
	if (runjson_condition(r, "run.cases"))
		printf(" CASES=%s", cond(r, "run.cases"));
	if (runjson_condition(r, "run.threads"))
		printf(" THREADS=%s", cond(r, "run.threads"));
	if (count && strcmp(count, "per case") != 0)
		printf(" COUNT=%s", count);
	if (classes && strcmp(classes, "all") != 0)
		printf(" CLASSES=%s", classes);
	if (cond_is(r, "gate.active", "1"))
		printf(" GATE='latency=%s workers=%s key=%s exempt=%s'", cond(r, "gate.latency_ms"),
		       cond(r, "gate.workers"), cond(r, "gate.key"), cond(r, "gate.exempt"));
	putchar('\n');
}

static void steps(const struct runjson *r)
{
	const char *version = rj_str(r->json, "kit_version") ? rj_str(r->json, "kit_version")
							      : cond(r, "kit_version");

	puts("STEPS TO REPRODUCE");
	if (kit_commit) {
		printf("1. With the execlag kit (execlag %s, commit %s", version, kit_commit);
		if (kit_from && strcmp(kit_from, "a local clone") == 0)
			fputs(", from a local clone", stdout);
		else if (kit_from)
			printf(", git remote %s", kit_from);
	} else {
		printf("1. With a copy of execlag %s (not a git checkout", version);
	}
	if (kit_home)
		printf(", home page %s", kit_home);
	puts("), from its folder, the settings of this run:");
	make_command(r);
	puts("   then `make feedback` for this text and the archive. The kit builds its own");
	puts("   tools, makes N fresh files per case, and launches each twice.");
	puts("2. By hand, with a sysdiagnose capturing it: first start a sysdiagnose (press");
	puts("   Control-Option-Command-Shift-Period, or run `sudo sysdiagnose -f ~/Desktop/`");
	puts("   in a second window) and note the time; while it collects (its spindump,");
	puts("   fs_usage and top samples are of those seconds) run the one-line reproducer");
	puts("   from the public reports, as it is, in zsh or bash (`$'…'` is their syntax).");
	puts("   It removes /tmp/test.sh first: writing into an existing file keeps its");
	puts("   inode, and a file already checked starts at full speed.");
	puts("   rm -f /tmp/test.sh; echo $'#!/bin/sh\\necho Hello' > /tmp/test.sh && chmod a+x /tmp/test.sh; time /tmp/test.sh && time /tmp/test.sh");
	puts("   The same in any POSIX shell:");
	puts("   rm -f /tmp/test.sh; printf '#!/bin/sh\\necho Hello\\n' > /tmp/test.sh && chmod a+x /tmp/test.sh; time /tmp/test.sh && time /tmp/test.sh");
	puts("   The first `time` is the file's first launch, the second its second launch.");
	puts("3. Attach the sysdiagnose of step 2 (see ATTACHMENTS) with the time you noted.");
	putchar('\n');
}

static void expected(void)
{
	puts("EXPECTED RESULTS");
	puts("A program that was just created starts about as fast on its first launch as on");
	puts("its second: the kit's rule calls a penalty below 1 ms \"none\".");
	putchar('\n');
}

static void cell_row(const char *const *cells, const int *width, int n)
{
	int i;

	fputs("  ", stdout);
	for (i = 0; i < n; i++) {
		if (i == n - 1)
			printf("%s\n", cells[i]);
		else
			printf("%-*s  ", width[i], cells[i]);
	}
}

enum { C_CASE, C_T, C_CLASS, C_FIRST, C_REPEAT, C_PENALTY, C_RATIO, C_VERDICT, N_C };

static void config_cells(const json_t *k, const json_t *c, char cells[N_C][96])
{
	snprintf(cells[C_CASE], 96, "%s", rj_str(k, "name"));
	snprintf(cells[C_T], 96, "%ld", rj_long(c, "threads"));
	if (rj_pad(c) > 0) {
		char size[32];

		snprintf(cells[C_CLASS], 96, "%s %s", rj_str(c, "class"),
			 size_text(rj_pad(c), size, sizeof size));
	} else {
		snprintf(cells[C_CLASS], 96, "%s", rj_str(c, "class"));
	}
	rj_num2(json_num_at(json_object_get(c, "first"), "median_ms"), cells[C_FIRST], 96);
	rj_num2(json_num_at(json_object_get(c, "repeat"), "median_ms"), cells[C_REPEAT], 96);
	rj_penalty_text(c, cells[C_PENALTY], 96);
	rj_num2(json_num_at(c, "ratio"), cells[C_RATIO], 96);
	snprintf(cells[C_VERDICT], 96, "%s", rj_str(c, "verdict"));
}

static void results_table(const struct runjson *r)
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
			cell_row(head, width, N_C);
		for (k = 0; k < json_array_size(r->cases); k++) {
			const json_t *kase = json_array_get(r->cases, k);
			const json_t *configs = json_object_get(kase, "configs");

			for (j = 0; j < json_array_size(configs); j++) {
				config_cells(kase, json_array_get(configs, j), cells);
				for (i = 0; i < N_C; i++) {
					int len = (int)strlen(cells[i]);

					ptr[i] = cells[i];
					if (pass == 0 && len > width[i])
						width[i] = len;
				}
				if (pass == 1)
					cell_row(ptr, width, N_C);
			}
		}
	}
}

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

static int known_case_key(const char *key)
{
	static const char *const known[] = {
		"name", "kind", "verdict", "reason", "penalty_ms", "first_median_ms",
		"repeat_median_ms", "ratio", "serialisation", "serialisation_reason",
		"headline", "configs", "scaling", NULL
	};
	int i;

	for (i = 0; known[i]; i++)
		if (strcmp(known[i], key) == 0)
			return 1;
	return 0;
}

static int known_run_key(const char *key)
{
	static const char *const known[] = {
		"schema", "schema_version", "kit_version", "run_id", "conditions",
		"thresholds", "gate", "cases", "inferred", NULL
	};
	int i;

	for (i = 0; known[i]; i++)
		if (strcmp(known[i], key) == 0)
			return 1;
	return 0;
}

/* The fields a reader at Apple acts on are pasted as recorded: what the
 * assessment services did during a case (their CPU time; the unified
 * log's assessment events, cases[].assessments).  Every other field of newer kit parts (the suite, hyperfine,
 * every-launch costs, reasons) stays in run.json in the archive, named
 * here in one line each, so that the paste stays short. */
static int pasted_case_key(const char *key)
{
	return strcmp(key, "services") == 0 || strcmp(key, "assessments") == 0 ||
	       strcmp(key, "log_events") == 0;
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

static void extras(const struct runjson *r)
{
	int budget = MAX_EXTRA_LINES, header = 0;
	char per_case[512] = "", per_run[512] = "";
	const char *key;
	json_t *v;
	size_t i;

	for (i = 0; i < json_array_size(r->cases); i++) {
		const json_t *k = json_array_get(r->cases, i);
		char lead[128];

		json_object_foreach((json_t *)k, key, v) {
			if (known_case_key(key))
				continue;
			if (!pasted_case_key(key) || budget <= 0 || json_is_null(v) ||
			    (json_is_object(v) && json_object_size(v) == 0)) {
				name_once(per_case, sizeof per_case, key);
				continue;
			}
			if (!header++)
				puts("What the assessment services did, as run.json recorded it:");
			snprintf(lead, sizeof lead, "  %s: ", rj_str(k, "name"));
			budget -= flatten(key, v, lead, budget, stdout, 0);
		}
	}
	json_object_foreach(r->json, key, v) {
		if (!known_run_key(key))
			name_once(per_run, sizeof per_run, key);
	}
	if (budget <= 0)
		puts("  (more in run.json)");
	if (*per_case || *per_run) {
		puts("Also in run.json, in the attached archive, not repeated here:");
		if (*per_case)
			printf("  per case: %s\n", per_case);
		if (*per_run)
			printf("  for the run: %s\n", per_run);
		header = 1;
	}
	if (header)
		putchar('\n');
}

static void conditions(const struct runjson *r)
{
	char os[256];

	os_text(r, os, sizeof os);
	puts("Conditions of this run:");
	printf("  OS: %s, kernel %s, %s\n", os, cond(r, "kernel"), cond(r, "arch"));
	printf("  Model: %s; CPU: %s, %s logical cores (performance %s, efficiency %s)\n",
	       cond(r, "model"), cond(r, "cpu"), cond(r, "ncpu"), cond(r, "cores_p"),
	       cond(r, "cores_e"));
	printf("  SIP (csrutil status): %s%s\n", cond(r, "sip"),
	       cond_is(r, "sip_custom", "yes") ? " (Custom Configuration)" : "");
	printf("  Gatekeeper assessments (spctl --status): %s\n", cond(r, "assessments"));
	printf("  Developer Tools authorisation of the terminal: %s\n", cond(r, "devtools"));
	printf("  Terminal: %s\n", cond(r, "terminal"));
	printf("  Responsible app (its Developer Tools grant applies to what the kit starts): %s (%s)\n",
	       cond(r, "responsible_app"), cond(r, "responsible_path"));
	printf("  Started via: %s (ssh %s, multiplexer %s, launchd job %s)\n", cond(r, "started_via"),
	       cond(r, "ssh"), cond(r, "multiplexer"), cond(r, "launchd_job"));
	printf("  XProtect: version %s (from %s); launch scans %s, background scans %s\n",
	       cond(r, "xprotect_version"), cond(r, "xprotect_version_from"),
	       cond(r, "xprotect_launch_scans"), cond(r, "xprotect_background_scans"));
	printf("  Network: %s (interface %s, VPN %s)\n", cond(r, "network"),
	       cond(r, "network_interface"), cond(r, "vpn"));
	printf("  Spotlight on the volume: %s; work folder indexed: %s; file system %s\n",
	       cond(r, "spotlight_volume"), cond(r, "workdir_indexed"), cond(r, "work_fs"));
	if (cond_is(r, "gate.active", "1"))
		printf("  Calibration gate: latency %s ms, workers %s, key %s, exempt %s\n",
		       cond(r, "gate.latency_ms"), cond(r, "gate.workers"), cond(r, "gate.key"),
		       cond(r, "gate.exempt"));
	printf("  Run: %s, profile %s, %s to %s\n", r->run_id, cond(r, "run.profile"),
	       cond(r, "run.started_utc"), cond(r, "run.finished_utc"));
}

/* The headline case in one line: what the reader at Apple looks at first. */
static void actual_lead(const struct runjson *r)
{
	const json_t *k = headline_case(r), *h = json_object_get(k, "headline");
	char a[32], b[32], p[96];

	printf("%s (%s), T=%ld: first launch %s ms, second %s ms (medians); the first waits %s ms "
	       "longer (95%% interval): %s.\n", rj_str(k, "name"), case_meaning(k),
	       rj_long(h, "threads"), rj_num2(json_num_at(k, "first_median_ms"), a, sizeof a),
	       rj_num2(json_num_at(k, "repeat_median_ms"), b, sizeof b), rj_penalty_text(k, p, sizeof p),
	       rj_str(k, "verdict"));
	putchar('\n');
}

static void actual(const struct runjson *r)
{
	size_t i;

	puts("ACTUAL RESULTS");
	actual_lead(r);
	puts("The rest, per case, thread count T and core class: median first and second");
	puts("launch, the penalty (median of first - second for the same file) with its 95%");
	puts("interval, the ratio of the medians, and the verdict (slowdown: interval above");
	puts("1 ms and a first launch above 1.5 times an unloaded one; none: interval below");
	puts("1 ms; otherwise inconclusive).");
	results_table(r);
	putchar('\n');
	for (i = 0; i < json_array_size(r->cases); i++) {
		const json_t *k = json_array_get(r->cases, i);
		const json_t *h = json_object_get(k, "headline");
		char p[96], ratio[32];

		printf("- %s (%s), T=%ld %s: %s, penalty %s ms, ratio %s — %s. Serialisation: "
		       "%s — %s.\n",
		       rj_str(k, "name"), case_meaning(k), rj_long(h, "threads"),
		       rj_str(h, "class"), rj_str(k, "verdict"), rj_penalty_text(k, p, sizeof p),
		       ratio_text(json_num_at(k, "ratio"), ratio, sizeof ratio),
		       rj_str(k, "reason") ? rj_str(k, "reason") : "no reason recorded",
		       rj_str(k, "serialisation") ? rj_str(k, "serialisation") : "unknown",
		       rj_str(k, "serialisation_reason") ? rj_str(k, "serialisation_reason")
							  : "no reason recorded");
	}
	putchar('\n');
	extras(r);
	conditions(r);
	putchar('\n');
}

static void workaround(const struct runjson *r)
{
	puts("WORKAROUND");
	puts("Known workaround, not a fix: System Settings › Privacy & Security › Developer");
	puts("Tools: add the terminal app (Terminal, or with \"+\" iTerm, Ghostty …), switch it");
	puts("on, and quit and reopen the terminal. `spctl developer-mode enable-terminal` only");
	puts("makes Terminal appear in that list; it still has to be switched on there.");
	puts("The exemption follows the app the programs are started from; reports say it was");
	puts("lost under tmux after detach/reattach and did not work for Alacritty on 26.x.");
	printf("In this run the Developer Tools authorisation of the terminal was: %s.\n",
	       cond(r, "devtools"));
	putchar('\n');
}

static void attachments(const char *bundle, const char *contents)
{
	puts("ATTACHMENTS");
	if (bundle) {
		printf("- %s, made by `make feedback`", bundle);
		if (contents && *contents) {
			fputs(": ", stdout);
			for (; *contents; contents++) {
				if (*contents == ',')
					fputs(", ", stdout);
				else
					putchar(*contents);
			}
		}
		puts(".");
	}
	if (logs_total > 0 && logs_kept < logs_total)
		printf("  Its log excerpts (raw/*.log.ndjson) hold at most %s in all: the run's came to\n"
		       "  %ld bytes, so each was cut to an even share, %ld bytes kept, its first and last\n"
		       "  lines with a line saying so between them. The full logs are in the sysdiagnose.\n",
		       LOGS_BOUND_TEXT, logs_total, logs_kept);
	else if (logs_total > 0)
		printf("  Its log excerpts (raw/*.log.ndjson, %ld bytes) are whole: the archive keeps at\n"
		       "  most %s of them. The full logs are in the sysdiagnose.\n", logs_total,
		       LOGS_BOUND_TEXT);
	puts("- The sysdiagnose of step 2, started just before the reproducer ran (Control-");
	puts("  Option-Command-Shift-Period, or `sudo sysdiagnose -f ~/Desktop/`). It");
	puts("  collects a spindump, fs_usage and top samples, recent logs and a System");
	puts("  Profiler report: the place for full logs. Attach it as it is; it is not");
	puts("  redacted.");
	putchar('\n');
}

static void sources(void)
{
	puts("SOURCES (public reports)");
	puts("- Apple Platform Security, XProtect: checks run when an app is first launched or");
	puts("  has changed: https://support.apple.com/en-gb/guide/security/sec469d47bd8/web");
	puts("- cargo PR #15908: an empty binary, 120-180 ms first launch vs 4-8 ms, and 3-9 ms");
	puts("  with the terminal in Developer Tools: https://github.com/rust-lang/cargo/pull/15908");
	puts("- The /tmp/test.sh reproducer: https://lapcatsoftware.com/articles/catalina-executables.html");
	puts("- An overwritten, already checked file is not checked again:");
	puts("  https://github.com/matz/spinel/issues/4667");
	puts("- Developer Tools steps: https://nexte.st/docs/installation/macos/ and");
	puts("  spctl(8): https://garagecluster.com/mac/spctl.html");
	puts("- Exemption lost or not working: https://github.com/tmux/tmux/issues/4803,");
	puts("  https://github.com/alacritty/alacritty/issues/8785");
	puts("- sysdiagnose(1): https://unix.com/man-page/mojave/1/sysdiagnose/");
	puts("- Feedback Assistant: https://support.apple.com/guide/feedback-assistant/fba2e39e53f5/mac");
}

static void services_table(const struct runjson *r)
{
	int header = 0;
	size_t i;

	for (i = 0; i < json_array_size(r->cases); i++) {
		const json_t *k = json_array_get(r->cases, i);
		const json_t *s = json_object_get(k, "services");
		char lead[128];

		if (!s || json_is_null(s))
			continue;
		if (!header++)
			puts("case\tfield\tvalue");
		snprintf(lead, sizeof lead, "%s", rj_str(k, "name"));
		flatten("services", s, lead, 100000, stdout, 1);
	}
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *bundle = NULL, *contents = NULL;
	const char *logs = NULL;
	int table = 0;
	const struct opt opts[] = {
		OPT_VALUE("--run", &dir), OPT_VALUE("--bundle", &bundle),
		OPT_VALUE("--contents", &contents), OPT_VALUE("--kit", &kit_commit),
		OPT_VALUE("--home", &kit_home), OPT_VALUE("--from", &kit_from),
		OPT_VALUE("--logs", &logs),
		OPT_FLAG("--services-table", &table), OPT_END
	};
	struct runjson r;
	enum platform p;

	progname = "fbtext";
	opts_parse(argc, argv, opts, OPTS_NONE, usage);
	if (kit_commit && !*kit_commit)
		kit_commit = NULL;
	if (kit_home && !*kit_home)
		kit_home = NULL;
	if (kit_from && !*kit_from)
		kit_from = NULL;
	if (logs && (!strchr(logs, ',') || sscanf(logs, "%ld,%ld", &logs_kept, &logs_total) != 2 ||
		     logs_kept < 0 || logs_total < 0))
		die(EXIT_USAGE, "--logs needs KEPT,TOTAL in bytes, not '%s' (try --help)", logs);
	if (!dir)
		die(EXIT_USAGE, "--run DIR is required (try --help)");
	runjson_load(&r, "", dir, NULL);
	if (launcher_is_sim(runjson_condition(&r, "launcher")))
		die(EXIT_USAGE, "%s is a simulated run (launcher %s): it launched nothing and "
		    "is not evidence; it is never sent to Apple", dir,
		    runjson_condition(&r, "launcher"));
	if (table) {
		services_table(&r);
	} else {
		p = platform_of(&r);
		banner(&r, p);
		title(&r, p);
		description(&r, p);
		steps(&r);
		expected();
		actual(&r);
		workaround(&r);
		attachments(bundle, contents);
		sources();
	}
	runjson_free(&r);
	if (fflush(stdout) != 0 || ferror(stdout))
		die(EXIT_FAIL, "cannot write to stdout:");
	return EXIT_OK;
}
