/* mcompare - two measures side by side (make compare A=<measure> B=<measure>):
 * W, N (a range where the log names no program for some checks), L (and L
 * at the programs' size where the measure took it), B with their intervals,
 * the share, the services' CPU, the responsible app and how the command was
 * started, the conditions that differ, and how much the command's time
 * changed.
 *
 *   mcompare [--] A B      (each a measure folder or its measure.json)
 *
 * Any problem with either file is one line on stderr and exit 2. */
#define _POSIX_C_SOURCE 200809L
#include "util.h"
#include "jsonnum.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MEASURE_SCHEMA_VERSION 1

struct m {
	json_t *j;
	const char *label;
	const json_t *c;
};

static void usage(FILE *f)
{
	fputs("usage: mcompare [--] A B\n"
	      "Compare two measures (make measure), each a measure folder or its\n"
	      "measure.json: wall time W, new programs N, one check's price L, the\n"
	      "checker's busy time B and its share, the services' CPU, the conditions\n"
	      "that differ, and how much the command's time changed from A to B.\n"
	      "Exit: 0 done, 1 cannot write, 2 bad usage or a file that is not a measure.\n", f);
}

static void load(struct m *m, const char *label, const char *where)
{
	struct stat st;
	char *path;
	json_error_t err;
	const json_t *v;

	m->label = label;
	if (stat(where, &st) != 0)
		die(EXIT_USAGE, "%s: no such measure '%s'", label, where);
	path = S_ISDIR(st.st_mode) ? xasprintf("%s/measure.json", where) : xstrdup(where);
	m->j = json_load_file(path, 0, &err);
	if (!m->j) {
		if (S_ISDIR(st.st_mode) && access(path, F_OK) != 0)
			die(EXIT_USAGE, "%s: '%s' holds no measure.json (a run? make compare takes two runs or two measures)",
			    label, where);
		die(EXIT_USAGE, "%s: %s is not JSON: %s (line %d)", label, path, err.text, err.line);
	}
	v = json_object_get(m->j, "schema");
	if (!json_is_string(v) || strcmp(json_string_value(v), "execlag-measure") != 0)
		die(EXIT_USAGE, "%s: %s is not an execlag measure", label, path);
	v = json_object_get(m->j, "schema_version");
	if (!json_is_integer(v) || json_integer_value(v) != MEASURE_SCHEMA_VERSION)
		die(EXIT_USAGE, "%s: %s has schema_version %s; this kit reads %d", label, path,
		    json_is_integer(v) ? "another" : "none", MEASURE_SCHEMA_VERSION);
	if (!json_is_number(json_object_get(m->j, "wall_s")))
		die(EXIT_USAGE, "%s: %s has no wall_s", label, path);
	m->c = json_object_get(m->j, "conditions");
	free(path);
}

static const char *str(const json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v ? v : "";
}

/* "12.34 [10.00, 15.00]" of an interval object, with a unit, or dflt. */
static const char *ival(const json_t *o, const char *fmt_unit, double scale, const char *dflt,
			char *buf, size_t len)
{
	double m = json_num_at(o, "median"), lo = json_num_at(o, "ci_low"), hi = json_num_at(o, "ci_high");
	char a[32], b[32], c[32];

	if (!json_is_object(o) || isnan(m))
		return dflt;
	snprintf(a, sizeof a, "%.2f", m * scale);
	snprintf(b, sizeof b, "%.2f", lo * scale);
	snprintf(c, sizeof c, "%.2f", hi * scale);
	snprintf(buf, len, "%s%s [%s, %s]", a, fmt_unit, b, c);
	return buf;
}

static const char *l_text(const struct m *m, char *buf, size_t len)
{
	const char *v = str(m->j, "penalty_verdict");

	if (!v[0])
		return "unknown";
	if (strcmp(v, "none") == 0)
		return "none";
	if (strcmp(v, "inconclusive") == 0) {
		char tmp[96];

		snprintf(buf, len, "inconclusive %s",
			 ival(json_object_get(m->j, "penalty_ms"), " ms", 1, "", tmp, sizeof tmp));
		return buf;
	}
	return ival(json_object_get(m->j, "penalty_ms"), " ms", 1, "-", buf, len);
}

static const char *n_text(const struct m *m, char *buf, size_t len)
{
	const json_t *n = json_object_get(m->j, "fresh_launches");
	const json_t *r = json_object_get(m->j, "fresh_range");

	if (!json_is_integer(n))
		return "unknown";
	if (json_is_object(r)) {
		snprintf(buf, len, "%lld to %lld", (long long)json_integer_value(json_object_get(r, "low")),
			 (long long)json_integer_value(json_object_get(r, "high")));
		return buf;
	}
	snprintf(buf, len, "%s%lld", json_is_true(json_object_get(m->j, "fresh_launches_at_least")) ? ">= " : "",
		 (long long)json_integer_value(n));
	return buf;
}

static const char *b_text(const struct m *m, char *buf, size_t len)
{
	const json_t *b = json_object_get(m->j, "checker_busy_s");
	const json_t *r = json_object_get(m->j, "checker_busy_range_s");
	char tmp[96];

	if (!json_is_object(b))
		return "-";
	if (json_is_object(r)) {
		snprintf(buf, len, "%s%.2f to %.2f s [%.2f, %.2f]",
			 strcmp(str(m->j, "checker_busy_bound"), "at_most") == 0 ? "at most " : "",
			 json_num_at(r, "low"), json_num_at(r, "high"), json_num_at(b, "ci_low"),
			 json_num_at(b, "ci_high"));
		return buf;
	}
	snprintf(buf, len, "%s%s", strcmp(str(m->j, "checker_busy_bound"), "at_most") == 0 ? "at most " : "",
		 ival(b, " s", 1, "-", tmp, sizeof tmp));
	return buf;
}

static const char *share_text(const struct m *m, char *buf, size_t len)
{
	const json_t *s = json_object_get(m->j, "share");
	char tmp[96];

	if (!json_is_object(s))
		return "-";
	if (json_is_true(json_object_get(m->j, "share_capped")))
		return json_is_true(json_object_get(m->j, "bottleneck")) ? "100% (capped: the bottleneck)"
									: "at most 100% (capped)";
	if (json_is_object(json_object_get(m->j, "share_range"))) {
		const json_t *r = json_object_get(m->j, "share_range");

		snprintf(buf, len, "%s%.2f to %.2f%% [%.2f, %.2f]",
			 strcmp(str(m->j, "checker_busy_bound"), "at_most") == 0 ? "at most " : "",
			 json_num_at(r, "low") * 100, json_num_at(r, "high") * 100,
			 json_num_at(s, "ci_low") * 100, json_num_at(s, "ci_high") * 100);
		return buf;
	}
	snprintf(buf, len, "%s%s", strcmp(str(m->j, "checker_busy_bound"), "at_most") == 0 ? "at most " : "",
		 ival(s, "%", 100, "-", tmp, sizeof tmp));
	return buf;
}

static double service_cpu(const struct m *m, const char *name)
{
	size_t i;
	const json_t *s;

	json_array_foreach(json_object_get(m->j, "services"), i, s)
		if (strcmp(str(s, "name"), name) == 0)
			return json_num_at(s, "cpu_s");
	return NAN;
}

/* L at the programs' median size, where the measure took it again. */
static const char *lsize_text(const struct m *m, char *buf, size_t len)
{
	const json_t *z = json_object_get(m->j, "penalty_at_size");
	const json_t *ps = json_object_get(m->j, "program_sizes");
	const char *v = str(z, "verdict");
	char tmp[96], at[32];

	if (!json_is_object(z))
		return "-";
	size_text((long)json_integer_value(json_object_get(ps, "median_bytes")), at, sizeof at);
	if (!v[0])
		snprintf(buf, len, "unknown at %s", at);
	else if (strcmp(v, "slowdown") == 0)
		snprintf(buf, len, "%s at %s", ival(json_object_get(z, "penalty_ms"), " ms", 1, "-", tmp, sizeof tmp), at);
	else
		snprintf(buf, len, "%s at %s", v, at);
	return buf;
}

/* The app macOS holds responsible for what the command launched, with its
 * Developer Tools state (the conditions make doctor reads), or "-" off a Mac. */
static const char *app_text(const struct m *m, char *buf, size_t len)
{
	const char *app = str(m->c, "responsible_app"), *dt = str(m->c, "devtools");

	if (strcmp(str(m->c, "os"), "Darwin") != 0)
		return "- (not macOS)";
	if (!app[0] || strcmp(app, "unknown") == 0 || strcmp(app, "n/a") == 0)
		app = str(m->c, "terminal_app")[0] ? str(m->c, "terminal_app") : "unknown";
	snprintf(buf, len, "%s (Developer Tools: %s)", app, dt[0] ? dt : "unknown");
	return buf;
}

/* How the command was started (sysinfo's started_via: ssh, launchd, tmux
 * or screen, the terminal app, in that order), its commas spaced. */
static const char *started_text(const struct m *m, char *buf, size_t len)
{
	const char *via = str(m->c, "started_via");
	size_t o = 0;

	if (!via[0])
		via = "unknown";
	for (; *via && o + 3 < len; via++) {
		buf[o++] = *via;
		if (*via == ',')
			buf[o++] = ' ';
	}
	buf[o] = '\0';
	return buf;
}

static const char *const diff_keys[] = {
	"responsible_app", "started_via", "ssh", "multiplexer", "launchd_job", "devtools", "sip", "assessments", "network", "vpn", "terminal", "os", "os_version",
	"os_build", "model", "cpu", "ncpu", "work_fs", "fanotify_listeners", "agents", "launcher",
	"gate.active", "gate.latency_ms", "gate.workers", "gate.key", "gate.exempt", "emulation", NULL
};

/* The command line: --help, or two measures; returns where A is in argv. */
static int parse_args(int argc, char **argv)
{
	int i = 1;

	if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		usage(stdout);
		exit(EXIT_OK);
	}
	if (argc > 1 && strcmp(argv[1], "--") == 0)
		i = 2;
	if (argc - i != 2 || !argv[i][0] || !argv[i + 1][0])
		die(EXIT_USAGE, "give two measures: make compare A=<measure> B=<measure> (see --help)");
	return i;
}

/* The two measures' ids and commands, and whether the commands differ. */
static void print_commands(const struct m *a, const struct m *b)
{
	printf("A: %s  %s\n", str(a->j, "measure_id"), str(a->j, "command_line"));
	printf("B: %s  %s\n", str(b->j, "measure_id"), str(b->j, "command_line"));
	if (strcmp(str(a->j, "command_line"), str(b->j, "command_line")) != 0)
		printf("(the two measures ran different commands)\n");
}

/* One line of the table: what it shows, A's, B's. */
static void row(const char *label, const char *x, const char *y)
{
	printf("%-20s %-32s %s\n", label, x, y);
}

/* W with the command's exit status. */
static const char *w_text(const struct m *m, char *buf, size_t len)
{
	snprintf(buf, len, "%.2f s (exit %lld)", json_num_at(m->j, "wall_s"),
		 (long long)json_integer_value(json_object_get(json_object_get(m->j, "exit"), "status")));
	return buf;
}

/* Whether checks queue, or "-". */
static const char *queue_text(const struct m *m)
{
	return str(m->j, "checks_queue")[0] ? str(m->j, "checks_queue") : "-";
}

/* Each service's CPU where either measure has it. */
static void print_services(const struct m *a, const struct m *b)
{
	static const char *const names[] = { "syspolicyd", "XprotectService", "amfid", "trustd", "mdworker_shared" };
	char x[160], y[160];
	int k;

	for (k = 0; k < 5; k++) {
		double ca = service_cpu(a, names[k]), cb = service_cpu(b, names[k]);
		char label[40];

		if (isnan(ca) && isnan(cb))
			continue;
		snprintf(label, sizeof label, "%s CPU", names[k]);
		snprintf(x, sizeof x, isnan(ca) ? "-" : "%.2f s", ca);
		snprintf(y, sizeof y, isnan(cb) ? "-" : "%.2f s", cb);
		row(label, x, y);
	}
}

/* The table: W, N, L, checks at once, B, the share, the services' CPU. */
static void print_table(const struct m *a, const struct m *b)
{
	char x[160], y[160];

	printf("\n%-20s %-32s %s\n", "", "A", "B");
	row("W", w_text(a, x, sizeof x), w_text(b, y, sizeof y));
	row("N", n_text(a, x, sizeof x), n_text(b, y, sizeof y));
	row("L", l_text(a, x, sizeof x), l_text(b, y, sizeof y));
	if (json_is_object(json_object_get(a->j, "penalty_at_size")) ||
	    json_is_object(json_object_get(b->j, "penalty_at_size"))) {
		row("L at programs' size", lsize_text(a, x, sizeof x), lsize_text(b, y, sizeof y));
		row("B uses", strcmp(str(a->j, "penalty_used"), "at_size") == 0 ? "L at size" : "L",
		    strcmp(str(b->j, "penalty_used"), "at_size") == 0 ? "L at size" : "L");
	}
	row("checks at once", queue_text(a), queue_text(b));
	row("B", b_text(a, x, sizeof x), b_text(b, y, sizeof y));
	row("B/W", share_text(a, x, sizeof x), share_text(b, y, sizeof y));
	print_services(a, b);
	row("responsible app", app_text(a, x, sizeof x), app_text(b, y, sizeof y));
	row("started", started_text(a, x, sizeof x), started_text(b, y, sizeof y));
}

/* The conditions that differ between A and B, or that none does. */
static void print_conditions(const struct m *a, const struct m *b)
{
	int k, differ = 0;

	printf("\n");
	for (k = 0; diff_keys[k]; k++) {
		const char *va = str(a->c, diff_keys[k]), *vb = str(b->c, diff_keys[k]);

		if (strcmp(va, vb) == 0)
			continue;
		if (!differ++)
			printf("Conditions that differ:\n");
		printf("  %s: %s -> %s\n", diff_keys[k], va[0] ? va : "(none)", vb[0] ? vb : "(none)");
	}
	if (!differ)
		printf("No condition differs (those compared: the responsible app, how the command was started, Developer Tools, SIP, assessments, network, terminal, OS, machine, watchers, gate).\n");
}

/* How much the command's time changed from A to B. */
static void print_change(const struct m *a, const struct m *b)
{
	double wa = json_num_at(a->j, "wall_s"), wb = json_num_at(b->j, "wall_s");

	if (wa > 0)
		printf("\nThe command's time changed by %+.2f s (%+.1f%%): %.2f s in A, %.2f s in B.\n",
		       wb - wa, (wb - wa) / wa * 100.0, wa, wb);
}

int main(int argc, char **argv)
{
	struct m a, b;
	int i;

	progname = "mcompare";
	i = parse_args(argc, argv);
	load(&a, "A", argv[i]);
	load(&b, "B", argv[i + 1]);
	print_commands(&a, &b);
	print_table(&a, &b);
	print_conditions(&a, &b);
	print_change(&a, &b);
	if (fflush(stdout) != 0)
		die(EXIT_FAIL, "cannot write to stdout:");
	json_decref(a.j);
	json_decref(b.j);
	return EXIT_OK;
}
