/* services_log.c - the assessment services' CPU time and the unified log's
 * assessments per case (services_log.h; file formats in docs/formats.md).
 *
 * A case can have several configs (thread counts, core classes); each is
 * one window, sampled before its first pass and after its repeat pass.  A
 * case's numbers are the sums over its windows that could be read. */
#define _POSIX_C_SOURCE 200809L
#include "services_log.h"
#include "run.h"
#include "logexcerpt.h"
#include "services.h"
#include "stats.h"
#include "conditions.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define WHY_MAX 320

/* The documented steps of an assessment, in the order the report lists
 * them (docs/evidence.md, "The unified log"): P. Wardle's RSAC sequence from
 * com.apple.syspolicy.exec (process assessment, performScan, legacy
 * notarization, scan complete, evaluateScanResult), "GK Xprotect results"
 * and "scan finished, waking up any waiters" (measurement notes and a
 * parser's fixture quoting them), and the notarization ticket lookup that
 * com.apple.syspolicy logs (eclecticlight, "How iCloud can be simpler than
 * a server").  A step is counted by its text anywhere in a syspolicyd
 * event's message. */
enum {
	STEP_PROCESS_ASSESSMENT, STEP_PERFORM_SCAN, STEP_LEGACY_NOTARIZATION,
	STEP_TICKET_LOOKUP, STEP_REACHABILITY, STEP_XPROTECT_RESULTS, STEP_SCAN_FINISHED,
	STEP_SCAN_COMPLETE, STEP_EVALUATE, N_STEPS
};
static const struct { const char *key, *text; } steps[N_STEPS] = {
	{ "process_assessment", "GK process assessment" },
	{ "perform_scan", "GK performScan" },
	{ "legacy_notarization", "Checking legacy notarization" },
	{ "ticket_lookup", "looking up ticket" },
	{ "network_reachability", "CKTicketStore network reachability" },
	{ "xprotect_results", "GK Xprotect results" },
	{ "scan_finished", "scan finished, waking up any waiters" },
	{ "scan_complete", "GK scan complete" },
	{ "evaluate_scan_result", "GK evaluateScanResult" },
};

/* The lines of one window that carry the same path: one check, timed from
 * its first line to its last. */
struct check {
	char *path;
	int window;
	long lines;
	double first_s, last_s; /* seconds, from the events' timestamps */
	char first[40];         /* the first line's timestamp, as logged */
};

/* At most this many checks per case are listed in run.json (all are
 * counted and timed). */
#define CHECKS_LISTED 200

struct case_watch {
	int windows;          /* configs of the case */
	long fresh, repeat;   /* launches in all of them */

	int svc_windows, svc_missing;
	long svc_fresh, svc_repeat;
	struct svc_total svc[N_SERVICES];
	char svc_why[WHY_MAX]; /* the first window that could not be used */

	int log_windows, log_missing, log_cut;
	long log_fresh, log_repeat;
	long performscan, scan_complete, process_assessment, amfid, xprotect;
	long events, unreadable;
	long steps[N_STEPS];
	struct check *checks; /* lines grouped by the path they carry */
	size_t n_checks;
	char log_why[WHY_MAX];
};

struct services_log {
	struct case_watch *cases;
	size_t n_cases;
	const char *os;
	int any_files;
};

static void set_why(char *why, const char *fmt, ...)
{
	va_list ap;

	if (why[0])
		return; /* the first problem is the one reported */
	va_start(ap, fmt);
	vsnprintf(why, WHY_MAX, fmt, ap);
	va_end(ap);
}

/* "raw/exe-t1-all.samples.tsv" -> "raw/exe-t1-all" (newly allocated). */
static char *config_prefix(const struct config *c)
{
	const char *suffix = ".samples.tsv";
	size_t n = strlen(c->file), s = strlen(suffix);
	char *p = xstrdup(c->file);

	if (n > s && strcmp(p + n - s, suffix) == 0)
		p[n - s] = '\0';
	return p;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static char *with_suffix(const char *prefix, const char *suffix)
{
	size_t n = strlen(prefix) + strlen(suffix) + 1;
	char *p = xmalloc(n);

	snprintf(p, n, "%s%s", prefix, suffix);
	return p;
}

/* ---- unified log excerpts ------------------------------------------------------------- */

static void add_check_line(struct case_watch *cw, int window, char *path, const char *stamp)
{
	double t;
	size_t i;
	struct check *c = NULL;

	if (!stamp || logex_time(stamp, &t) != 0) {
		free(path);
		return;
	}
	for (i = 0; i < cw->n_checks; i++)
		if (cw->checks[i].window == window && strcmp(cw->checks[i].path, path) == 0) {
			c = &cw->checks[i];
			break;
		}
	if (!c) {
		cw->checks = xrealloc(cw->checks, (cw->n_checks + 1) * sizeof *cw->checks);
		c = &cw->checks[cw->n_checks++];
		memset(c, 0, sizeof *c);
		c->path = path;
		c->window = window;
		c->first_s = c->last_s = t;
		snprintf(c->first, sizeof c->first, "%s", stamp);
	} else {
		free(path);
		if (t < c->first_s) {
			c->first_s = t;
			snprintf(c->first, sizeof c->first, "%s", stamp);
		}
		if (t > c->last_s)
			c->last_s = t;
	}
	c->lines++;
}

/* One event of an excerpt into the case's counts. */
static void count_event(const struct logex_event *ev, void *ctx)
{
	struct case_watch *cw = ctx;
	const char *msg = ev->message, *image = ev->image;

	if (msg && strstr(msg, "GK performScan"))
		cw->performscan++;
	if (msg && strstr(msg, "GK scan complete"))
		cw->scan_complete++;
	if (msg && strstr(msg, "GK process assessment"))
		cw->process_assessment++;
	if (image && strcmp(base_name(image), "amfid") == 0)
		cw->amfid++;
	if (image && strcmp(base_name(image), "XprotectService") == 0)
		cw->xprotect++;
	if (msg && image && strcmp(base_name(image), "syspolicyd") == 0) {
		int k;
		char *p;

		for (k = 0; k < N_STEPS; k++)
			if (strstr(msg, steps[k].text))
				cw->steps[k]++;
		if ((p = logex_path(msg)) != NULL)
			add_check_line(cw, cw->log_windows, p, ev->timestamp);
	}
}

/* Count the assessment events of one excerpt into cw; -1 when unreadable. */
static int count_log(const char *path, const char *name, struct case_watch *cw, char *why)
{
	struct logex_counts n;

	if (logex_each(path, count_event, cw, &n) != 0) {
		set_why(why, "%s.log.ndjson: cannot open: %s", name, strerror(errno));
		return -1;
	}
	cw->events += n.events;
	cw->unreadable += n.unreadable;
	return 0;
}

/* ---- reading a run ---------------------------------------------------------------------- */

static void watch_config(struct services_log *w, struct case_watch *cw, const struct config *c)
{
	char *prefix = config_prefix(c);
	const char *name = base_name(prefix);
	char *path, result[32], message[WHY_MAX], why[WHY_MAX] = "";
	struct svc_sample before, after;
	long fresh = c->passes[PASS_FIRST].present ? c->passes[PASS_FIRST].launches : c->n;
	long repeat = c->passes[PASS_REPEAT].present ? c->passes[PASS_REPEAT].launches : c->n;
	int rc;

	cw->windows++;
	cw->fresh += fresh;
	cw->repeat += repeat;

	memset(&before, 0, sizeof before);
	memset(&after, 0, sizeof after);
	path = with_suffix(prefix, ".services.tsv");
	rc = services_read(path, name, &before, &after, why, sizeof why);
	if (rc == 1) {
		cw->svc_missing++;
	} else if (rc < 0) {
		w->any_files = 1;
		set_why(cw->svc_why, "%s", why);
	} else {
		w->any_files = 1;
		services_add(cw->svc, &before, &after);
		cw->svc_windows++;
		cw->svc_fresh += fresh;
		cw->svc_repeat += repeat;
	}
	services_free(&before);
	services_free(&after);
	free(path);

	why[0] = '\0';
	path = with_suffix(prefix, ".log.status");
	rc = logex_status(path, result, sizeof result, message, sizeof message);
	if (rc == -1)
		set_why(why, "%s.log.status: cannot open: %s", name, strerror(errno));
	else if (rc == -2)
		set_why(why, "%s.log.status is not a log status file", name);
	free(path);
	if (rc == 1) {
		cw->log_missing++;
	} else if (rc < 0) {
		w->any_files = 1;
		set_why(cw->log_why, "%s", why);
	} else if (strcmp(result, "ok") == 0 || strcmp(result, "cut") == 0) {
		w->any_files = 1;
		path = with_suffix(prefix, ".log.ndjson");
		if (count_log(path, name, cw, why) == 0) {
			cw->log_windows++;
			cw->log_fresh += fresh;
			cw->log_repeat += repeat;
			cw->log_cut += strcmp(result, "cut") == 0;
		} else {
			set_why(cw->log_why, "%s", why);
		}
		free(path);
	} else if (strcmp(result, "refused") == 0) {
		w->any_files = 1;
		set_why(cw->log_why, "log show refused: %s", message[0] ? message : "no message");
	} else if (strcmp(result, "skipped") == 0) {
		set_why(cw->log_why, "%s", message[0] ? message : "log show was not run");
	} else {
		w->any_files = 1;
		set_why(cw->log_why, "%s.log.status: unknown result '%s'", name, result);
	}
	free(prefix);
}

/* Why a case has nothing to show, when nothing says why yet. */
static void finish_case(const struct services_log *w, struct case_watch *cw)
{
	int darwin = w->os && strcmp(w->os, "Darwin") == 0;

	if (cw->svc_windows == 0 && !cw->svc_why[0]) {
		if (darwin)
			set_why(cw->svc_why, "not sampled: the run has no raw/*.services.tsv");
		else
			set_why(cw->svc_why, "not sampled: the assessment services are watched on "
				"macOS (this run: os=%s)", w->os ? w->os : "unknown");
	}
	if (cw->log_windows == 0 && !cw->log_why[0]) {
		if (darwin)
			set_why(cw->log_why, "no log read: the run has no raw/*.log.status");
		else
			set_why(cw->log_why, "no log read: the unified log is macOS's (this run: os=%s)",
				w->os ? w->os : "unknown");
	}
}

struct services_log *services_log_read(const char *dir, const struct run *r)
{
	struct services_log *w = xmalloc(sizeof *w);
	size_t i, j;

	(void)dir; /* the configs carry their own paths */
	memset(w, 0, sizeof *w);
	w->os = run_condition(r, "os");
	w->n_cases = r->n_cases;
	w->cases = xmalloc((r->n_cases ? r->n_cases : 1) * sizeof *w->cases);
	memset(w->cases, 0, (r->n_cases ? r->n_cases : 1) * sizeof *w->cases);
	for (i = 0; i < r->n_cases; i++) {
		for (j = 0; j < r->cases[i].n_configs; j++)
			watch_config(w, &w->cases[i], r->cases[i].configs[j]);
		finish_case(w, &w->cases[i]);
	}
	return w;
}

/* ---- run.json ---------------------------------------------------------------------------- */

static double centis(double v)
{
	return round(v * 100.0) / 100.0;
}

static json_t *json_services(const struct case_watch *cw)
{
	json_t *obj, *deltas;
	int i;

	if (cw->svc_windows == 0)
		return json_null();
	deltas = json_array();
	for (i = 0; i < N_SERVICES; i++) {
		const struct svc_total *t = &cw->svc[i];

		json_array_append_new(deltas, json_pack("{s:s, s:o, s:I, s:I}",
			"name", service_names[i],
			"cpu_s_delta", t->unknown ? json_null() : json_real(centis(t->cpu_s)),
			"instances", (json_int_t)t->instances,
			"ended", (json_int_t)t->ended));
	}
	obj = json_pack("{s:I, s:I, s:i}", "fresh_launches", (json_int_t)cw->svc_fresh,
			"repeat_launches", (json_int_t)cw->svc_repeat, "windows", cw->svc_windows);
	json_object_set_new(obj, "deltas", deltas);
	return obj;
}

/* The timed checks' durations in ms (lines >= 2), sorted; their count. */
static size_t check_durations(const struct case_watch *cw, double **out)
{
	size_t i, n = 0;
	double *d = xmalloc((cw->n_checks ? cw->n_checks : 1) * sizeof *d);

	for (i = 0; i < cw->n_checks; i++)
		if (cw->checks[i].lines >= 2)
			d[n++] = (cw->checks[i].last_s - cw->checks[i].first_s) * 1000.0;
	stats_sort(d, n);
	*out = d;
	return n;
}

static double millis3(double v)
{
	return round(v * 1000.0) / 1000.0;
}

/* steps, checks_timed, check_median_ms, check_max_ms and checks (the
 * first CHECKS_LISTED timed ones) into obj. */
static void json_steps(const struct case_watch *cw, json_t *obj)
{
	json_t *st = json_object(), *list = json_array();
	double *d;
	size_t i, n = check_durations(cw, &d), listed = 0;
	int k;

	for (k = 0; k < N_STEPS; k++)
		json_object_set_new(st, steps[k].key, json_integer(cw->steps[k]));
	json_object_set_new(obj, "steps", st);
	json_object_set_new(obj, "checks_timed", json_integer((json_int_t)n));
	json_object_set_new(obj, "check_median_ms", n ? json_real(millis3(stats_median(d, n))) : json_null());
	json_object_set_new(obj, "check_max_ms", n ? json_real(millis3(d[n - 1])) : json_null());
	for (i = 0; i < cw->n_checks && listed < CHECKS_LISTED; i++) {
		const struct check *c = &cw->checks[i];

		if (c->lines < 2)
			continue;
		json_array_append_new(list, json_pack("{s:s, s:I, s:s, s:f}", "path", c->path,
						      "lines", (json_int_t)c->lines, "first", c->first,
						      "ms", millis3((c->last_s - c->first_s) * 1000.0)));
		listed++;
	}
	json_object_set_new(obj, "checks", list);
	free(d);
}

static json_t *json_assessments(const struct case_watch *cw)
{
	json_t *obj;

	if (cw->log_windows == 0)
		return json_null();
	obj = json_pack("{s:I, s:I, s:i, s:I, s:I, s:I}",
			"fresh_launches", (json_int_t)cw->log_fresh,
			"repeat_launches", (json_int_t)cw->log_repeat,
			"windows", cw->log_windows,
			"observed", (json_int_t)cw->performscan,
			"scan_complete", (json_int_t)cw->scan_complete,
			"process_assessment", (json_int_t)cw->process_assessment);
	json_object_set_new(obj, "amfid", json_integer(cw->amfid));
	json_object_set_new(obj, "xprotect", json_integer(cw->xprotect));
	json_object_set_new(obj, "events", json_integer(cw->events));
	json_object_set_new(obj, "unreadable", json_integer(cw->unreadable));
	json_object_set_new(obj, "cut_windows", json_integer(cw->log_cut));
	json_steps(cw, obj);
	return obj;
}

/* The reason for a null, or what a partial answer leaves out. */
static json_t *json_reason(int used, int windows, int missing, const char *why)
{
	char buf[WHY_MAX + 64];

	if (used == 0)
		return json_string(why);
	if (used == windows)
		return json_null();
	if (missing == windows - used)
		snprintf(buf, sizeof buf, "%d of %d windows read; the others have no file",
			 used, windows);
	else
		snprintf(buf, sizeof buf, "%d of %d windows read; %s", used, windows, why);
	return json_string(buf);
}

void services_log_json_cases(const struct services_log *w, json_t *cases)
{
	size_t i;

	for (i = 0; w && i < w->n_cases && i < json_array_size(cases); i++) {
		const struct case_watch *cw = &w->cases[i];
		json_t *obj = json_array_get(cases, i);
		char cut[WHY_MAX];
		json_t *reason;

		json_object_set_new(obj, "services", json_services(cw));
		json_object_set_new(obj, "services_reason",
				    json_reason(cw->svc_windows, cw->windows, cw->svc_missing,
						cw->svc_why));
		json_object_set_new(obj, "assessments", json_assessments(cw));
		reason = json_reason(cw->log_windows, cw->windows, cw->log_missing, cw->log_why);
		if (json_is_null(reason) && cw->log_cut) {
			json_decref(reason);
			snprintf(cut, sizeof cut, "the excerpt of %d window(s) reached the size "
				 "limit: the counts are lower bounds", cw->log_cut);
			reason = json_string(cut);
		}
		json_object_set_new(obj, "assessments_reason", reason);
	}
}

/* ---- report.md and the terminal ------------------------------------------------------------- */

/* Service indexes by CPU used, most first (unknown last). */
static void by_cpu(const struct case_watch *cw, int order[N_SERVICES])
{
	int i, j, k;

	for (i = 0; i < N_SERVICES; i++)
		order[i] = i;
	for (i = 1; i < N_SERVICES; i++)
		for (j = i; j > 0; j--) {
			const struct svc_total *a = &cw->svc[order[j - 1]], *b = &cw->svc[order[j]];
			double va = a->unknown ? -1 : a->cpu_s, vb = b->unknown ? -1 : b->cpu_s;

			if (vb <= va)
				break;
			k = order[j];
			order[j] = order[j - 1];
			order[j - 1] = k;
		}
}

static const char *cpu_text(const struct svc_total *t, char *buf, size_t len)
{
	if (t->unknown)
		snprintf(buf, len, "an unknown amount");
	else
		snprintf(buf, len, "%.2f s", centis(t->cpu_s));
	return buf;
}

static const char *plural(long n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void md_services(const struct services_log *w, const struct run *r, FILE *f)
{
	size_t i;
	int k, order[N_SERVICES];
	char cpu[64];

	fputs("## Assessment services\n\n"
	      "CPU time (user + system, read with `ps`) each service used between a sample "
	      "taken just before a case's first pass and one taken just after its repeat "
	      "pass. A process that ended between the two samples is not counted, so these "
	      "are lower bounds.\n\n", f);
	for (i = 0; i < w->n_cases; i++) {
		const struct case_watch *cw = &w->cases[i];

		if (cw->svc_windows == 0) {
			fprintf(f, "- **%s** — %s.\n", r->cases[i].name, cw->svc_why);
			continue;
		}
		fprintf(f, "- **%s** — %ld fresh %s and their %ld %s (%d %s):\n",
			r->cases[i].name, cw->svc_fresh, plural(cw->svc_fresh, "launch", "launches"),
			cw->svc_repeat, plural(cw->svc_repeat, "repeat", "repeats"), cw->svc_windows,
			plural(cw->svc_windows, "window", "windows"));
		by_cpu(cw, order);
		for (k = 0; k < N_SERVICES; k++) {
			const struct svc_total *t = &cw->svc[order[k]];

			fprintf(f, "  - %s used %s of CPU during %ld fresh %s (%ld %s",
				service_names[order[k]], cpu_text(t, cpu, sizeof cpu), cw->svc_fresh,
				plural(cw->svc_fresh, "launch", "launches"), t->instances,
				plural(t->instances, "process", "processes"));
			if (t->ended)
				fprintf(f, ", %ld ended between the samples", t->ended);
			fputs(")\n", f);
		}
		if (cw->svc_windows < cw->windows)
			fprintf(f, "  - only %d of %d windows could be read: %s\n", cw->svc_windows,
				cw->windows, cw->svc_why[0] ? cw->svc_why : "the others have no file");
	}
	fputc('\n', f);
}

/* The steps' counts, and how long the checks took from first to last line. */
static void md_steps(const struct case_watch *cw, FILE *f)
{
	double *d;
	size_t n = check_durations(cw, &d);
	int k;

	fputs("  - steps:", f);
	for (k = 0; k < N_STEPS; k++)
		fprintf(f, "%s %ld `%s`", k ? "," : "", cw->steps[k], steps[k].text);
	fputc('\n', f);
	if (n)
		fprintf(f, "  - from a check's first line to its last (lines carrying the same path): "
			"median %.1f ms, longest %.1f ms, over %zu %s\n", stats_median(d, n), d[n - 1],
			n, plural((long)n, "check", "checks"));
	else
		fputs("  - no check could be timed: no two lines carry the same path\n", f);
	free(d);
}

static void md_log(const struct services_log *w, const struct run *r, FILE *f)
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
	for (i = 0; i < w->n_cases; i++) {
		const struct case_watch *cw = &w->cases[i];

		if (cw->log_windows == 0) {
			fprintf(f, "- **%s** — %s.\n", r->cases[i].name, cw->log_why);
			continue;
		}
		fprintf(f, "- **%s** — %ld %s observed (`GK performScan`) for %ld fresh %s; "
			"%ld `GK scan complete`, %ld `GK process assessment`, %ld amfid and "
			"%ld XprotectService %s, %ld %s in all",
			r->cases[i].name, cw->performscan,
			plural(cw->performscan, "assessment", "assessments"), cw->log_fresh,
			plural(cw->log_fresh, "launch", "launches"), cw->scan_complete,
			cw->process_assessment, cw->amfid, cw->xprotect,
			plural(cw->xprotect, "event", "events"), cw->events,
			plural(cw->events, "event", "events"));
		if (cw->unreadable)
			fprintf(f, ", %ld unreadable %s", cw->unreadable,
				plural(cw->unreadable, "line", "lines"));
		fputs(".\n", f);
		md_steps(cw, f);
		if (cw->log_cut)
			fprintf(f, "  - the excerpt of %d %s reached the size limit: the counts are "
				"lower bounds\n", cw->log_cut, plural(cw->log_cut, "window", "windows"));
		if (cw->log_windows < cw->windows)
			fprintf(f, "  - only %d of %d windows could be read: %s\n", cw->log_windows,
				cw->windows, cw->log_why[0] ? cw->log_why : "the others have no file");
	}
	fputc('\n', f);
}

static int is_darwin(const struct services_log *w)
{
	return w->os && strcmp(w->os, "Darwin") == 0;
}

void services_log_markdown(const struct services_log *w, const struct run *r, FILE *f)
{
	/* Off macOS, with nothing watched, run.json says why; the report
	 * stays about what was measured. */
	if (!w || (!w->any_files && !is_darwin(w)))
		return;
	md_services(w, r, f);
	md_log(w, r, f);
}

/* One line: how long the checks took in the log, where any was timed. */
static void print_check_times(const struct case_watch *cw, const char *name, FILE *f)
{
	double *d;
	size_t n = check_durations(cw, &d);

	if (n)
		fprintf(f, "%s: a check took %.1f ms from its first log line to its last "
			"(median of %zu; longest %.1f ms)\n", name, stats_median(d, n), n, d[n - 1]);
	free(d);
}

void services_log_print(const struct services_log *w, const struct run *r, FILE *f)
{
	size_t i;
	int k, order[N_SERVICES], svc_any = 0, log_any = 0;
	char cpu[64];

	if (!w || (!w->any_files && !is_darwin(w)))
		return;
	for (i = 0; i < w->n_cases; i++) {
		const struct case_watch *cw = &w->cases[i];

		if (cw->svc_windows > 0) {
			svc_any = 1;
			by_cpu(cw, order);
			fprintf(f, "%s: %s used %s of CPU during %ld fresh %s", r->cases[i].name,
				service_names[order[0]], cpu_text(&cw->svc[order[0]], cpu, sizeof cpu),
				cw->svc_fresh, plural(cw->svc_fresh, "launch", "launches"));
			for (k = 1; k < N_SERVICES; k++)
				fprintf(f, "%s%s %s", k == 1 ? " (" : ", ", service_names[order[k]],
					cpu_text(&cw->svc[order[k]], cpu, sizeof cpu));
			fputs(")\n", f);
		}
		if (cw->log_windows > 0) {
			log_any = 1;
			fprintf(f, "%s: %ld %s logged (GK performScan) for %ld fresh %s%s\n",
				r->cases[i].name, cw->performscan,
				plural(cw->performscan, "assessment", "assessments"), cw->log_fresh,
				plural(cw->log_fresh, "launch", "launches"),
				cw->log_cut ? " (at least: an excerpt reached the size limit)" : "");
			print_check_times(cw, r->cases[i].name, f);
		}
	}
	if (!svc_any && w->n_cases > 0)
		fprintf(f, "assessment services: %s\n", w->cases[0].svc_why);
	if (!log_any && w->n_cases > 0)
		fprintf(f, "unified log: %s\n", w->cases[0].log_why);
}
