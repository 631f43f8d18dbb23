/* compare - two runs side by side.
 *
 *   compare [--results DIR] [--] A B
 *
 * A and B are run folders (results/<run>/), their run.json, or run ids
 * under DIR (default "results").  Prints, per case and per configuration
 * (threads, core class) found in both runs, the two penalties with their
 * intervals, the change as the ratio B/A and whether the verdict flipped;
 * then the conditions that differ and how to toggle each by hand.  A and B
 * may be the same run.  A simulated run (launcher sim:...) is said to be
 * one in the header and in its line.  Bad input: one line on stderr,
 * exit 2. */
#define _POSIX_C_SOURCE 200809L
#include "runjson.h"
#include "remediesjson.h"
#include "remedies_text.h"
#include "opts.h"
#include "launcherspec.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CELL 96
#define MAX_COLS 8

static void usage(FILE *f)
{
	fputs("usage: compare [--results DIR] [--] A B\n"
	      "  A, B  a run folder, its run.json, or a run id under DIR\n"
	      "        (default DIR: results); after --, a name starting\n"
	      "        with '-' is a run too\n"
	      "Prints the penalties of both runs per case and per configuration\n"
	      "(threads, class), the ratio B/A, the verdicts that flipped, the\n"
	      "conditions that differ, and how to toggle them by hand.\n"
	      "Exit: 0 done, 2 bad usage or a run that cannot be read.\n", f);
}

/* ---- a plain text table ------------------------------------------------ */

struct table {
	int cols;
	size_t n, cap;
	char (*rows)[MAX_COLS][CELL];
};

static char (*table_row(struct table *t))[CELL]
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->rows = xrealloc(t->rows, t->cap * sizeof *t->rows);
	}
	memset(t->rows[t->n], 0, sizeof t->rows[t->n]);
	return t->rows[t->n++];
}

/* Display width: UTF-8 continuation bytes take no column. */
static int text_width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

/* Print the table, columns padded to their widest cell, and free it. */
static void table_print(const struct table *t)
{
	int width[MAX_COLS] = { 0 };
	size_t i;
	int c;

	for (i = 0; i < t->n; i++)
		for (c = 0; c < t->cols; c++)
			if (text_width(t->rows[i][c]) > width[c])
				width[c] = text_width(t->rows[i][c]);
	for (i = 0; i < t->n; i++)
		for (c = 0; c < t->cols; c++) {
			if (c == t->cols - 1) {
				printf("%s\n", t->rows[i][c]);
			} else {
				printf("%s%*s", t->rows[i][c],
				       width[c] - text_width(t->rows[i][c]) + 2, "");
			}
		}
	free(t->rows);
}

/* ---- pieces ------------------------------------------------------------ */

static const char *cond(const struct runjson *r, const char *key)
{
	const char *v = runjson_condition(r, key);

	return v ? v : "(absent)";
}

static int is_os(const struct runjson *r, const char *os)
{
	const char *v = runjson_condition(r, "os");

	return v && strcmp(v, os) == 0;
}

static int gate_on(const struct runjson *r)
{
	const char *v = runjson_condition(r, "gate.active");

	return v && strcmp(v, "1") == 0;
}

/* The launcher of a simulated run ("sim:latency=20 ..."), else NULL. */
static const char *simulated(const struct runjson *r)
{
	const char *v = runjson_condition(r, "launcher");

	return launcher_is_sim(v) ? v : NULL;
}

/* The launcher a run used: a run from before the key launched for real. */
static const char *launcher_of(const struct runjson *r)
{
	const char *v = runjson_condition(r, "launcher");

	return v ? v : "spawn";
}

/* S quoted for a POSIX shell: 'it'\''s'. */
static void print_quoted(const char *s)
{
	putchar('\'');
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", stdout);
		else
			putchar(*s);
	}
	putchar('\'');
}

/* "execlag compare", and which of the runs is simulated. */
static void header(const struct runjson *a, const struct runjson *b)
{
	const char *which = simulated(a) && simulated(b) ? "A and B" :
			    simulated(a) ? "A" : simulated(b) ? "B" : NULL;

	if (!which) {
		puts("execlag compare");
		return;
	}
	printf("execlag compare — SIMULATED: %s (nothing was launched; the times are the "
	       "kit's model's: a test of the kit, not evidence)\n", which);
}

/* "B/A" of the penalty medians: only when A's is above zero. */
static const char *ratio_text(const json_t *a, const json_t *b, char *buf, size_t len)
{
	double pa = rj_penalty(a, "median"), pb = rj_penalty(b, "median");

	if (isnan(pa) || isnan(pb) || pa <= 0)
		snprintf(buf, len, "-");
	else if (fabs(pb / pa) >= 0.01)
		snprintf(buf, len, "%.2f", pb / pa);
	else
		snprintf(buf, len, "%.2g", pb / pa);
	return buf;
}

static int flipped(const json_t *a, const json_t *b)
{
	return strcmp(rj_str(a, "verdict"), rj_str(b, "verdict")) != 0;
}

static void verdicts_text(const json_t *a, const json_t *b, char *buf, size_t len)
{
	if (flipped(a, b))
		snprintf(buf, len, "%s → %s (flipped)", rj_str(a, "verdict"),
			 rj_str(b, "verdict"));
	else
		snprintf(buf, len, "%s (same)", rj_str(a, "verdict"));
}

static void describe(const char *which, const struct runjson *r)
{
	printf("%s  %s  %s", which, r->run_id, cond(r, "os_name"));
	if (is_os(r, "Darwin"))
		printf(" %s", cond(r, "os_version"));
	if (runjson_condition(r, "os_build") && strcmp(cond(r, "os_build"), "n/a") != 0)
		printf(" (%s)", cond(r, "os_build"));
	printf(", model %s, network %s", cond(r, "model"), cond(r, "network"));
	if (gate_on(r))
		printf(", calibration gate: latency %s ms, workers %s, key %s, exempt %s",
		       cond(r, "gate.latency_ms"), cond(r, "gate.workers"),
		       cond(r, "gate.key"), cond(r, "gate.exempt"));
	if (simulated(r))
		printf(", simulated: launcher %s", simulated(r));
	putchar('\n');
}

/* The chip the runs were made on: the control a user shows Apple is the same
 * chip under macOS and under Asahi Linux (no assessment there).  Said only
 * where both runs name their chip. */
static int chip_known(const struct runjson *r)
{
	const char *c = cond(r, "cpu");

	return runjson_condition(r, "cpu") && *c && strcmp(c, "unknown") != 0;
}

static void machines(const struct runjson *a, const struct runjson *b)
{
	const char *ca = cond(a, "cpu"), *cb = cond(b, "cpu");
	int same_os = strcmp(cond(a, "os"), cond(b, "os")) == 0;

	if (!chip_known(a) || !chip_known(b))
		return;
	if (strcmp(ca, cb) == 0 && !same_os)
		printf("Same chip (%s), different OS (%s → %s): each case's penalty under "
		       "both, side by side.\n", ca, cond(a, "os_name"), cond(b, "os_name"));
	else if (strcmp(ca, cb) != 0)
		printf("Different chips (%s → %s): the penalties compare machines as well as "
		       "settings.\n", ca, cb);
}

/* ---- the two tables ---------------------------------------------------- */

static void class_cell(const json_t *c, char *buf, size_t len);

/* Whether config C is its case's headline (the configuration the case's
 * verdict comes from). */
static int is_headline(const json_t *kase, const json_t *c)
{
	const json_t *h = json_object_get(kase, "headline");

	return h && rj_long(h, "threads") == rj_long(c, "threads") &&
	       strcmp(rj_str(h, "class"), rj_str(c, "class")) == 0 && rj_pad(h) == rj_pad(c);
}

/* "Headlines that differ: exe 1/all → 8/all": cases in both runs whose
 * verdict comes from different configurations; nothing when all agree
 * (the table's * marks them). */
static void headlines(const struct runjson *a, const struct runjson *b)
{
	char ca[64], cb[64];
	size_t i, n = 0;

	for (i = 0; i < json_array_size(a->cases); i++) {
		const json_t *ka = json_array_get(a->cases, i);
		const json_t *kb = rj_case(b, rj_str(ka, "name"));
		const json_t *ha, *hb;

		if (!kb)
			continue;
		ha = json_object_get(ka, "headline");
		hb = json_object_get(kb, "headline");
		if (rj_long(ha, "threads") == rj_long(hb, "threads") && rj_pad(ha) == rj_pad(hb) &&
		    strcmp(rj_str(ha, "class"), rj_str(hb, "class")) == 0)
			continue;
		class_cell(ha, ca, sizeof ca);
		class_cell(hb, cb, sizeof cb);
		printf("%s%s %ld/%s → %ld/%s", n++ ? "; " : "Headlines that differ (T/class A → B): ",
		       rj_str(ka, "name"), rj_long(ha, "threads"), ca, rj_long(hb, "threads"), cb);
	}
	if (n)
		putchar('\n');
}

/* Rows for every configuration in both runs; counts the flips. */
/* A config's class, and its padding when SIZE gave one: "all", "all 1 MiB". */
static void class_cell(const json_t *c, char *buf, size_t len)
{
	char size[32];

	if (rj_pad(c) > 0)
		snprintf(buf, len, "%s %s", rj_str(c, "class"),
			 size_text(rj_pad(c), size, sizeof size));
	else
		snprintf(buf, len, "%s", rj_str(c, "class"));
}

/* both_configs: FN(case of A, config of A, the same config of B, CTX)
 * for each configuration in both runs, in A's order. */
static void both_configs(const struct runjson *a, const struct runjson *b,
			 void (*fn)(const json_t *ka, const json_t *ca, const json_t *cb, void *ctx),
			 void *ctx)
{
	size_t i, j;

	for (i = 0; i < json_array_size(a->cases); i++) {
		const json_t *ka = json_array_get(a->cases, i);
		const json_t *kb = rj_case(b, rj_str(ka, "name"));
		const json_t *configs = json_object_get(ka, "configs");

		if (!kb)
			continue;
		for (j = 0; j < json_array_size(configs); j++) {
			const json_t *ca = json_array_get(configs, j);
			const json_t *cb = rj_config(kb, rj_long(ca, "threads"), rj_str(ca, "class"), rj_pad(ca));

			if (cb)
				fn(ka, ca, cb, ctx);
		}
	}
}

/* config_row: one row of the per-configuration table (CTX its table). */
static void config_row(const json_t *ka, const json_t *ca, const json_t *cb, void *ctx)
{
	char (*row)[CELL] = table_row(ctx);

	snprintf(row[0], CELL, "%s%s", rj_str(ka, "name"), is_headline(ka, ca) ? " *" : "");
	snprintf(row[1], CELL, "%ld", rj_long(ca, "threads"));
	class_cell(ca, row[2], CELL);
	rj_penalty_text(ca, row[3], CELL);
	rj_penalty_text(cb, row[4], CELL);
	ratio_text(ca, cb, row[5], CELL);
	verdicts_text(ca, cb, row[6], CELL);
}

static void per_config(const struct runjson *a, const struct runjson *b)
{
	struct table t = { 7, 0, 0, NULL };
	char (*row)[CELL];

	row = table_row(&t);
	snprintf(row[0], CELL, "case");
	snprintf(row[1], CELL, "T");
	snprintf(row[2], CELL, "class");
	snprintf(row[3], CELL, "A penalty ms [95%% CI]");
	snprintf(row[4], CELL, "B penalty ms [95%% CI]");
	snprintf(row[5], CELL, "B/A");
	snprintf(row[6], CELL, "verdict A → B");
	both_configs(a, b, config_row, &t);
	puts("Per configuration in both runs (threads T, core class; * the case's headline "
	     "in A, where its verdict comes from)");
	if (t.n == 1) {
		free(t.rows);
		puts("(no configuration is in both runs)");
		return;
	}
	table_print(&t);
}

/* "Only in A: dylib T=1 all, exe T=8 all": what one run has and the other
 * lacks, one line per direction, none when both hold the same. */
static void only_in(const char *which, const struct runjson *x, const struct runjson *y)
{
	char cls[64];
	size_t i, j, n = 0;

	for (i = 0; i < json_array_size(x->cases); i++) {
		const json_t *kx = json_array_get(x->cases, i);
		const json_t *ky = rj_case(y, rj_str(kx, "name"));
		const json_t *configs = json_object_get(kx, "configs");

		for (j = 0; j < json_array_size(configs); j++) {
			const json_t *c = json_array_get(configs, j);

			if (ky && rj_config(ky, rj_long(c, "threads"), rj_str(c, "class"), rj_pad(c)))
				continue;
			class_cell(c, cls, sizeof cls);
			printf("%s%s T=%ld %s", n++ ? ", " : which, rj_str(kx, "name"),
			       rj_long(c, "threads"), cls);
		}
	}
	if (n)
		putchar('\n');
}

/* The configurations in both runs, and how many flipped. */
struct flip_count {
	size_t both, n;
};

static void count_flip(const json_t *ka, const json_t *ca, const json_t *cb, void *ctx)
{
	struct flip_count *f = ctx;

	f->both++;
	f->n += (size_t)flipped(ca, cb);
}

/* print_flip: "  exe T=1 all: slowdown → none (150.00 → 0.10 ms)" where
 * the verdict flipped. */
static void print_flip(const json_t *ka, const json_t *ca, const json_t *cb, void *ctx)
{
	char cls[64], pa[32], pb[32];

	if (!flipped(ca, cb))
		return;
	class_cell(ca, cls, sizeof cls);
	printf("  %s T=%ld %s: %s → %s (%s → %s ms)\n", rj_str(ka, "name"),
	       rj_long(ca, "threads"), cls, rj_str(ca, "verdict"),
	       rj_str(cb, "verdict"), num2(rj_penalty(ca, "median"), pa, sizeof pa),
	       num2(rj_penalty(cb, "median"), pb, sizeof pb));
}

/* "Verdicts that flipped (2 of 5 configurations in both runs):" and one
 * line per flip with both penalties. */
static void flips(const struct runjson *a, const struct runjson *b)
{
	struct flip_count f = { 0, 0 };

	both_configs(a, b, count_flip, &f);
	if (!f.n) {
		printf("Verdicts that flipped: none (of %zu configuration%s in both "
		       "runs)\n", f.both, f.both == 1 ? "" : "s");
		return;
	}
	printf("Verdicts that flipped (%zu of %zu configuration%s in both runs):\n",
	       f.n, f.both, f.both == 1 ? "" : "s");
	both_configs(a, b, print_flip, NULL);
}

/* ---- conditions -------------------------------------------------------- */

static const char *const compared_keys[] = {
	"os", "os_version", "os_build", "model", "sip", "sip_custom", "assessments",
	"devtools", "network", "network_interface", "vpn", "terminal", "fanotify_listeners",
	"agents", "emulation", NULL
};

static const char *const setting_keys[] = {
	"run.profile", "run.cases", "run.threads", "run.classes", "run.count", NULL
};

static int differs(const struct runjson *a, const struct runjson *b, const char *key)
{
	return strcmp(cond(a, key), cond(b, key)) != 0;
}

static int print_difference(const struct runjson *a, const struct runjson *b,
			    const char *key, int n)
{
	if (!differs(a, b, key))
		return n;
	printf("%s %s %s → %s", n ? ";" : "", key, cond(a, key), cond(b, key));
	return n + 1;
}

static int cmp_cstr(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The gate.* keys of both runs, sorted, each once. */
static const char **gate_keys(const struct runjson *a, const struct runjson *b, size_t *n)
{
	const char **keys = NULL, *key;
	size_t count = 0, i, j, out;
	json_t *value;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		json_t *obj = pass ? b->conditions : a->conditions;

		json_object_foreach(obj, key, value) {
			if (strncmp(key, "gate.", 5) != 0)
				continue;
			keys = xrealloc(keys, (count + 1) * sizeof *keys);
			keys[count++] = key;
		}
	}
	if (count > 1)
		qsort(keys, count, sizeof *keys, cmp_cstr);
	for (i = 0, out = 0; i < count; i = j) {
		keys[out++] = keys[i];
		for (j = i + 1; j < count && strcmp(keys[j], keys[i]) == 0; j++)
			;
	}
	*n = out;
	return keys;
}

static void conditions(const struct runjson *a, const struct runjson *b)
{
	const char **gk;
	size_t n_gate, i;
	int n = 0;

	fputs("Conditions that differ:", stdout);
	for (i = 0; compared_keys[i]; i++)
		n = print_difference(a, b, compared_keys[i], n);
	if (strcmp(launcher_of(a), launcher_of(b)) != 0)
		printf("%s launcher %s → %s", n++ ? ";" : "", launcher_of(a), launcher_of(b));
	gk = gate_keys(a, b, &n_gate);
	for (i = 0; i < n_gate; i++)
		n = print_difference(a, b, gk[i], n);
	free(gk);
	if (!n)
		printf(" none (os, os_version, os_build, model, sip, sip_custom, assessments,"
		       " devtools, network, network_interface, vpn, terminal, fanotify_listeners,"
		       " agents, emulation%s and gate.* are"
		       " the same)", simulated(a) ? ", launcher" : "");
	putchar('\n');
	n = 0;
	for (i = 0; setting_keys[i]; i++)
		if (differs(a, b, setting_keys[i]))
			n++;
	if (!n)
		return;
	fputs("Run settings that differ:", stdout);
	n = 0;
	for (i = 0; setting_keys[i]; i++)
		n = print_difference(a, b, setting_keys[i], n);
	putchar('\n');
}

/* ---- how to toggle ----------------------------------------------------- */

/* "make repro CASES=… THREADS=… COUNT=…": the settings a run was made with
 * ("sudo make …" under the gate, which needs root for fanotify). */
static void repro_command(const struct runjson *r)
{
	const char *v;

	if (gate_on(r))
		fputs("sudo ", stdout);
	fputs(cond(r, "run.profile")[0] == 'f' ? "make repro-full" : "make repro", stdout);
	if ((v = runjson_condition(r, "run.cases")))
		printf(" CASES=%s", v);
	if ((v = runjson_condition(r, "run.threads")))
		printf(" THREADS=%s", v);
	if ((v = runjson_condition(r, "run.count")) && strcmp(v, "per case") != 0)
		printf(" COUNT=%s", v);
	if ((v = runjson_condition(r, "run.classes")) && strcmp(v, "all") != 0)
		printf(" CLASSES=%s", v);
	if (gate_on(r))
		printf(" GATE='latency=%s workers=%s key=%s exempt=%s'", cond(r, "gate.latency_ms"),
		       cond(r, "gate.workers"), cond(r, "gate.key"), cond(r, "gate.exempt"));
	if (simulated(r)) {
		fputs(" LAUNCHER=", stdout);
		print_quoted(simulated(r));
	}
}

static void toggles(const struct runjson *a, const struct runjson *b)
{
	int mac = is_os(a, "Darwin") || is_os(b, "Darwin");
	int linux_run = is_os(a, "Linux") || is_os(b, "Linux");

	puts("How to toggle a condition by hand and re-run (execlag never changes one)");
	if (mac || !linux_run) {
		printf("- Developer Tools (A: %s, B: %s): System Settings › Privacy & Security ›\n"
		       "  Developer Tools: add the terminal you run the kit from (\"+\"; `spctl\n"
		       "  developer-mode enable-terminal` only makes Terminal appear in that list),\n"
		       "  switch it on, then quit and reopen the terminal. Switch it off the same\n"
		       "  way; undoing it may need a restart of the Mac.\n",
		       cond(a, "devtools"), cond(b, "devtools"));
		printf("- Network (A: %s, B: %s): turn Wi-Fi off and unplug any network cable;\n"
		       "  conditions.txt of the new run must say network=offline. Reconnect after.\n",
		       cond(a, "network"), cond(b, "network"));
		printf("- SIP (A: %s, B: %s): can only be changed from Recovery, with\n"
		       "  `csrutil disable` or `csrutil enable` and a restart; turn it back on the\n"
		       "  same way.\n", cond(a, "sip"), cond(b, "sip"));
	}
	if (linux_run)
		printf("- Calibration gate (Linux, root; A: %s, B: %s): change one setting per\n"
		       "  run, e.g. sudo make repro GATE='latency=20 workers=1 key=inode exempt=1'\n"
		       "  (latency in ms, workers, key=inode|path|content, exempt=0|1); make repro\n"
		       "  without GATE is the plain control.\n",
		       gate_on(a) ? "gate on" : "no gate", gate_on(b) ? "gate on" : "no gate");
	if (simulated(a) || simulated(b))
		printf("- Simulator (A: %s, B: %s): make repro LAUNCHER='sim:…' runs the\n"
		       "  whole kit on a seeded model of a checker and launches nothing (a test\n"
		       "  of the kit); without LAUNCHER it launches for real: only that is evidence.\n",
		       simulated(a) ? "simulated" : "real launches",
		       simulated(b) ? "simulated" : "real launches");
	fputs("Then re-run with A's settings: ", stdout);
	repro_command(a);
	printf("\nand compare: make compare A=%s B=<the new run>\n", a->run_id);
}

/* ---- main -------------------------------------------------------------- */

/* The two runs after the options; after --, a run named "-x" too. */
static void load_runs(int argc, char **argv, struct runjson *a, struct runjson *b)
{
	const char *results = "results";
	const struct opt opts[] = { OPT_VALUE("--results", &results), OPT_END };
	int i = opts_parse(argc, argv, opts, OPTS_AFTER, usage);

	if (argc - i > 2)
		die(EXIT_USAGE, "too many runs: give exactly two, A and B (try --help)");
	if (argc - i < 2 || !*argv[i] || !*argv[i + 1])
		die(EXIT_USAGE, "give two runs, A and B: compare A B, or make compare A=<run> B=<run>");
	runjson_load(a, "A: ", argv[i], results);
	runjson_load(b, "B: ", argv[i + 1], results);
}

/* ---- the checker's health, side by side ------------------------------- */

/* A run's checker.* KEY (advise --health), "-" where it has none. */
static const char *checker_cell(const struct runjson *r, const char *key, char *buf, size_t len)
{
	const char *v = runjson_condition(r, key);

	if (!runjson_condition(r, "checker.state"))
		return "(not read: an older kit)";
	snprintf(buf, len, "%s", v && *v ? v : "-");
	return buf;
}

/* syspolicyd's CPU and memory, or the log's rate: two keys in a cell. */
static const char *checker_pair(const struct runjson *r, const char *k1, const char *fmt,
				const char *k2, char *buf, size_t len)
{
	const char *v1 = runjson_condition(r, k1), *v2 = runjson_condition(r, k2);

	if (!runjson_condition(r, "checker.state"))
		return "(not read: an older kit)";
	if (!v1 && !v2)
		return "-";
	snprintf(buf, len, fmt, v1 ? v1 : "?", v2 ? v2 : "?");
	return buf;
}

/* The checker's state and figures of each run, read before any launch:
 * what make doctor's first line says, for a before and an after (only
 * where a run has them). */
static void checkers(const struct runjson *a, const struct runjson *b)
{
	static const struct {
		const char *label, *k1, *fmt, *k2;
	} rows[] = {
		{ "state", "checker.state", NULL, NULL },
		{ "record", "checker.record", NULL, NULL },
		{ "assessment", "checker.assess", NULL, NULL },
		{ "syspolicyd", "checker.syspolicyd_cpu_pct", "%s%% CPU, %s KiB", "checker.syspolicyd_rss_kb" },
		{ "log", "checker.rate", "%s a second not the kit's, %s lines in all", "checker.log_lines" },
		{ "driver", "checker.driver", NULL, NULL },
	};
	struct table t = { 3, 0, 0, NULL };
	const struct runjson *r[2] = { a, b };
	size_t i;
	int k;

	if (!runjson_condition(a, "checker.state") && !runjson_condition(b, "checker.state"))
		return;
	puts("The checker before any launch (docs/method.md, \"When the checker is sick\"):");
	snprintf(table_row(&t)[1], CELL, "A");
	snprintf(t.rows[0][2], CELL, "B");
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char (*row)[CELL] = table_row(&t), buf[CELL];

		snprintf(row[0], CELL, "%s", rows[i].label);
		for (k = 0; k < 2; k++)
			snprintf(row[k + 1], CELL, "%s",
				 rows[i].fmt ? checker_pair(r[k], rows[i].k1, rows[i].fmt, rows[i].k2, buf, sizeof buf)
					     : checker_cell(r[k], rows[i].k1, buf, sizeof buf));
	}
	table_print(&t);
}

/* Which runs, made on what. */
static void the_runs(const struct runjson *a, const struct runjson *b)
{
	header(a, b);
	describe("A", a);
	describe("B", b);
	machines(a, b);
	checkers(a, b);
	putchar('\n');
}

/* The summary first: what flipped and what differs. */
static void summary(const struct runjson *a, const struct runjson *b)
{
	flips(a, b);
	conditions(a, b);
	putchar('\n');
}

/* Every configuration in both runs, then what only one of them has. */
static void tables(const struct runjson *a, const struct runjson *b)
{
	per_config(a, b);
	only_in("Only in A: ", a, b);
	only_in("Only in B: ", b, a);
	headlines(a, b);
	putchar('\n');
}

/* ---- make remedies' tables (remediesjson.h) ------------------------------ */

static const char *mark_text(const struct remedy_row *r)
{
	return !r ? "not run" : r->mark == REMEDY_USE ? "use here" : r->mark == REMEDY_AVOID ? "avoid" : "-";
}

static const struct remedy_row *remedy_named(const struct remedies *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->n_rows; i++)
		if (strcmp(t->rows[i].name, name) == 0)
			return &t->rows[i];
	return NULL;
}

/* a placement's cells: A's and B's (NULL: not in that run's table) */
static void remedy_cells(char (*row)[CELL], const char *name, const struct remedy_row *ra,
			 const struct remedy_row *rb)
{
	char ka[64], kb[64];

	snprintf(row[0], CELL, "%s", name);
	snprintf(row[1], CELL, "%s", ra ? rj_num2(ra->cost_ms, ka, sizeof ka) : "-");
	snprintf(row[2], CELL, "%s", rb ? rj_num2(rb->cost_ms, kb, sizeof kb) : "-");
	snprintf(row[3], CELL, "%s", ra ? remedies_kills_text(&ra->kills, ka, sizeof ka) : "-");
	snprintf(row[4], CELL, "%s", rb ? remedies_kills_text(&rb->kills, kb, sizeof kb) : "-");
	snprintf(row[5], CELL, "%s", mark_text(ra));
	snprintf(row[6], CELL, "%s", mark_text(rb));
}

static void remedies_read(const struct runjson *r, const char *label, struct remedies *t)
{
	char why[256];

	if (remediesjson_read(r->json, t, why, sizeof why) < 0)
		die(EXIT_USAGE, "%s%s: %s", label, r->path, why);
}

/* The two tables side by side, where either run is make remedies': each
 * placement's first launch and kills, what each says to use */
static void remedies(const struct runjson *a, const struct runjson *b)
{
	static const char *const head[] = { "placement", "A first launch ms", "B first launch ms",
					    "A killed", "B killed", "A", "B" };
	struct remedies ta, tb;
	struct table t = { 7, 0, 0, NULL };
	char (*h)[CELL];
	size_t i;
	int c;

	remedies_read(a, "A: ", &ta);
	remedies_read(b, "B: ", &tb);
	if (ta.n_rows || tb.n_rows) {
		printf("Remedies (make remedies): each placement's first launch (ms) and kills, A and B\n");
		h = table_row(&t);
		for (c = 0; c < 7; c++)
			snprintf(h[c], CELL, "%s", head[c]);
		for (i = 0; i < ta.n_rows; i++)
			remedy_cells(table_row(&t), ta.rows[i].name, &ta.rows[i],
				     remedy_named(&tb, ta.rows[i].name));
		for (i = 0; i < tb.n_rows; i++)
			if (!remedy_named(&ta, tb.rows[i].name))
				remedy_cells(table_row(&t), tb.rows[i].name, NULL, &tb.rows[i]);
		table_print(&t);
		printf("use here: A %s, B %s%s\n\n", ta.n_rows ? (ta.use ? ta.use->name : "none") : "no table",
		       tb.n_rows ? (tb.use ? tb.use->name : "none") : "no table",
		       ta.n_rows && tb.n_rows && (!ta.use) == (!tb.use) &&
				       (!ta.use || strcmp(ta.use->name, tb.use->name) == 0)
			       ? " (the same)" : " (changed)");
	}
	remediesjson_free(&ta);
	remediesjson_free(&tb);
}

int main(int argc, char **argv)
{
	struct runjson a, b;

	progname = "compare";
	load_runs(argc, argv, &a, &b);
	the_runs(&a, &b);
	summary(&a, &b);
	tables(&a, &b);
	remedies(&a, &b);
	toggles(&a, &b);
	runjson_free(&a);
	runjson_free(&b);
	if (fflush(stdout) != 0 || ferror(stdout))
		die(EXIT_FAIL, "cannot write to stdout:");
	return EXIT_OK;
}
