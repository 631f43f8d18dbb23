/* measure - the answer of make measure: how much of one command's time went
 * to first-launch checks (docs/measure.md).
 *
 *   measure --out DIR --watch FILE --conditions FILE [--logcount FILE]
 *           [--services FILE] [--probe RUN --probe-how ran|reused]
 *           [--probe-how none|failed --probe-note TEXT] [--gate-log FILE]
 *           [--dir PATH] [--id ID] -- COMMAND [ARG...]
 *   measure --latest-probe RESULTS --like CONDITIONS
 *
 * From what the command's run left (execwatch's result, the unified log's
 * counts, the services' CPU) and the probe's run.json (analyze's verdict on
 * the exe case: the penalty L with its interval, and whether launches
 * queue), it writes DIR/measure.json (docs/measure.schema.json) and
 * DIR/measure.txt, and prints the latter:
 *   W  the command's wall time;  N  the new programs it launched;
 *   L  one check's price;  B = N x L / (checks at once), with L's interval;
 *   B / W, capped at 100%;  the services' CPU;  a projection where it follows.
 * No statistic is made here: L, its interval and the queueing are analyze's.
 *
 * --latest-probe prints the newest run under RESULTS made on the same
 * machine under the same conditions as CONDITIONS (docs/measure.md) that
 * measured the exe case at T=1, or nothing. */
#define _POSIX_C_SOURCE 200809L
#include "advice.h"
#include "conditions.h"
#include "runjson.h"
#include "services.h"
#include "jsonnum.h"
#include "tabfile.h"
#include "thresholds.h"
#include "opts.h"
#include "sizesummary.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MEASURE_SCHEMA_VERSION 1
#define MAX_FIELDS 8
#define MAX_PROGRAMS_JSON 50

static void usage(FILE *f)
{
	fputs("usage: measure --out DIR --watch FILE --conditions FILE [--logcount FILE]\n"
	      "               [--services FILE] [--probe RUN] [--probe-how HOW]\n"
	      "               [--probe-note TEXT] [--gate-log FILE] [--dir PATH] [--id ID]\n"
	      "               -- COMMAND [ARG...]\n"
	      "       measure --latest-probe RESULTS --like CONDITIONS\n"
	      "       measure --program-sizes OUT --watch FILE [--programs FILE] [--probe RUN]\n"
	      "Write DIR/measure.json and DIR/measure.txt for one measured command and\n"
	      "print the text: wall time W, new programs launched N, one check's price L\n"
	      "(the probe run's exe case, as analyze decided it), the checker's busy time\n"
	      "B = N x L / (checks at once), B's share of W, the services' CPU.\n"
	      "  --watch FILE       execwatch's result (W, status, N on Linux)\n"
	      "  --logcount FILE    scripts/probe/logcount's counts (N on macOS)\n"
	      "  --services FILE    scripts/probe/services' before and after samples\n"
	      "  --conditions FILE  scripts/probe/sysinfo's conditions and the measure's keys\n"
	      "  --probe RUN        the run whose exe case gives L (a run folder)\n"
	      "  --probe-how HOW    ran (made for this measure), reused (PROBE=0),\n"
	      "                     none (PROBE=0, no comparable run), failed\n"
	      "  --probe-note TEXT  why, for none and failed\n"
	      "  --gate-log FILE    the calibration gate's log: what it held\n"
	      "  --sizes FILE       the new programs' sizes (--program-sizes wrote it)\n"
	      "  --size-probe RUN   the run that took L again at their median size\n"
	      "  --size-probe-how ran|failed, --size-probe-note TEXT  how it went\n"
	      "  --dir PATH, --id ID  where the command ran; the measure's id\n"
	      "  --latest-probe RESULTS --like CONDITIONS  print the newest comparable run\n"
	      "  --program-sizes OUT  the new programs' sizes (execwatch's, or those of the\n"
	      "                     listed programs that still exist) and the probe's program\n"
	      "                     into OUT; prints the padding in bytes at which L is to be\n"
	      "                     taken again (median more than 4x the probe's), or nothing\n"
	      "Exit: 0 done, 1 cannot write or read, 2 bad usage.\n", f);
}

static json_t *interval(double m, double lo, double hi);

/* ---- small readers ----------------------------------------------------------- */

/* conditions.txt (conditions.c reads it) as an object of strings; NULL when
 * the file cannot be read. */
static json_t *read_conditions(const char *path)
{
	struct condition *c;
	size_t n, i;
	json_t *o;

	if (conditions_read(path, CONDITIONS_LENIENT, &c, &n) != 0)
		return NULL;
	o = json_object();
	for (i = 0; i < n; i++)
		json_object_set_new(o, c[i].key, json_string(c[i].value));
	conditions_free(c, n);
	return o;
}

static const char *cond(const json_t *c, const char *key)
{
	const char *v = json_string_value(json_object_get(c, key));

	return v ? v : "";
}

/* ---- what was seen ------------------------------------------------------------- */

struct seen {
	/* the command */
	double wall_s;
	int status, signal, not_run;
	char not_run_why[200];
	double user_s, sys_s;
	char interrupted[64], interrupted_how[64];
	/* N */
	long n;             /* -1: unknown; on macOS the range's high end */
	long n_low;         /* the range's low end (macOS: the checks the log
			     * places in the command's folders); n where exact */
	int n_lower;        /* a lower bound (queue overflow) */
	const char *source; /* "fanotify", "unified log" */
	char n_why[512];
	json_t *detail;     /* the source's own counts */
	/* L */
	const char *l_state; /* slowdown, none, inconclusive, or NULL (no probe) */
	double l, l_lo, l_hi;
	char l_reason[400];
	const char *queue;   /* serialised, parallel, undetermined, NULL */
	char queue_reason[400];
	json_t *probe;
	/* L again at the new programs' median size (a second probe, padded) */
	const char *z_state; /* slowdown, none, inconclusive, or NULL */
	double z_l, z_lo, z_hi;
	char z_reason[400];
	json_t *z_probe;     /* penalty_at_size, or NULL when none was due */
	/* the L that B uses: the probe's, or the one at size (use_z) */
	int use_z;
	const char *u_state;
	double u_l, u_lo, u_hi;
	/* the new programs' sizes (sizes file), or sz_known < 0 when unknown */
	long sz_known, sz_gone;
	unsigned long long sz_median, sz_p90, sz_largest;
	long long probe_bytes; /* the probe's program, -1 unknown */
	long long reprobe_pad; /* the padding a re-probe was due at, -1 none */
	int reprobe_capped;
	char sz_why[300];
};

/* How the command ended: its status line, and what interrupted it if anything did. */
static void read_status(const struct tabfile *kv, const char *path, struct seen *s)
{
	const char *v = tabfile_get(kv, "status");
	long x;

	if (v && strncmp(v, "exit\t", 5) == 0 && parse_long(v + 5, 0, 255, &x) == 0) {
		s->status = (int)x;
	} else if (v && strncmp(v, "signal\t", 7) == 0 && parse_long(v + 7, 1, 127, &x) == 0) {
		s->signal = (int)x;
		s->status = 128 + (int)x;
	} else if (v && strncmp(v, "not-run\t", 8) == 0) {
		s->not_run = 1;
		s->status = strstr(v, "not found") ? 127 : 126;
		snprintf(s->not_run_why, sizeof s->not_run_why, "%s", v + 8);
	} else {
		die(EXIT_FAIL, "%s: no status line", path);
	}
	v = tabfile_get(kv, "interrupted");
	if (v) {
		const char *tab = strchr(v, '\t');

		snprintf(s->interrupted, sizeof s->interrupted, "%.*s",
			 (int)(tab ? (size_t)(tab - v) : strlen(v)), v);
		snprintf(s->interrupted_how, sizeof s->interrupted_how, "%s", tab ? tab + 1 : "");
	}
}

/* The file systems of the new programs ("fs" lines), into detail if any. */
static void read_file_systems(const struct tabfile *kv, json_t *detail)
{
	size_t i;

	for (i = 0; i < kv->n; i++) {
		json_t *fs;

		if (strncmp(kv->lines[i], "fs\t", 3) != 0)
			continue;
		fs = json_object_get(detail, "file_systems");
		if (!fs) {
			fs = json_array();
			json_object_set_new(detail, "file_systems", fs);
		}
		json_array_append_new(fs, json_string(strchr(kv->lines[i] + 3, '\t')
						      ? strchr(kv->lines[i] + 3, '\t') + 1 : ""));
	}
}

/* The first new programs launched ("program" lines), at most MAX_PROGRAMS_JSON. */
static json_t *first_programs(const struct tabfile *kv)
{
	json_t *programs = json_array();
	size_t i, listed = 0;

	for (i = 0; i < kv->n; i++) {
		char *fld[MAX_FIELDS], *line;

		if (strncmp(kv->lines[i], "program\t", 8) != 0 || listed >= MAX_PROGRAMS_JSON)
			continue;
		line = xstrdup(kv->lines[i]);
		if (split_tabs(line, fld, MAX_FIELDS) == 5) {
			json_array_append_new(programs, json_pack("{s:f, s:s, s:s}",
				"at_ms", atof(fld[1]), "new_by", fld[3], "path", fld[4]));
			listed++;
		}
		free(line);
	}
	return programs;
}

/* N from the exec listener's counts, and the counts themselves. */
static void read_fanotify(const struct tabfile *kv, struct seen *s)
{
	const char *v;

	s->source = "fanotify";
	s->n = tabfile_long(kv, "fresh_launches", -1);
	s->n_low = s->n;
	s->n_lower = tabfile_long(kv, "overflow", 0) != 0;
	s->detail = json_object();
	json_object_set_new(s->detail, "source", json_string("fanotify"));
	json_object_set_new(s->detail, "fresh_executions", json_integer(tabfile_long(kv, "fresh_execs", 0)));
	json_object_set_new(s->detail, "old_executions", json_integer(tabfile_long(kv, "old_execs", 0)));
	json_object_set_new(s->detail, "others_fresh_executions", json_integer(tabfile_long(kv, "outside", 0)));
	json_object_set_new(s->detail, "unplaced", json_integer(tabfile_long(kv, "unplaced", 0)));
	json_object_set_new(s->detail, "overflow", json_boolean(s->n_lower));
	v = tabfile_get(kv, "tree");
	json_object_set_new(s->detail, "process_tree", json_string(v ? v : "unknown"));
	read_file_systems(kv, s->detail);
	json_object_set_new(s->detail, "first_programs", first_programs(kv));
	v = tabfile_get(kv, "new_by");
	if (v) {
		long bt = 0, ct = 0;

		sscanf(v, "%ld\t%ld", &bt, &ct);
		json_object_set_new(s->detail, "new_by_btime", json_integer(bt));
		json_object_set_new(s->detail, "new_by_ctime", json_integer(ct));
	}
}

/* execwatch's result: W, the exit, the CPU, and N unless the log gives it. */
static void read_watch(const char *path, struct seen *s)
{
	struct tabfile kv;
	const char *v;

	if (tabfile_read(path, "execlag-execwatch\t1", &kv) != 0)
		die(EXIT_FAIL, "%s: not an execwatch result", path);
	s->wall_s = (double)tabfile_long(&kv, "wall_ns", 0) / 1e9;
	s->user_s = (double)tabfile_long(&kv, "user_us", 0) / 1e6;
	s->sys_s = (double)tabfile_long(&kv, "sys_us", 0) / 1e6;
	read_status(&kv, path, s);
	v = tabfile_get(&kv, "watch");
	if (s->source) {
		/* N comes from the log */
	} else if (!v || strncmp(v, "on", 2) != 0) {
		snprintf(s->n_why, sizeof s->n_why, "%s",
			 v && strncmp(v, "off\t", 4) == 0 ? v + 4 : "no exec listener ran");
	} else {
		read_fanotify(&kv, s);
	}
	tabfile_free(&kv);
}

static void read_logcount(const char *path, struct seen *s)
{
	struct tabfile kv;
	const char *result, *msg;
	size_t i;
	json_t *other;

	if (tabfile_read(path, "execlag-logcount\t1", &kv) != 0) {
		snprintf(s->n_why, sizeof s->n_why, "the unified log's counts could not be read");
		s->source = "unified log";
		s->n = -1;
		return;
	}
	s->source = "unified log";
	result = tabfile_get(&kv, "result");
	msg = tabfile_get(&kv, "message");
	if (!result || strcmp(result, "ok") != 0) {
		s->n = -1;
		if (result && strcmp(result, "refused") == 0)
			snprintf(s->n_why, sizeof s->n_why, "log show refused: %s", msg ? msg : "no message");
		else
			snprintf(s->n_why, sizeof s->n_why, "%s", msg ? msg : "log show was not run");
		tabfile_free(&kv);
		return;
	}
	s->n = tabfile_long(&kv, "checks", -1);
	/* the low end: the checks whose program the log names in the command's
	 * folders; the high end adds those it names none for (the command's,
	 * or the background's: docs/measure.md) */
	s->n_low = tabfile_long(&kv, "inside", -1);
	if (s->n_low < 0 || s->n_low > s->n)
		s->n_low = s->n;
	s->detail = json_object();
	json_object_set_new(s->detail, "source", json_string("unified log"));
	json_object_set_new(s->detail, "performscan", json_integer(tabfile_long(&kv, "performscan", 0)));
	json_object_set_new(s->detail, "others_checks", json_integer(tabfile_long(&kv, "outside", 0)));
	json_object_set_new(s->detail, "checks_in_folders", json_integer(tabfile_long(&kv, "inside", 0)));
	json_object_set_new(s->detail, "checks_unnamed", json_integer(tabfile_long(&kv, "unplaced", 0)));
	json_object_set_new(s->detail, "programs", json_integer(tabfile_long(&kv, "programs", 0)));
	json_object_set_new(s->detail, "programs_named", json_integer(tabfile_long(&kv, "programs_named", 0)));
	json_object_set_new(s->detail, "programs_at_least", json_boolean(tabfile_long(&kv, "programs_capped", 0) != 0));
	json_object_set_new(s->detail, "scan_complete", json_integer(tabfile_long(&kv, "scan_complete", 0)));
	json_object_set_new(s->detail, "evaluate_scan_result", json_integer(tabfile_long(&kv, "evaluate", 0)));
	json_object_set_new(s->detail, "process_assessment", json_integer(tabfile_long(&kv, "process_assessment", 0)));
	json_object_set_new(s->detail, "xprotect_results", json_integer(tabfile_long(&kv, "xprotect_results", 0)));
	json_object_set_new(s->detail, "scans_logged_s", json_num(tabfile_double(&kv, "scan_s")));
	json_object_set_new(s->detail, "scans_paired", json_integer(tabfile_long(&kv, "paired", 0)));
	json_object_set_new(s->detail, "window_start", json_string(tabfile_get(&kv, "start") ? tabfile_get(&kv, "start") : ""));
	json_object_set_new(s->detail, "window_end", json_string(tabfile_get(&kv, "end") ? tabfile_get(&kv, "end") : ""));
	other = json_array();
	for (i = 0; i < kv.n; i++)
		if (strncmp(kv.lines[i], "other\t", 6) == 0)
			json_array_append_new(other, json_string(kv.lines[i] + 6));
	json_object_set_new(s->detail, "others_programs", other);
	tabfile_free(&kv);
}

/* A run folder's run.json (runjson.c reads and checks it), or NULL when it
 * is not an execlag run's. */
static json_t *load_run(const char *run)
{
	char *path = xasprintf("%s/run.json", run), why[8];
	struct runjson r;
	json_t *j = NULL;

	if (runjson_read(&r, path, RUNJSON_SKIP | RUNJSON_NO_CASES_OK, why, sizeof why) == 0) {
		j = json_incref(r.json);
		runjson_free(&r);
	}
	free(path);
	return j;
}

/* The run's case named exe (the last, if several), or NULL. */
static json_t *exe_case(const json_t *j)
{
	json_t *cases = json_object_get(j, "cases"), *c = NULL, *p;
	size_t i;

	json_array_foreach(cases, i, p)
		if (strcmp(json_string_value(json_object_get(p, "name")) ? json_string_value(json_object_get(p, "name")) : "", "exe") == 0)
			c = p;
	return c;
}

/* L with its interval and whether checks queue, as analyze decided them. */
static void read_exe_case(const json_t *c, struct seen *s)
{
	const char *v = json_string_value(json_object_get(c, "verdict"));
	const json_t *p = json_object_get(c, "penalty_ms");

	s->l = json_num_at(p, "median");
	s->l_lo = json_num_at(p, "ci_low");
	s->l_hi = json_num_at(p, "ci_high");
	if (v && (strcmp(v, "slowdown") == 0 || strcmp(v, "none") == 0 || strcmp(v, "inconclusive") == 0))
		s->l_state = strcmp(v, "slowdown") == 0 ? "slowdown" : strcmp(v, "none") == 0 ? "none" : "inconclusive";
	if (s->l_state && strcmp(s->l_state, "slowdown") == 0 && (isnan(s->l) || isnan(s->l_lo) || isnan(s->l_hi)))
		s->l_state = "inconclusive";
	v = json_string_value(json_object_get(c, "reason"));
	snprintf(s->l_reason, sizeof s->l_reason, "%s", v ? v : "");
	v = json_string_value(json_object_get(c, "serialisation"));
	if (v && (strcmp(v, "serialised") == 0 || strcmp(v, "parallel") == 0))
		s->queue = strcmp(v, "serialised") == 0 ? "serialised" : "parallel";
	else
		s->queue = "undetermined";
	v = json_string_value(json_object_get(c, "serialisation_reason"));
	snprintf(s->queue_reason, sizeof s->queue_reason, "%s", v ? v : "");
}

/* The exe case of a run.json: L and whether checks queue. */
static void read_probe(const char *run, const char *how, const char *note, struct seen *s)
{
	json_t *j, *c;
	const char *v;

	s->probe = json_object();
	json_object_set_new(s->probe, "how", json_string(how));
	if (note)
		json_object_set_new(s->probe, "note", json_string(note));
	if (!run) {
		json_object_set_new(s->probe, "run_id", json_null());
		return;
	}
	j = load_run(run);
	if (!j) {
		json_object_set_new(s->probe, "how", json_string("failed"));
		json_object_set_new(s->probe, "note", json_string("its run.json could not be read"));
		json_object_set_new(s->probe, "run_id", json_null());
		return;
	}
	v = json_string_value(json_object_get(j, "run_id"));
	json_object_set_new(s->probe, "run_id", v ? json_string(v) : json_null());
	json_object_set_new(s->probe, "run", json_string(run));
	v = json_string_value(json_object_get(json_object_get(j, "conditions"), "launcher"));
	json_object_set_new(s->probe, "launcher", json_string(v ? v : "spawn"));
	json_object_set_new(s->probe, "simulated", json_boolean(v && strncmp(v, "sim", 3) == 0));
	c = exe_case(j);
	if (!c) {
		json_object_set_new(s->probe, "note", json_string("the run has no exe case"));
		json_decref(j);
		return;
	}
	read_exe_case(c, s);
	json_object_set_new(s->probe, "verdict", json_string(s->l_state ? s->l_state : "unknown"));
	json_object_set_new(s->probe, "reason", json_string(s->l_reason));
	json_object_set_new(s->probe, "serialisation", json_string(s->queue));
	json_object_set_new(s->probe, "serialisation_reason", json_string(s->queue_reason));
	json_decref(j);
}

/* What the calibration gate held: executions it held (misses), the time it
 * held them and the time it held everything (libraries too), and the new
 * executions that passed it unheld, from its log (one JSON object a line). */
static json_t *read_gate(const char *path, const json_t *c)
{
	FILE *f;
	char *buf = NULL, *line;
	size_t cap = 0;
	long held = 0, decisions = 0, unheld = 0;
	double held_ms = 0, launches_ms = 0;
	json_t *o;

	if (!path || strcmp(cond(c, "gate.active"), "1") != 0)
		return json_null();
	o = json_pack("{s:s, s:s, s:s}", "latency_ms", cond(c, "gate.latency_ms"),
		      "workers", cond(c, "gate.workers"), "key", cond(c, "gate.key"));
	f = fopen(path, "r");
	if (!f) {
		json_object_set_new(o, "held_launches", json_null());
		json_object_set_new(o, "held_s", json_null());
		return o;
	}
	while ((line = read_line(f, &buf, &cap)) != NULL) {
		json_t *d = json_loads(line, 0, NULL);
		const char *r = json_string_value(json_object_get(d, "result"));
		const char *e = json_string_value(json_object_get(d, "event"));
		double h = json_num_at(d, "held_ms");

		if (json_is_object(d)) {
			decisions++;
			if (r && e && strcmp(r, "miss") == 0 && strcmp(e, "exec") == 0) {
				held++;
				if (!isnan(h))
					launches_ms += h;
			}
			if (r && strcmp(r, "unheld") == 0)
				unheld++;
			if (!isnan(h) && r && strcmp(r, "exempt") != 0)
				held_ms += h;
		}
		json_decref(d);
	}
	fclose(f);
	free(buf);
	json_object_set_new(o, "decisions", json_integer(decisions));
	json_object_set_new(o, "held_launches", json_integer(held));
	json_object_set_new(o, "held_launches_s", json_real(launches_ms / 1000.0));
	json_object_set_new(o, "unheld_launches", json_integer(unheld));
	json_object_set_new(o, "held_s", json_real(held_ms / 1000.0));
	return o;
}

/* ---- the new programs' sizes, and L at their size ------------------------------ */

/* The rule: L is taken again at the new programs' median size when that is
 * more than this many times the probe's program (docs/measure.md). */
#define SIZE_RATIO 4
/* mkfresh --size pads at most 64 MiB (MAX_PAD); repro's SIZE the same */
#define MAX_PAD_BYTES (64LL * 1024 * 1024)
#define MAX_SIZED 200000 /* programs whose size is read (logcount's list) */

/* The size of the probe's program: the `bytes` line of the manifest of its
 * exe case at T=1 (RUN/raw/exe-t1-CLASS[-sSIZE].manifest; mkfresh writes
 * it), unpadded (pad_want 0) or padded; -1 when no manifest says. */
static long long manifest_bytes(const char *run, int padded)
{
	char *raw = xasprintf("%s/raw", run);
	DIR *d = opendir(raw);
	struct dirent *e;
	long long found = -1;

	while (d && found < 0 && (e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		char *path, *buf = NULL, *line;
		size_t cap = 0;
		long long bytes = -1, pad = 0;
		FILE *f;

		if (strncmp(e->d_name, "exe-t1-", 7) != 0 || len < 9 ||
		    strcmp(e->d_name + len - 9, ".manifest") != 0 || strstr(e->d_name, ".ref."))
			continue;
		path = xasprintf("%s/%s", raw, e->d_name);
		f = fopen(path, "r");
		free(path);
		while (f && (line = read_line(f, &buf, &cap)) != NULL) {
			strip_eol(line);
			if (strncmp(line, "bytes\t", 6) == 0)
				bytes = atoll(line + 6);
			else if (strncmp(line, "pad\t", 4) == 0)
				pad = atoll(line + 4);
			else if (strncmp(line, "artifact\t", 9) == 0)
				break;
		}
		if (f)
			fclose(f);
		free(buf);
		if (bytes > 0 && (padded ? pad > 0 : pad == 0))
			found = bytes;
	}
	if (d)
		closedir(d);
	free(raw);
	return found;
}

/* The sizes of the listed programs that still exist (macOS: the programs
 * the log named), into v; the gone ones counted. */
static size_t stat_listed(const char *list, uint64_t **v, long *gone)
{
	FILE *f = fopen(list, "r");
	char *buf = NULL, *line;
	size_t cap = 0, n = 0, vcap = 0;

	*v = NULL;
	*gone = 0;
	if (!f)
		return 0;
	while ((line = read_line(f, &buf, &cap)) != NULL && n + (size_t)*gone < MAX_SIZED) {
		struct stat st;

		strip_eol(line);
		if (!line[0])
			continue;
		if (stat(line, &st) != 0 || !S_ISREG(st.st_mode)) {
			(*gone)++;
			continue;
		}
		if (n == vcap) {
			vcap = vcap ? vcap * 2 : 256;
			*v = xrealloc(*v, vcap * sizeof **v);
		}
		(*v)[n++] = (uint64_t)st.st_size;
	}
	fclose(f);
	free(buf);
	return n;
}

/* measure --program-sizes OUT --watch FILE [--programs FILE] [--probe RUN]:
 * the new programs' sizes (Linux: execwatch's `sizes` line, each read at
 * its first launch; macOS: the programs the log named, read now, where they
 * still exist) and the probe's program, into OUT; prints the padding in
 * bytes at which L is to be taken again, or nothing. */
static int sizes_main(int argc, char **argv)
{
	const char *out = NULL, *watch = NULL, *programs = NULL, *probe = NULL;
	const struct opt opts[] = {
		OPT_VALUE("--program-sizes", &out), OPT_VALUE("--watch", &watch),
		OPT_VALUE("--programs", &programs), OPT_VALUE("--probe", &probe), OPT_END
	};
	struct tabfile kv;
	unsigned long long med = 0, p90 = 0, max = 0;
	long long pb = -1, pad = -1;
	long known = -1, gone = 0;
	const char *source;
	char why[300] = "";
	struct atomic_file af;

	opts_parse(argc, argv, opts, OPTS_NONE, usage);
	if (!out || !watch)
		die(EXIT_USAGE, "--program-sizes OUT needs --watch FILE (see --help)");
	source = programs ? "unified log" : "fanotify";
	if (programs) {
		uint64_t *v, m, q, x;
		size_t n = stat_listed(programs, &v, &gone);

		known = (long)n;
		size_summary(v, n, &m, &q, &x);
		med = m, p90 = q, max = x;
		free(v);
		if (n == 0)
			snprintf(why, sizeof why, gone ? "none of the programs the log named exists any more"
						       : "the log named no program in the command's folders");
	} else if (tabfile_read(watch, "execlag-execwatch\t1", &kv) == 0) {
		const char *v = tabfile_get(&kv, "sizes");

		if (v && sscanf(v, "%ld\t%llu\t%llu\t%llu", &known, &med, &p90, &max) == 4 && known > 0)
			;
		else {
			known = -1;
			v = tabfile_get(&kv, "watch");
			snprintf(why, sizeof why, "%s", v && strncmp(v, "on", 2) == 0
				 ? "the command launched no new program" : "no exec listener ran (N is unknown)");
		}
		tabfile_free(&kv);
	} else {
		snprintf(why, sizeof why, "%s cannot be read", watch);
	}
	if (probe)
		pb = manifest_bytes(probe, 0);
	if (known > 0 && pb > 0 && med > (unsigned long long)pb * SIZE_RATIO) {
		pad = (long long)med - pb;
		if (pad > MAX_PAD_BYTES)
			pad = MAX_PAD_BYTES;
	}
	if (atomic_open(&af, out) != 0)
		die(EXIT_FAIL, "cannot write %s:", out);
	fprintf(af.fp, "execlag-sizes\t1\nsource\t%s\n", source);
	if (known > 0)
		fprintf(af.fp, "known\t%ld\ngone\t%ld\nmedian\t%llu\np90\t%llu\nlargest\t%llu\n", known,
			gone, med, p90, max);
	else
		fprintf(af.fp, "why\t%s\ngone\t%ld\n", why, gone);
	if (pb > 0)
		fprintf(af.fp, "probe_bytes\t%lld\n", pb);
	if (pad > 0)
		fprintf(af.fp, "reprobe_pad\t%lld\nreprobe_capped\t%d\n", pad,
			(long long)med - pb > MAX_PAD_BYTES);
	if (atomic_commit(&af) != 0)
		die(EXIT_FAIL, "cannot write %s:", out);
	if (pad > 0)
		printf("%lld\n", pad);
	return EXIT_OK;
}

/* The sizes file into s (sz_known -1 when the sizes are unknown). */
static void read_sizes(const char *path, struct seen *s)
{
	struct tabfile kv;
	const char *v;

	s->sz_known = -1;
	s->probe_bytes = -1;
	s->reprobe_pad = -1;
	if (!path || tabfile_read(path, "execlag-sizes\t1", &kv) != 0) {
		snprintf(s->sz_why, sizeof s->sz_why, "not read");
		return;
	}
	s->sz_known = tabfile_long(&kv, "known", -1);
	s->sz_gone = tabfile_long(&kv, "gone", 0);
	if ((v = tabfile_get(&kv, "median")))
		s->sz_median = strtoull(v, NULL, 10);
	if ((v = tabfile_get(&kv, "p90")))
		s->sz_p90 = strtoull(v, NULL, 10);
	if ((v = tabfile_get(&kv, "largest")))
		s->sz_largest = strtoull(v, NULL, 10);
	s->probe_bytes = tabfile_long(&kv, "probe_bytes", -1);
	s->reprobe_pad = tabfile_long(&kv, "reprobe_pad", -1);
	s->reprobe_capped = tabfile_long(&kv, "reprobe_capped", 0) != 0;
	v = tabfile_get(&kv, "why");
	snprintf(s->sz_why, sizeof s->sz_why, "%s", v ? v : "");
	tabfile_free(&kv);
}

/* L again at the programs' size: the second probe's exe case, when one was
 * due (the sizes file says at what padding). */
static void read_size_probe(const char *run, const char *how, const char *note, struct seen *s)
{
	json_t *j = NULL, *c = NULL;
	const char *v;

	if (s->reprobe_pad <= 0)
		return;
	s->z_probe = json_object();
	json_object_set_new(s->z_probe, "pad_bytes", json_integer(s->reprobe_pad));
	json_object_set_new(s->z_probe, "pad_capped", json_boolean(s->reprobe_capped));
	json_object_set_new(s->z_probe, "how", json_string(how ? how : run ? "ran" : "failed"));
	if (note)
		json_object_set_new(s->z_probe, "note", json_string(note));
	if (run && (j = load_run(run)) != NULL)
		c = exe_case(j);
	v = j ? json_string_value(json_object_get(j, "run_id")) : NULL;
	json_object_set_new(s->z_probe, "run_id", v ? json_string(v) : json_null());
	if (run && j) {
		long long b = manifest_bytes(run, 1);

		json_object_set_new(s->z_probe, "program_bytes", b > 0 ? json_integer(b) : json_null());
	}
	if (c) {
		const json_t *p = json_object_get(c, "penalty_ms");

		s->z_l = json_num_at(p, "median");
		s->z_lo = json_num_at(p, "ci_low");
		s->z_hi = json_num_at(p, "ci_high");
		v = json_string_value(json_object_get(c, "verdict"));
		if (v && (strcmp(v, "slowdown") == 0 || strcmp(v, "none") == 0 || strcmp(v, "inconclusive") == 0))
			s->z_state = strcmp(v, "slowdown") == 0 ? "slowdown" : strcmp(v, "none") == 0 ? "none" : "inconclusive";
		if (s->z_state && strcmp(s->z_state, "slowdown") == 0 && (isnan(s->z_l) || isnan(s->z_lo) || isnan(s->z_hi)))
			s->z_state = "inconclusive";
		v = json_string_value(json_object_get(c, "reason"));
		snprintf(s->z_reason, sizeof s->z_reason, "%s", v ? v : "");
	} else if (run && !note) {
		json_object_set_new(s->z_probe, "how", json_string("failed"));
		json_object_set_new(s->z_probe, "note", json_string(j ? "the run has no exe case" : "its run.json could not be read"));
	}
	json_object_set_new(s->z_probe, "verdict", s->z_state ? json_string(s->z_state) : json_null());
	json_object_set_new(s->z_probe, "penalty_ms", s->z_state && strcmp(s->z_state, "none") != 0 && !isnan(s->z_l)
			    ? interval(s->z_l, s->z_lo, s->z_hi) : json_null());
	json_object_set_new(s->z_probe, "reason", json_string(s->z_reason));
	json_decref(j);
}

/* Which L B uses: the one at the programs' size where that probe decided
 * (slowdown or none), else the probe's. */
static void choose_l(struct seen *s)
{
	s->use_z = s->z_state && (strcmp(s->z_state, "slowdown") == 0 || strcmp(s->z_state, "none") == 0);
	if (s->use_z) {
		s->u_state = s->z_state;
		s->u_l = s->z_l, s->u_lo = s->z_lo, s->u_hi = s->z_hi;
	} else {
		s->u_state = s->l_state;
		s->u_l = s->l, s->u_lo = s->l_lo, s->u_hi = s->l_hi;
	}
}

/* ---- the answer -------------------------------------------------------------- */

struct answer {
	int have_b;
	double b, b_lo, b_hi;   /* seconds: B at N's high end with L's median,
				 * the interval from N's low end x L's low end
				 * to N's high end x L's high end */
	int range;              /* N is a range (macOS): B and the share too */
	double b_r, sh_r;       /* B and the share at N's low end, L's median */
	int k;                  /* checks at once: 1, 2 (at least), 0 unknown */
	int at_most;            /* B and the share are upper bounds */
	int have_share;
	double sh, sh_lo, sh_hi;
	int capped, bottleneck;
	int have_proj;
	double pj, pj_lo, pj_hi;
};

static double cap1(double x)
{
	return x > 1.0 ? 1.0 : x < 0 ? 0 : x;
}

static void compute(const struct seen *s, struct answer *a)
{
	long lo_n = s->n_low >= 0 && s->n_low <= s->n ? s->n_low : s->n;

	memset(a, 0, sizeof *a);
	if (s->n < 0)
		return;
	if (s->n > 0 && (!s->u_state || strcmp(s->u_state, "slowdown") != 0))
		return;
	if (s->n == 0) {
		/* nothing new was launched: nothing to check, whatever L is */
		a->have_b = 1;
		a->k = s->u_state && strcmp(s->queue, "serialised") == 0 ? 1 : 0;
	} else {
		double k;

		a->k = strcmp(s->queue, "serialised") == 0 ? 1 : strcmp(s->queue, "parallel") == 0 ? 2 : 0;
		k = a->k ? a->k : 1;
		a->at_most = a->k != 1;
		a->have_b = 1;
		a->range = lo_n < s->n;
		a->b = (double)s->n * s->u_l / 1000.0 / k;
		a->b_r = (double)lo_n * s->u_l / 1000.0 / k;
		a->b_lo = (double)lo_n * (s->u_lo > 0 ? s->u_lo : 0) / 1000.0 / k;
		a->b_hi = (double)s->n * s->u_hi / 1000.0 / k;
	}
	if (s->wall_s > 0) {
		a->have_share = 1;
		a->sh = cap1(a->b / s->wall_s);
		a->sh_r = cap1(a->b_r / s->wall_s);
		a->sh_lo = cap1(a->b_lo / s->wall_s);
		a->sh_hi = cap1(a->b_hi / s->wall_s);
		a->capped = a->b >= s->wall_s && a->b > 0;
		/* a bottleneck only where even N's low end makes it one */
		a->bottleneck = a->capped && !a->at_most && (!a->range || a->b_r >= s->wall_s);
	}
	/* Without the checks the command can have been faster by at most the
	 * time the checker was busy (it waited only while a check ran): no
	 * less than W - B.  It follows only where B is the busy time itself
	 * (one check at a time), not a bound, and is below W; with N a range,
	 * B is its high end, so W - B is still a floor. */
	if (a->have_share && !a->at_most && a->b < s->wall_s) {
		a->have_proj = 1;
		a->pj = s->wall_s - a->b;
		a->pj_lo = s->wall_s - a->b_hi > 0 ? s->wall_s - a->b_hi : 0;
		a->pj_hi = s->wall_s - a->b_lo;
	}
}

/* ---- words ------------------------------------------------------------------- */

static char *text;
static size_t text_len, text_cap;

static void say(const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(text ? text + text_len : NULL, text ? text_cap - text_len : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (text && text_len + (size_t)n < text_cap) {
			text_len += (size_t)n;
			return;
		}
		text_cap = (text_cap + (size_t)n + 1) * 2;
		text = xrealloc(text, text_cap);
	}
}

static const char *secs(double v, char *buf, size_t len)
{
	if (v < 10)
		snprintf(buf, len, "%.2f s", v);
	else
		snprintf(buf, len, "%.1f s", v);
	return buf;
}

/* The same number without its unit, for an interval's ends. */
static const char *secn(double v, char *buf, size_t len)
{
	snprintf(buf, len, v < 10 ? "%.2f" : "%.1f", v);
	return buf;
}

static const char *pct(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%.1f%%", v * 100.0);
	return buf;
}

/* The command as a person reads it: sh -c's string, else the words, quoted
 * where a shell would need it. */
static char *command_line(char **argv, int argc)
{
	size_t cap = 64, len = 0;
	char *s;
	int i;

	if (argc == 3 && strcmp(argv[0], "sh") == 0 && strcmp(argv[1], "-c") == 0)
		return xstrdup(argv[2]);
	s = xmalloc(cap);
	s[0] = '\0';
	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *p;
		int plain = a[0] != '\0';

		for (p = a; *p && plain; p++)
			plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%", *p) != NULL;
		while (len + strlen(a) * 4 + 8 > cap) {
			cap *= 2;
			s = xrealloc(s, cap);
		}
		if (i)
			s[len++] = ' ';
		if (plain) {
			len += (size_t)sprintf(s + len, "%s", a);
		} else {
			s[len++] = '\'';
			for (p = a; *p; p++) {
				if (*p == '\'') {
					memcpy(s + len, "'\\''", 4);
					len += 4;
				} else {
					s[len++] = *p;
				}
			}
			s[len++] = '\'';
		}
		s[len] = '\0';
	}
	return s;
}

/* The command, where it ran, and W with how it ended. */
static void say_command(const struct seen *s, const char *cmdline, const char *dir)
{
	char b1[64];

	say("execlag measure: %s\n", cmdline);
	if (dir)
		say("  ran in %s\n", dir);
	if (s->not_run)
		say("  W  %s: it did not run (%s), exit status %d\n", secs(s->wall_s, b1, sizeof b1),
		    s->not_run_why, s->status);
	else if (s->signal)
		say("  W  %s, ended by signal %d (exit status %d)\n", secs(s->wall_s, b1, sizeof b1),
		    s->signal, s->status);
	else
		say("  W  %s, exit status %d\n", secs(s->wall_s, b1, sizeof b1), s->status);
	if (s->interrupted[0])
		say("     interrupted: %s (%s); what ran until then is measured\n", s->interrupted,
		    s->interrupted_how);
}

/* N as fanotify counted it: new programs, and what it did not count. */
static void say_n_fanotify(const struct seen *s)
{
	const json_t *d = s->detail;

	if (s->n == 0)
		say("  N  0: the command launched no program that did not exist before it started\n");
	else
		say("  N  %s%ld new %s launched (%lld executions of files new since the start)\n",
		    s->n_lower ? "at least " : "", s->n, s->n == 1 ? "program" : "programs",
		    (long long)json_integer_value(json_object_get(d, "fresh_executions")));
	say("     fanotify: %lld executions of older files not counted; %lld new files other processes ran not counted\n",
	    (long long)json_integer_value(json_object_get(d, "old_executions")),
	    (long long)json_integer_value(json_object_get(d, "others_fresh_executions")));
	if (json_integer_value(json_object_get(d, "unplaced")))
		say("     %lld executions of new files by processes gone before they could be placed: not counted\n",
		    (long long)json_integer_value(json_object_get(d, "unplaced")));
	if (s->n_lower)
		say("     the event queue overflowed: N is a lower bound\n");
}

/* N as the unified log counted it: checks, and what it did not count.  N
 * is a range where the log names no program for some checks: they may be
 * the command's or the background's (docs/measure.md). */
static void say_n_log(const struct seen *s)
{
	const json_t *d = s->detail;
	long long others = json_integer_value(json_object_get(d, "others_checks"));
	long long named = json_integer_value(json_object_get(d, "programs_named"));
	long long unnamed = json_integer_value(json_object_get(d, "checks_unnamed"));
	int at_least = json_is_true(json_object_get(d, "programs_at_least"));

	if (s->n == 0)
		say("  N  0 checks in the command's window: nothing new was checked\n");
	else if (s->n_low < s->n)
		say("  N  %ld to %ld checks (GK performScan) in the command's window: %ld %s of %s%lld distinct %s "
		    "in the command's folders, and %lld whose program it does not name (the "
		    "command's, or another process's)\n", s->n_low, s->n, s->n_low, s->n_low == 1 ? "check" : "checks", at_least ? "at least " : "",
		    named, named == 1 ? "program" : "programs", unnamed);
	else
		say("  N  %ld %s (GK performScan) of %s%lld distinct %s in the command's folders, in its window\n",
		    s->n, s->n == 1 ? "check" : "checks", at_least ? "at least " : "", named,
		    named == 1 ? "program" : "programs");
	say("     unified log: %lld checks of programs outside the command's folders not counted (other processes')\n",
	    others);
}

/* N: the new programs the command launched, by whichever source counted them. */
static void say_n(const struct seen *s)
{
	if (s->n < 0)
		say("  N  unknown: %s\n", s->n_why[0] ? s->n_why : "no source of new programs");
	else if (strcmp(s->source, "fanotify") == 0)
		say_n_fanotify(s);
	else
		say_n_log(s);
}

/* The new programs' sizes against the probe's program, and what is unknown. */
static void say_sizes(const struct seen *s)
{
	char m[32], q[32], x[32], pb[32];
	long unnamed = s->source && strcmp(s->source, "unified log") == 0 && s->detail
		       ? (long)json_integer_value(json_object_get(s->detail, "checks_unnamed")) : 0;

	if (s->n <= 0)
		return;
	if (s->sz_known <= 0) {
		say("  sizes  unknown: %s\n", s->sz_why[0] ? s->sz_why : "not read");
		return;
	}
	say("  sizes  %ld new %s: median %s, 90%% at most %s, largest %s", s->sz_known,
	    s->sz_known == 1 ? "program" : "programs", size_text((long)s->sz_median, m, sizeof m),
	    size_text((long)s->sz_p90, q, sizeof q), size_text((long)s->sz_largest, x, sizeof x));
	if (s->probe_bytes > 0)
		say("; the probe's program %s%s", size_text((long)s->probe_bytes, pb, sizeof pb),
		    s->reprobe_pad > 0 ? "" : " (within 4x: L as probed)");
	say("\n");
	if (s->sz_gone && unnamed)
		say("     sizes unknown: %ld %s the log named no longer %s, and %ld %s no program\n",
		    s->sz_gone, s->sz_gone == 1 ? "program" : "programs", s->sz_gone == 1 ? "exists" : "exist",
		    unnamed, unnamed == 1 ? "check names" : "checks name");
	else if (s->sz_gone)
		say("     sizes unknown: %ld %s the log named no longer %s\n", s->sz_gone,
		    s->sz_gone == 1 ? "program" : "programs", s->sz_gone == 1 ? "exists" : "exist");
	else if (unnamed)
		say("     sizes unknown: %ld %s no program\n", unnamed, unnamed == 1 ? "check names" : "checks name");
}

/* L at the new programs' size, and which L B uses. */
static void say_l_at_size(const struct seen *s)
{
	const char *run_id = json_string_value(json_object_get(s->z_probe, "run_id"));
	const char *note = json_string_value(json_object_get(s->z_probe, "note"));
	char at[32], pb[32];
	double ratio = s->probe_bytes > 0 ? (double)s->sz_median / (double)s->probe_bytes : NAN;

	if (!s->z_probe)
		return;
	size_text((long)s->sz_median, at, sizeof at);
	if (!s->z_state)
		say("  L at %s  unknown: %s\n", at, note ? note : "the second probe left no verdict");
	else if (strcmp(s->z_state, "slowdown") == 0)
		say("  L at %s  %.2f ms [%.2f, %.2f] per check (probe %s: exe at T=1, padded by %s)\n", at,
		    s->z_l, s->z_lo, s->z_hi, run_id ? run_id : "?", size_text((long)s->reprobe_pad, pb, sizeof pb));
	else if (strcmp(s->z_state, "none") == 0)
		say("  L at %s  none: no first-launch penalty at that size (%s; probe %s)\n", at, s->z_reason,
		    run_id ? run_id : "?");
	else
		say("  L at %s  inconclusive: %s (probe %s)\n", at, s->z_reason, run_id ? run_id : "?");
	if (s->reprobe_capped)
		say("     the padding stops at 64 MiB (mkfresh --size): the programs are larger than the probe's\n");
	if (s->use_z)
		say("     B uses L at %s: the new programs' median is %.0fx the probe's program\n", at, ratio);
	else
		say("     B uses the probe's L: L at %s is %s; the programs are %.0fx the probe's, so B may be more\n",
		    at, s->z_state ? s->z_state : "unknown", ratio);
}

/* L: one check's price from the probe, and how many checks run at once. */
static void say_l(const struct seen *s)
{
	const char *run_id = json_string_value(json_object_get(s->probe, "run_id"));
	const char *how = json_string_value(json_object_get(s->probe, "how"));
	const char *note = json_string_value(json_object_get(s->probe, "note"));
	int simulated = json_is_true(json_object_get(s->probe, "simulated"));
	const char *where = run_id ? run_id : "?";

	if (!s->l_state) {
		say("  L  unknown: %s\n", note ? note : "no probe");
		return;
	}
	if (strcmp(s->l_state, "slowdown") == 0)
		say("  L  %.2f ms [%.2f, %.2f] per check (probe %s%s: exe at T=1)\n", s->l, s->l_lo,
		    s->l_hi, where, strcmp(how, "reused") == 0 ? ", reused: PROBE=0" : "");
	else if (strcmp(s->l_state, "none") == 0)
		say("  L  none: the probe saw no first-launch penalty here (%s; probe %s%s)\n",
		    s->l_reason, where, strcmp(how, "reused") == 0 ? ", reused: PROBE=0" : "");
	else
		say("  L  inconclusive: %s (probe %s%s)\n", s->l_reason, where,
		    strcmp(how, "reused") == 0 ? ", reused: PROBE=0" : "");
	if (simulated)
		say("     the probe was SIMULATED (%s): L is the model's, not evidence\n",
		    json_string_value(json_object_get(s->probe, "launcher")));
}

/* How many checks run at once, where the L that B uses is a penalty. */
static void say_queue(const struct seen *s)
{
	if (s->u_state && strcmp(s->u_state, "slowdown") == 0)
		say("     checks at once: %s\n",
		    strcmp(s->queue, "serialised") == 0 ? "one: they queue (serialised at T=2)" :
		    strcmp(s->queue, "parallel") == 0 ? "at least two (parallel at T=2)" :
		    "undetermined at T=2");
}

/* B, its share of W, and the projection without the checks; or why not.
 * Where N is a range, B and the share are too: "from to [low, high]". */
static void say_b(const struct seen *s, const struct answer *a)
{
	char b1[64], b2[64], b3[64], b4[64];

	if (a->have_b && s->n == 0) {
		say("  B  0 s: no new program, nothing to check\n");
		say("  B/W  0%%\n");
	} else if (a->have_b) {
		const char *per = a->k == 1 ? "1 (checks at once)" :
				  a->k == 2 ? "2 (at least two at once: B is at most this)" :
				  "1 (checks at once undetermined: B is at most this)";

		if (a->range)
			say("  B  %s%s to %s [%s, %s] = N x L / %s\n", a->at_most ? "at most " : "",
			    secs(a->b_r, b4, sizeof b4), secs(a->b, b1, sizeof b1), secn(a->b_lo, b2, sizeof b2),
			    secn(a->b_hi, b3, sizeof b3), per);
		else
			say("  B  %s%s [%s, %s] = N x L / %s\n", a->at_most ? "at most " : "",
			    secs(a->b, b1, sizeof b1), secn(a->b_lo, b2, sizeof b2), secn(a->b_hi, b3, sizeof b3), per);
		if (a->capped && a->bottleneck)
			say("  B/W  100%% (capped): the checks alone took longer than the command: they were its bottleneck\n");
		else if (a->capped && a->range)
			say("  B/W  %s%s to 100%% (capped at N's high end) of the command's time\n",
			    a->at_most ? "at most " : "", pct(a->sh_r, b4, sizeof b4));
		else if (a->capped)
			say("  B/W  at most 100%% (capped)\n");
		else if (a->range)
			say("  B/W  %s%s to %s [%s, %s] of the command's time\n", a->at_most ? "at most " : "",
			    pct(a->sh_r, b4, sizeof b4), pct(a->sh, b1, sizeof b1), pct(a->sh_lo, b2, sizeof b2),
			    pct(a->sh_hi, b3, sizeof b3));
		else
			say("  B/W  %s%s [%s, %s] of the command's time\n", a->at_most ? "at most " : "",
			    pct(a->sh, b1, sizeof b1), pct(a->sh_lo, b2, sizeof b2), pct(a->sh_hi, b3, sizeof b3));
	} else if (s->n < 0) {
		say("  B  not computed: N is unknown\n");
	} else if (!s->u_state) {
		say("  B  not computed: L is unknown\n");
	} else if (strcmp(s->u_state, "none") == 0) {
		say("  B  none: with no penalty per check there is no busy time, and no share\n");
	} else {
		say("  B  not computed: L is inconclusive; run again, or with a fixed COUNT\n");
	}
	if (a->have_proj && s->n > 0)
		say("  Without the checks: no less than %s [%s, %s] = W - B (the command waited at most as long as the checker was busy)\n",
		    secs(a->pj, b1, sizeof b1), secn(a->pj_lo, b2, sizeof b2), secn(a->pj_hi, b3, sizeof b3));
}

/* The services' CPU, the watchers, and what the calibration gate held. */
static void say_surroundings(const json_t *services, const char *svc_why, const json_t *c,
			     const json_t *gate)
{
	char b1[64];

	if (json_is_array(services)) {
		size_t i;
		const json_t *v;
		int any = 0;

		say("  Services' CPU during the command:");
		json_array_foreach(services, i, v) {
			const json_t *cpu = json_object_get(v, "cpu_s");

			say("%s %s %s", any++ ? "," : "", json_string_value(json_object_get(v, "name")),
			    json_is_number(cpu) ? (snprintf(b1, sizeof b1, "%.2f s", json_number_value(cpu)), b1)
						: "unknown");
		}
		say("\n");
	} else {
		say("  Services' CPU: %s\n", svc_why);
	}
	say("  Watchers: fanotify listeners %s; agents %s\n",
	    cond(c, "fanotify_listeners")[0] ? cond(c, "fanotify_listeners") : "unknown",
	    cond(c, "agents")[0] ? cond(c, "agents") : "unknown");
	if (json_is_object(gate) && json_is_integer(json_object_get(gate, "held_launches")))
		say("  Calibration gate (%s ms, %s %s, key %s): it held %lld new launches, %.2f s in all (its log)\n",
		    json_string_value(json_object_get(gate, "latency_ms")),
		    json_string_value(json_object_get(gate, "workers")),
		    strcmp(json_string_value(json_object_get(gate, "workers")), "1") == 0 ? "worker" : "workers",
		    json_string_value(json_object_get(gate, "key")),
		    (long long)json_integer_value(json_object_get(gate, "held_launches")),
		    json_number_value(json_object_get(gate, "held_s")));
	if (json_is_object(gate) && json_integer_value(json_object_get(gate, "unheld_launches")) > 0)
		say("  %lld new launches passed the gate unheld: their folders were made and run before it had marked them (its log)\n",
		    (long long)json_integer_value(json_object_get(gate, "unheld_launches")));
}

/* The measure's own cause and step, as make doctor gives them
 * (micro/report/advice.c: the responsible app and its Developer Tools
 * state, ssh, tmux, the gate, the simulator), from the measure's conditions
 * and the verdict of the probe whose L B uses (run: its folder, or NULL). */
static void say_advice(const char *run, const char *note, const json_t *c)
{
	json_t *j = run ? load_run(run) : NULL;
	struct advice_probe p;
	char *buf = NULL;
	size_t len = 0;
	FILE *mf;

	if (!j || !advice_probe_of_run(j, "exe", &p)) {
		memset(&p, 0, sizeof p);
		p.verdict = ADVICE_UNCLEAR;
		p.kase = "exe";
		p.penalty_ms = p.low_ms = p.high_ms = NAN;
		p.pairs = 0;
		p.reason = note ? note : "no probe";
	}
	mf = open_memstream(&buf, &len);
	if (!mf)
		die(EXIT_FAIL, "cannot hold the advice in memory:");
	advice_write(mf, advice_json_get, c, &p);
	if (fclose(mf) != 0)
		die(EXIT_FAIL, "cannot hold the advice in memory:");
	say("%s", buf ? buf : "");
	free(buf);
	json_decref(j);
}

/* The text: W, N, L, B and the share, then what surrounded the command,
 * and last the cause and the one thing to do. */
static void words(const struct seen *s, const struct answer *a, const char *cmdline,
		  const char *dir, const json_t *services, const char *svc_why,
		  const json_t *c, const json_t *gate)
{
	say_command(s, cmdline, dir);
	say_n(s);
	say_sizes(s);
	say_l(s);
	say_l_at_size(s);
	say_queue(s);
	say_b(s, a);
	say_surroundings(services, svc_why, c, gate);
}

/* ---- measure.json ------------------------------------------------------------ */

/* {median, ci_low, ci_high}, or null when a value is missing (JSON has no NaN). */
static json_t *interval(double m, double lo, double hi)
{
	if (isnan(m) || isnan(lo) || isnan(hi))
		return json_null();
	return json_pack("{s:f, s:f, s:f}", "median", m, "ci_low", lo, "ci_high", hi);
}

static json_t *services_json(const char *path, char *why, size_t whylen)
{
	struct svc_sample before, after;
	struct svc_total tot[N_SERVICES];
	json_t *arr;
	int i, rc;

	memset(&before, 0, sizeof before);
	memset(&after, 0, sizeof after);
	memset(tot, 0, sizeof tot);
	why[0] = '\0';
	rc = services_read(path, "measure", &before, &after, why, whylen);
	if (rc != 0) {
		if (rc == 1)
			snprintf(why, whylen, "not sampled");
		services_free(&before);
		services_free(&after);
		return json_null();
	}
	services_add(tot, &before, &after);
	arr = json_array();
	for (i = 0; i < N_SERVICES; i++)
		json_array_append_new(arr, json_pack("{s:s, s:o, s:I, s:I}", "name", service_names[i],
			"cpu_s", tot[i].unknown ? json_null() : json_real(round(tot[i].cpu_s * 100) / 100),
			"instances", (json_int_t)tot[i].instances, "ended", (json_int_t)tot[i].ended));
	services_free(&before);
	services_free(&after);
	return arr;
}

static int write_text_file(const char *path, const char *s)
{
	struct atomic_file af;

	if (atomic_open(&af, path) != 0)
		return -1;
	fputs(s, af.fp);
	return atomic_commit(&af);
}

/* ---- the measure --------------------------------------------------------------- */

/* The command line: what to read, where to write, and the command. */
struct margs {
	const char *out, *watch, *logcount, *services, *conds;
	const char *probe, *probe_how, *probe_note, *gate_log;
	const char *sizes, *size_probe, *size_probe_how, *size_probe_note;
	const char *dir, *id;
	char **cmd; /* the command and its arguments, after -- */
	int ncmd;
};

/* What the command's run left, read, and what the measure makes of it. */
struct found {
	json_t *c; /* the conditions */
	struct seen s;
	struct answer a;
	json_t *svc, *gate;
	char svc_why[400];
	char *cmdline;
};

/* The options, each with a value, then -- and the command; checked. */
static void parse_measure_args(int argc, char **argv, struct margs *m)
{
	const struct opt opts[] = {
		OPT_VALUE("--out", &m->out), OPT_VALUE("--watch", &m->watch),
		OPT_VALUE("--logcount", &m->logcount), OPT_VALUE("--services", &m->services),
		OPT_VALUE("--conditions", &m->conds), OPT_VALUE("--probe", &m->probe),
		OPT_VALUE("--probe-how", &m->probe_how), OPT_VALUE("--probe-note", &m->probe_note),
		OPT_VALUE("--gate-log", &m->gate_log), OPT_VALUE("--dir", &m->dir),
		OPT_VALUE("--id", &m->id), OPT_VALUE("--sizes", &m->sizes),
		OPT_VALUE("--size-probe", &m->size_probe), OPT_VALUE("--size-probe-how", &m->size_probe_how),
		OPT_VALUE("--size-probe-note", &m->size_probe_note), OPT_END
	};
	int i;

	memset(m, 0, sizeof *m);
	i = opts_parse(argc, argv, opts, OPTS_AFTER_DASHDASH, usage);
	if (!m->out || !m->watch || !m->conds)
		die(EXIT_USAGE, "--out, --watch and --conditions are required (see --help)");
	if (i >= argc)
		die(EXIT_USAGE, "no command after -- (see --help)");
	m->cmd = argv + i;
	m->ncmd = argc - i;
	if (!m->probe_how)
		m->probe_how = m->probe ? "ran" : "none";
	if (strcmp(m->probe_how, "ran") != 0 && strcmp(m->probe_how, "reused") != 0 &&
	    strcmp(m->probe_how, "none") != 0 && strcmp(m->probe_how, "failed") != 0)
		die(EXIT_USAGE, "--probe-how '%s' is not ran, reused, none or failed", m->probe_how);
	if (m->size_probe_how && strcmp(m->size_probe_how, "ran") != 0 && strcmp(m->size_probe_how, "failed") != 0)
		die(EXIT_USAGE, "--size-probe-how '%s' is not ran or failed", m->size_probe_how);
}

/* Read what the run left: the conditions, W and N, L, the services, the gate. */
static void gather(const struct margs *m, struct found *f)
{
	memset(f, 0, sizeof *f);
	f->c = read_conditions(m->conds);
	if (!f->c)
		die(EXIT_FAIL, "cannot read %s:", m->conds);
	f->s.n = -1;
	f->s.l = f->s.l_lo = f->s.l_hi = NAN;
	if (m->logcount)
		read_logcount(m->logcount, &f->s);
	read_watch(m->watch, &f->s);
	read_probe(m->probe, m->probe_how, m->probe_note, &f->s);
	read_sizes(m->sizes, &f->s);
	read_size_probe(m->size_probe, m->size_probe_how, m->size_probe_note, &f->s);
	choose_l(&f->s);
	f->svc = m->services ? services_json(m->services, f->svc_why, sizeof f->svc_why) : json_null();
	if (!m->services)
		snprintf(f->svc_why, sizeof f->svc_why,
			 "not sampled: the assessment services are macOS's (this is %s)",
			 cond(f->c, "os")[0] ? cond(f->c, "os") : "unknown");
	f->gate = read_gate(m->gate_log, f->c);
	f->cmdline = command_line(m->cmd, m->ncmd);
}

/* measure.json's head: the schema, the command, how it ended, W and its CPU. */
static void command_json(json_t *root, const struct margs *m, const struct found *f)
{
	const struct seen *s = &f->s;
	json_t *cmd = json_array();
	int k;

	for (k = 0; k < m->ncmd; k++)
		json_array_append_new(cmd, json_string(m->cmd[k]));
	json_object_set_new(root, "schema", json_string("execlag-measure"));
	json_object_set_new(root, "schema_version", json_integer(MEASURE_SCHEMA_VERSION));
	json_object_set_new(root, "kit_version", json_string(EXECLAG_VERSION));
	json_object_set_new(root, "measure_id", json_string(m->id ? m->id : ""));
	json_object_set_new(root, "command", cmd);
	json_object_set_new(root, "command_line", json_string(f->cmdline));
	json_object_set_new(root, "dir", m->dir ? json_string(m->dir) : json_null());
	json_object_set_new(root, "exit", json_pack("{s:i, s:o, s:o, s:o}", "status", s->status,
		"signal", s->signal ? json_integer(s->signal) : json_null(),
		"not_run", s->not_run ? json_string(s->not_run_why) : json_null(),
		"interrupted", s->interrupted[0] ? json_string(s->interrupted) : json_null()));
	json_object_set_new(root, "wall_s", json_real(s->wall_s));
	json_object_set_new(root, "cpu_s", json_pack("{s:f, s:f}", "user", s->user_s, "system", s->sys_s));
}

/* measure.json's N and L: the new programs, the probe, its verdict and queueing. */
static void seen_json(json_t *root, const struct seen *s)
{
	json_object_set_new(root, "fresh_launches", s->n >= 0 ? json_integer(s->n) : json_null());
	json_object_set_new(root, "fresh_launches_at_least", json_boolean(s->n_lower));
	json_object_set_new(root, "fresh_source", s->n >= 0 ? json_string(s->source) : json_null());
	json_object_set_new(root, "fresh_reason", s->n < 0 ? json_string(s->n_why) : json_null());
	json_object_set_new(root, "fresh", s->detail ? s->detail : json_null());
	json_object_set_new(root, "probe", s->probe);
	json_object_set_new(root, "penalty_verdict", s->l_state ? json_string(s->l_state) : json_null());
	json_object_set_new(root, "penalty_ms", s->l_state && strcmp(s->l_state, "none") != 0 && !isnan(s->l)
		? interval(s->l, s->l_lo, s->l_hi) : json_null());
	json_object_set_new(root, "checks_queue", s->u_state ? json_string(s->queue) : json_null());
	json_object_set_new(root, "fresh_range", s->n >= 0 && s->n_low >= 0 && s->n_low < s->n
		? json_pack("{s:I, s:I}", "low", (json_int_t)s->n_low, "high", (json_int_t)s->n) : json_null());
	if (s->sz_known > 0)
		json_object_set_new(root, "program_sizes", json_pack("{s:s, s:I, s:I, s:I, s:I, s:I}",
			"source", s->source ? s->source : "", "known", (json_int_t)s->sz_known,
			"gone", (json_int_t)s->sz_gone, "median_bytes", (json_int_t)s->sz_median,
			"p90_bytes", (json_int_t)s->sz_p90, "largest_bytes", (json_int_t)s->sz_largest));
	else
		json_object_set_new(root, "program_sizes", json_null());
	json_object_set_new(root, "program_sizes_reason", s->sz_known > 0 ? json_null()
			    : json_string(s->sz_why[0] ? s->sz_why : "not read"));
	json_object_set_new(root, "probe_program_bytes", s->probe_bytes > 0 ? json_integer(s->probe_bytes) : json_null());
	json_object_set_new(root, "penalty_at_size", s->z_probe ? s->z_probe : json_null());
	json_object_set_new(root, "penalty_used", json_string(s->use_z ? "at_size" : "probe"));
}

/* measure.json's answer: B, the share, and the projection without the checks. */
static void answer_json(json_t *root, const struct answer *a)
{
	json_object_set_new(root, "checks_at_once", a->have_b && a->k ? json_integer(a->k) : json_null());
	json_object_set_new(root, "checker_busy_s", a->have_b ? interval(a->b, a->b_lo, a->b_hi) : json_null());
	json_object_set_new(root, "checker_busy_bound", a->have_b ? json_string(a->at_most ? "at_most" : "estimate") : json_null());
	json_object_set_new(root, "share", a->have_share ? interval(a->sh, a->sh_lo, a->sh_hi) : json_null());
	json_object_set_new(root, "checker_busy_range_s", a->have_b && a->range
		? json_pack("{s:f, s:f}", "low", a->b_r, "high", a->b) : json_null());
	json_object_set_new(root, "share_range", a->have_share && a->range
		? json_pack("{s:f, s:f}", "low", a->sh_r, "high", a->sh) : json_null());
	json_object_set_new(root, "share_capped", json_boolean(a->capped));
	json_object_set_new(root, "bottleneck", json_boolean(a->bottleneck));
	json_object_set_new(root, "projection", a->have_proj ? json_pack("{s:o, s:s, s:s}",
		"without_checks_s", interval(a->pj, a->pj_lo, a->pj_hi),
		"kind", "at least",
		"formula", "W - N x L / 1 (the command waited for checks at most as long as the one checker was busy)")
		: json_null());
}

/* All of measure.json; takes over f's JSON values (the conditions, N's
 * detail, the probe, the services, the gate). */
static json_t *measure_json(const struct margs *m, struct found *f)
{
	json_t *root = json_object();

	command_json(root, m, f);
	seen_json(root, &f->s);
	answer_json(root, &f->a);
	json_object_set_new(root, "services", f->svc);
	json_object_set_new(root, "services_reason", json_is_null(f->svc) ? json_string(f->svc_why) : json_null());
	json_object_set_new(root, "watchers", json_pack("{s:s, s:s}",
		"fanotify_listeners", cond(f->c, "fanotify_listeners"), "agents", cond(f->c, "agents")));
	json_object_set_new(root, "gate", f->gate);
	json_object_set_new(root, "conditions", f->c);
	json_object_set_new(root, "summary", json_string(text ? text : ""));
	return root;
}

/* DIR/measure.txt, DIR/measure.json, then the text on stdout. */
static void write_measure(const char *out, const json_t *root)
{
	char *path, *dump;

	path = xasprintf("%s/measure.txt", out);
	if (write_text_file(path, text ? text : "") != 0)
		die(EXIT_FAIL, "cannot write %s:", path);
	free(path);
	dump = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
	path = xasprintf("%s/measure.json", out);
	if (!dump || write_text_file(path, dump) != 0)
		die(EXIT_FAIL, "cannot write %s:", path);
	free(path);
	free(dump);
	if (fputs(text ? text : "", stdout) == EOF || fflush(stdout) != 0)
		die(EXIT_FAIL, "cannot write to stdout:");
}

/* Parse, read what the run left, compute B, then say it and write it. */
static int measure_main(int argc, char **argv)
{
	struct margs m;
	struct found f;
	json_t *root;

	parse_measure_args(argc, argv, &m);
	gather(&m, &f);
	compute(&f.s, &f.a);
	words(&f.s, &f.a, f.cmdline, m.dir, f.svc, f.svc_why, f.c, f.gate);
	say_advice(f.s.use_z ? m.size_probe : m.probe,
		   json_string_value(json_object_get(f.s.probe, "note")), f.c);
	root = measure_json(&m, &f);
	write_measure(m.out, root);
	json_decref(root);
	free(f.cmdline);
	return EXIT_OK;
}

/* ---- the latest comparable run ------------------------------------------------ */

/* What makes two runs comparable: the same machine (its OS, build, kernel,
 * model, CPU, cores, the kit's architecture) and the same conditions (SIP,
 * assessments, Developer Tools, network, terminal, file system, watchers,
 * launcher, gate). */
static const char *const same_keys[] = {
	"os", "os_version", "os_build", "kernel", "arch", "model", "cpu", "ncpu", "core_classes",
	"sip", "sip_custom", "assessments", "devtools", "network", "vpn",
	"terminal", "work_fs", "fanotify_listeners", "agents", "launcher", "gate.active",
	"gate.latency_ms", "gate.workers", "gate.key", "gate.exempt", "gate.on", "gate.every_ms",
	"gate.per_mb_ms", NULL
};

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)b, *(char *const *)a); /* newest first */
}

static int has_exe_t1(const json_t *j)
{
	size_t i, k;
	const json_t *c, *cfg;

	json_array_foreach(json_object_get(j, "cases"), i, c) {
		const char *n = json_string_value(json_object_get(c, "name"));

		if (!n || strcmp(n, "exe") != 0)
			continue;
		/* unpadded: a measure's probe at its programs' size (SIZE) prices
		 * programs of that size, not the probe's */
		json_array_foreach(json_object_get(c, "configs"), k, cfg)
			if (json_integer_value(json_object_get(cfg, "threads")) == 1 &&
			    json_integer_value(json_object_get(cfg, "pad_bytes")) == 0)
				return 1;
	}
	return 0;
}

static int latest_main(const char *results, const char *like)
{
	json_t *want = read_conditions(like);
	DIR *d;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, i;

	if (!want)
		die(EXIT_FAIL, "cannot read %s:", like);
	d = opendir(results);
	if (!d)
		return EXIT_OK; /* no results: none */
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9' || !strchr(e->d_name, 'T'))
			continue;
		names = xrealloc(names, (n + 1) * sizeof *names);
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, name_cmp);
	for (i = 0; i < n; i++) {
		char *dir = xasprintf("%s/%s", results, names[i]);
		json_t *j = load_run(dir), *c;
		int same = j && has_exe_t1(j);
		int k;

		free(dir);
		c = json_object_get(j, "conditions");
		for (k = 0; same && same_keys[k]; k++)
			same = strcmp(cond(c, same_keys[k]), cond(want, same_keys[k])) == 0;
		json_decref(j);
		if (same) {
			printf("%s/%s\n", results, names[i]);
			break;
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	json_decref(want);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	progname = "measure";
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		usage(stdout);
		return EXIT_OK;
	}
	if (argc > 1 && strcmp(argv[1], "--program-sizes") == 0)
		return sizes_main(argc, argv);
	if (argc > 1 && strcmp(argv[1], "--latest-probe") == 0) {
		if (argc != 5 || strcmp(argv[3], "--like") != 0)
			die(EXIT_USAGE, "usage: measure --latest-probe RESULTS --like CONDITIONS");
		return latest_main(argv[2], argv[4]);
	}
	return measure_main(argc, argv);
}
