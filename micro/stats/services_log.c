/* services_log.c - the assessment services' CPU time and the unified log's
 * assessments per case, read and summed (services_log.h; file formats in
 * docs/formats.md).  What they are shown as is the writers' (micro/report).
 *
 * A case can have several configs (thread counts, core classes); each is
 * one window, sampled before its first pass and after its repeat pass.  A
 * case's numbers are the sums over its windows that could be read. */
#define _POSIX_C_SOURCE 200809L
#include "services_log.h"
#include "run.h"
#include "logexcerpt.h"
#include "services.h"
#include "conditions.h"
#include "stats.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The steps, in the order the report lists them: P. Wardle's RSAC sequence
 * from com.apple.syspolicy.exec (process assessment, performScan, legacy
 * notarization, scan complete, evaluateScanResult), "GK Xprotect results"
 * and "scan finished, waking up any waiters" (measurement notes and a
 * parser's fixture quoting them), and the notarization ticket lookup that
 * com.apple.syspolicy logs (eclecticlight, "How iCloud can be simpler than
 * a server").  A step is counted by its text anywhere in a syspolicyd
 * event's message. */
const struct services_log_step services_log_steps[N_STEPS] = {
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

static void set_why(char *why, const char *fmt, ...)
{
	va_list ap;

	if (why[0])
		return; /* the first problem is the one reported */
	va_start(ap, fmt);
	vsnprintf(why, SERVICES_LOG_WHY_MAX, fmt, ap);
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

static void add_check_line(struct services_log_case *sc, int window, char *path, const char *stamp)
{
	double t;
	size_t i;
	struct services_log_check *c = NULL;

	if (!stamp || logex_time(stamp, &t) != 0) {
		free(path);
		return;
	}
	for (i = 0; i < sc->n_checks; i++)
		if (sc->checks[i].window == window && strcmp(sc->checks[i].path, path) == 0) {
			c = &sc->checks[i];
			break;
		}
	if (!c) {
		sc->checks = xrealloc(sc->checks, (sc->n_checks + 1) * sizeof *sc->checks);
		c = &sc->checks[sc->n_checks++];
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
	struct services_log_case *sc = ctx;
	const char *msg = ev->message, *image = ev->image;

	if (msg && strstr(msg, "GK performScan"))
		sc->performscan++;
	if (msg && strstr(msg, "GK scan complete"))
		sc->scan_complete++;
	if (msg && strstr(msg, "GK process assessment"))
		sc->process_assessment++;
	if (image && strcmp(base_name(image), "amfid") == 0)
		sc->amfid++;
	if (image && strcmp(base_name(image), "XprotectService") == 0)
		sc->xprotect++;
	if (msg && image && strcmp(base_name(image), "syspolicyd") == 0) {
		int k;
		char *p;

		for (k = 0; k < N_STEPS; k++)
			if (strstr(msg, services_log_steps[k].text))
				sc->steps[k]++;
		if ((p = logex_path(msg)) != NULL)
			add_check_line(sc, sc->log_windows, p, ev->timestamp);
	}
}

/* Count the assessment events of one excerpt into sc; -1 when unreadable. */
static int count_log(const char *path, const char *name, struct services_log_case *sc, char *why)
{
	struct logex_counts n;

	if (logex_each(path, count_event, sc, &n) != 0) {
		set_why(why, "%s.log.ndjson: cannot open: %s", name, strerror(errno));
		return -1;
	}
	sc->events += n.events;
	sc->unreadable += n.unreadable;
	return 0;
}

/* ---- reading a run ---------------------------------------------------------------------- */

/* The services file of one window (a config): its CPU into the case's sums. */
static void read_window_services(struct services_log *sl, struct services_log_case *sc,
				 const char *prefix, long fresh, long repeat)
{
	const char *name = base_name(prefix);
	char *path = with_suffix(prefix, ".services.tsv"), why[SERVICES_LOG_WHY_MAX] = "";
	struct svc_sample before, after;
	int rc;

	memset(&before, 0, sizeof before);
	memset(&after, 0, sizeof after);
	rc = services_read(path, name, &before, &after, why, sizeof why);
	if (rc == 1) {
		sc->svc_missing++;
	} else if (rc < 0) {
		sl->any_files = 1;
		set_why(sc->svc_why, "%s", why);
	} else {
		sl->any_files = 1;
		services_add(sc->svc, &before, &after);
		sc->svc_windows++;
		sc->svc_fresh += fresh;
		sc->svc_repeat += repeat;
	}
	services_free(&before);
	services_free(&after);
	free(path);
}

/* The log status and excerpt of one window: its events into the case's counts. */
static void read_window_log(struct services_log *sl, struct services_log_case *sc,
			    const char *prefix, long fresh, long repeat)
{
	const char *name = base_name(prefix);
	char *path, result[32], message[SERVICES_LOG_WHY_MAX], why[SERVICES_LOG_WHY_MAX] = "";
	int rc;

	path = with_suffix(prefix, ".log.status");
	rc = logex_status(path, result, sizeof result, message, sizeof message);
	if (rc == -1)
		set_why(why, "%s.log.status: cannot open: %s", name, strerror(errno));
	else if (rc == -2)
		set_why(why, "%s.log.status is not a log status file", name);
	free(path);
	if (rc == 1) {
		sc->log_missing++;
	} else if (rc < 0) {
		sl->any_files = 1;
		set_why(sc->log_why, "%s", why);
	} else if (strcmp(result, "ok") == 0 || strcmp(result, "cut") == 0) {
		sl->any_files = 1;
		path = with_suffix(prefix, ".log.ndjson");
		if (count_log(path, name, sc, why) == 0) {
			sc->log_windows++;
			sc->log_fresh += fresh;
			sc->log_repeat += repeat;
			sc->log_cut += strcmp(result, "cut") == 0;
		} else {
			set_why(sc->log_why, "%s", why);
		}
		free(path);
	} else if (strcmp(result, "refused") == 0) {
		sl->any_files = 1;
		set_why(sc->log_why, "log show refused: %s", message[0] ? message : "no message");
	} else if (strcmp(result, "skipped") == 0) {
		set_why(sc->log_why, "%s", message[0] ? message : "log show was not run");
	} else {
		sl->any_files = 1;
		set_why(sc->log_why, "%s.log.status: unknown result '%s'", name, result);
	}
}

/* The services over a hang's wait: raw/NAME.hang.services.tsv (launch
 * --services-out, a services file), what each used from its before sample
 * (at half the bound) to its after one (at the kill). */
static void read_hang_services(struct services_log_hang *h, const char *prefix)
{
	char *path = with_suffix(prefix, ".hang.services.tsv");
	struct svc_sample before, after;

	memset(&before, 0, sizeof before);
	memset(&after, 0, sizeof after);
	h->state = services_read(path, "the hang", &before, &after, h->why, sizeof h->why);
	if (h->state == 0)
		services_add(h->cpu, &before, &after);
	services_free(&before);
	services_free(&after);
	free(path);
}

/* One config's window: its services, its log and, where it hung, the
 * services over the hang. */
static void read_window(struct services_log *sl, struct services_log_case *sc,
			const struct config *c, struct services_log_hang *hang)
{
	char *prefix = config_prefix(c);
	long fresh = c->passes[PASS_FIRST].present ? c->passes[PASS_FIRST].launches : c->n;
	long repeat = c->passes[PASS_REPEAT].present ? c->passes[PASS_REPEAT].launches : c->n;

	sc->windows++;
	sc->fresh += fresh;
	sc->repeat += repeat;
	read_window_services(sl, sc, prefix, fresh, repeat);
	read_window_log(sl, sc, prefix, fresh, repeat);
	hang->state = 1;
	if (c->n_hangs > 0)
		read_hang_services(hang, prefix);
	free(prefix);
}

/* Service indexes by CPU used, most first (unknown last). */
static void order_by_cpu(struct services_log_case *sc)
{
	int *order = sc->svc_order, i, j, k;

	for (i = 0; i < N_SERVICES; i++)
		order[i] = i;
	for (i = 1; i < N_SERVICES; i++)
		for (j = i; j > 0; j--) {
			const struct svc_total *a = &sc->svc[order[j - 1]], *b = &sc->svc[order[j]];
			double va = a->unknown ? -1 : a->cpu_s, vb = b->unknown ? -1 : b->cpu_s;

			if (vb <= va)
				break;
			k = order[j];
			order[j] = order[j - 1];
			order[j - 1] = k;
		}
}

/* The timed checks (2 lines or more): their number, median and longest. */
static void time_checks(struct services_log_case *sc)
{
	size_t i, n = 0;
	double *d = xmalloc((sc->n_checks ? sc->n_checks : 1) * sizeof *d);

	for (i = 0; i < sc->n_checks; i++)
		if (sc->checks[i].lines >= 2)
			d[n++] = (sc->checks[i].last_s - sc->checks[i].first_s) * 1000.0;
	stats_sort(d, n);
	sc->checks_timed = n;
	sc->check_median_ms = n ? stats_median(d, n) : NAN;
	sc->check_max_ms = n ? d[n - 1] : NAN;
	free(d);
}

/* Why a case has nothing to show, when nothing says why yet. */
static void finish_case(const struct services_log *sl, struct services_log_case *sc)
{
	if (sc->svc_windows == 0 && !sc->svc_why[0]) {
		if (sl->darwin)
			set_why(sc->svc_why, "not sampled: the run has no raw/*.services.tsv");
		else
			set_why(sc->svc_why, "not sampled: the assessment services are watched on "
				"macOS (this run: os=%s)", sl->os ? sl->os : "unknown");
	}
	if (sc->log_windows == 0 && !sc->log_why[0]) {
		if (sl->darwin)
			set_why(sc->log_why, "no log read: the run has no raw/*.log.status");
		else
			set_why(sc->log_why, "no log read: the unified log is macOS's (this run: os=%s)",
				sl->os ? sl->os : "unknown");
	}
	order_by_cpu(sc);
	time_checks(sc);
}

struct services_log *services_log_read(const char *dir, const struct run *r)
{
	struct services_log *sl = xmalloc(sizeof *sl);
	size_t i, j;

	(void)dir; /* the configs carry their own paths */
	memset(sl, 0, sizeof *sl);
	sl->os = run_condition(r, "os");
	sl->darwin = sl->os && strcmp(sl->os, "Darwin") == 0;
	sl->n_cases = r->n_cases;
	sl->cases = xmalloc((r->n_cases ? r->n_cases : 1) * sizeof *sl->cases);
	memset(sl->cases, 0, (r->n_cases ? r->n_cases : 1) * sizeof *sl->cases);
	for (i = 0; i < r->n_cases; i++) {
		struct services_log_case *sc = &sl->cases[i];
		size_t n = r->cases[i].n_configs;

		sc->n_hangs = n;
		sc->hangs = xmalloc((n ? n : 1) * sizeof *sc->hangs);
		memset(sc->hangs, 0, (n ? n : 1) * sizeof *sc->hangs);
		for (j = 0; j < n; j++)
			read_window(sl, sc, r->cases[i].configs[j], &sc->hangs[j]);
		finish_case(sl, sc);
	}
	return sl;
}
