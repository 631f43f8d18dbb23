/* report.c - run.json (jansson), report.md and the terminal table.
 *
 * All three say the same thing; run.json is the one machines read
 * (docs/run.schema.json), report.md the one people attach to a bug report. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"
#include "jsonnum.h"
#include "advice.h"
#include "looks.h"
#include "plot.h"
#include "stop.h"
#include "hfcompare.h"
#include "suitestats.h"
#include "thresholds.h"
#include "launcherspec.h"
#include "conditions.h"
#include "util.h"
#include "services_log.h"
#include "services.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef EXECLAG_VERSION
#define EXECLAG_VERSION "0.0.0"
#endif

#define CELL_MAX 96

static int gate_active(const struct run *r)
{
	const char *active = run_condition(r, "gate.active");

	return active && strcmp(active, "1") == 0;
}

/* The launcher of a simulated run ("sim:latency=20 ..."), else NULL: such a
 * run launched nothing, and says so wherever it is named. */
static const char *simulated(const struct run *r)
{
	const char *l = run_condition(r, "launcher");

	return launcher_is_sim(l) ? l : NULL;
}

/* ---- run.json ------------------------------------------------------------------- */

/* Text from the input files.  jansson refuses bytes that are not UTF-8;
 * rather than lose the field, such bytes become '?'. */
static json_t *jstr(const char *s)
{
	json_t *j = json_string(s);
	char *ascii;
	size_t i;

	if (j)
		return j;
	ascii = xstrdup(s);
	for (i = 0; ascii[i]; i++)
		if ((unsigned char)ascii[i] >= 0x80)
			ascii[i] = '?';
	j = json_string(ascii);
	free(ascii);
	return j;
}

static json_t *jstr_or_null(const char *s)
{
	return s ? jstr(s) : json_null();
}

static json_t *json_thresholds(void)
{
	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:i}",
			 "penalty_floor_ms", PENALTY_FLOOR_MS,
			 "floor_share", FLOOR_SHARE,
			 "confidence", CONFIDENCE,
			 "serial_scaling_max", SERIAL_SCALING_MAX,
			 "queue_growth_min", QUEUE_GROWTH_MIN,
			 "min_pairs", MIN_PAIRS);
}

static json_t *json_conditions(const struct run *r)
{
	json_t *obj = json_object();
	size_t i;

	for (i = 0; i < r->n_conditions; i++)
		json_object_set_new(obj, r->conditions[i].key,
				    jstr(r->conditions[i].value));
	return obj;
}

/* A numeric-looking value becomes a number; anything else stays a string. */
static json_t *json_loose(const char *value)
{
	double d;

	if (!value)
		return json_null();
	if (parse_double(value, -1e300, 1e300, &d) == 0)
		return json_real(d);
	return jstr(value);
}

static json_t *json_gate(const struct run *r)
{
	const char *latency = run_condition(r, "gate.latency_ms");
	const char *workers = run_condition(r, "gate.workers");
	json_t *gate;
	double latency_ms;
	long n_workers;

	if (!gate_active(r))
		return json_null();
	gate = json_object();
	json_object_set_new(gate, "latency_ms",
			    latency && parse_double(latency, 0, 1e12, &latency_ms) == 0
				    ? json_real(latency_ms) : json_null());
	json_object_set_new(gate, "workers",
			    workers && parse_long(workers, 0, 1000000, &n_workers) == 0
				    ? json_integer(n_workers) : json_null());
	json_object_set_new(gate, "key", jstr_or_null(run_condition(r, "gate.key")));
	json_object_set_new(gate, "exempt", json_loose(run_condition(r, "gate.exempt")));
	/* runs made before the gate could scan on open held executions only */
	json_object_set_new(gate, "on", jstr(run_condition(r, "gate.on") ? run_condition(r, "gate.on") : "exec"));
	json_object_set_new(gate, "failure", jstr_or_null(run_condition(r, "gate.failure")));
	/* runs made before the gate could hold every launch held none */
	json_object_set_new(gate, "every_ms",
			    json_loose(run_condition(r, "gate.every_ms") ? run_condition(r, "gate.every_ms") : "0"));
	json_object_set_new(gate, "per_mb_ms",
			    json_loose(run_condition(r, "gate.per_mb_ms") ? run_condition(r, "gate.per_mb_ms") : "0"));
	return gate;
}

static json_t *json_penalty(const struct penalty *p)
{
	json_t *obj = json_object();

	json_object_set_new(obj, "median", json_num(p->median_ms));
	json_object_set_new(obj, "ci_low", json_num(p->ci_low_ms));
	json_object_set_new(obj, "ci_high", json_num(p->ci_high_ms));
	json_object_set_new(obj, "coverage", json_num(p->coverage));
	return obj;
}

static json_t *json_pass_stats(const struct pass_stats *ps)
{
	json_t *obj = json_object();

	json_object_set_new(obj, "n_ok", json_integer((json_int_t)ps->n_ok));
	json_object_set_new(obj, "median_ms", json_num(ps->median_ms));
	json_object_set_new(obj, "p90_ms", json_num(ps->p90_ms));
	return obj;
}

static json_t *json_pass_time(const struct pass_time *pt)
{
	json_t *obj = json_object();

	json_object_set_new(obj, "wall_ms", pt->present ? json_num(pt->wall_ms) : json_null());
	json_object_set_new(obj, "launches",
			    pt->present ? json_integer(pt->launches) : json_null());
	json_object_set_new(obj, "launches_per_s",
			    pt->present ? json_num(pt->launches_per_s) : json_null());
	return obj;
}

/* launch ran a reference pass for this config (launch --reference) */
static int has_reference(const struct config *c)
{
	return c->pass[PASS_REFERENCE].n_ok > 0 || c->failures[PASS_REFERENCE] > 0;
}

/* Every launch's cost in the work folder, from the headline config; null
 * where there was no reference. */
static json_t *json_every_launch(const struct config *h)
{
	if (!has_reference(h))
		return json_null();
	return json_pack("{s:o, s:o, s:I, s:o, s:o, s:o, s:s, s:o}",
			 "reference_median_ms", json_num(h->pass[PASS_REFERENCE].median_ms),
			 "repeat_median_ms", json_num(h->pass[PASS_REPEAT].median_ms),
			 "pairs", (json_int_t)h->ref_pairs,
			 "cost_ms", json_penalty(&h->ref_cost),
			 "ratio", json_num(h->ref_ratio),
			 "relative", json_num(h->ref_relative),
			 "verdict", stats_verdict_name(h->ref_verdict),
			 "reason", jstr(h->ref_reason));
}

static json_t *json_failed_sample(const struct sample *s)
{
	char buf[32];
	json_t *obj = json_object();

	json_object_set_new(obj, "pass", json_string(stats_pass_name(s->pass)));
	json_object_set_new(obj, "index", json_integer(s->index));
	json_object_set_new(obj, "exit", json_integer(s->exit_status));
	json_object_set_new(obj, "signal", json_integer(s->signal));
	json_object_set_new(obj, "signal_name",
			    s->signal ? json_string(stats_signal_name(s->signal, buf, sizeof buf))
				      : json_null());
	json_object_set_new(obj, "errno", json_integer(s->spawn_errno));
	return obj;
}

static json_t *json_failures(const struct config *c)
{
	json_t *obj = json_object();
	json_t *list = json_array();
	size_t i;

	json_object_set_new(obj, "first", json_integer((json_int_t)c->failures[PASS_FIRST]));
	json_object_set_new(obj, "repeat", json_integer((json_int_t)c->failures[PASS_REPEAT]));
	if (has_reference(c))
		json_object_set_new(obj, "reference",
				    json_integer((json_int_t)c->failures[PASS_REFERENCE]));
	for (i = 0; i < c->n_samples && json_array_size(list) < MAX_LISTED_FAILURES; i++)
		if (!stats_sample_ok(&c->samples[i]))
			json_array_append_new(list, json_failed_sample(&c->samples[i]));
	json_object_set_new(obj, "samples", list);
	return obj;
}

/* The checking services' CPU over a hang's wait: raw/NAME.hang.services.tsv
 * (launch --services-out, a services file), what each used from its before
 * sample (at half the bound) to its after one (at the kill).  0 read into
 * tot; 1 none taken; -1 unusable, with why. */
static int hang_services(const struct config *c, struct svc_total tot[N_SERVICES], char *why,
			 size_t len)
{
	const char *suffix = ".samples.tsv";
	size_t n = strlen(c->file), k = strlen(suffix);
	char *path = xmalloc(n + 32);
	struct svc_sample before, after;
	int rc;

	snprintf(path, n + 32, "%.*s.hang.services.tsv",
		 (int)(n > k && strcmp(c->file + n - k, suffix) == 0 ? n - k : n), c->file);
	memset(&before, 0, sizeof before);
	memset(&after, 0, sizeof after);
	memset(tot, 0, sizeof(struct svc_total) * N_SERVICES);
	rc = services_read(path, "the hang", &before, &after, why, len);
	if (rc == 0)
		services_add(tot, &before, &after);
	services_free(&before);
	services_free(&after);
	free(path);
	return rc;
}

/* run.json's "hang" of a configuration: its bound, the hung launches per
 * pass out of those made, each one's evidence, and the services' CPU over
 * the wait; absent where nothing hung. */
static json_t *json_hang(const struct config *c)
{
	json_t *obj = json_object(), *hung = json_object(), *made = json_object();
	json_t *list = json_array(), *svc;
	struct svc_total tot[N_SERVICES];
	char why[256] = "";
	size_t i;
	int p, rc;

	for (p = 0; p < PASS_ALL; p++) {
		if (!c->made[p])
			continue;
		json_object_set_new(hung, stats_pass_name((enum pass)p), json_integer((json_int_t)c->hung[p]));
		json_object_set_new(made, stats_pass_name((enum pass)p), json_integer((json_int_t)c->made[p]));
	}
	json_object_set_new(obj, "bound_s", json_num(c->hang_s));
	json_object_set_new(obj, "hung", hung);
	json_object_set_new(obj, "made", made);
	for (i = 0; i < c->n_hangs; i++) {
		const struct hang_ev *h = &c->hangs[i];

		json_array_append_new(list, json_pack("{s:s, s:I, s:o, s:s, s:o, s:s, s:s}",
			"pass", stats_pass_name(h->pass), "index", (json_int_t)h->index,
			"pid", h->pid > 0 ? json_integer(h->pid) : json_null(),
			"state", h->state, "cpu_s", json_num(h->cpu_s), "wchan", h->wchan,
			"outcome", h->unkillable ? "unkillable" : "killed"));
	}
	json_object_set_new(obj, "launches", list);
	rc = hang_services(c, tot, why, sizeof why);
	if (rc == 0) {
		svc = json_object();
		for (i = 0; i < N_SERVICES; i++)
			json_object_set_new(svc, service_names[i],
					    tot[i].unknown ? json_null() : json_real(round(tot[i].cpu_s * 100) / 100));
		json_object_set_new(obj, "services_cpu_s", svc);
		json_object_set_new(obj, "services_reason", json_null());
	} else {
		json_object_set_new(obj, "services_cpu_s", json_null());
		json_object_set_new(obj, "services_reason",
				    json_string(rc == 1 ? (c->launcher ? "not sampled: a simulated run"
							  : "not sampled (the services are watched on macOS, "
							    "or with EXECLAG_WATCH_SERVICES=1)") : why));
	}
	return obj;
}

static json_t *json_config(const struct config *c)
{
	json_t *obj = json_object();
	json_t *passes = json_object();

	json_object_set_new(obj, "threads", json_integer(c->threads));
	json_object_set_new(obj, "class", jstr(c->class_name));
	json_object_set_new(obj, "pad_bytes", json_integer(c->pad));
	json_object_set_new(obj, "n", json_integer(c->n));
	json_object_set_new(obj, "pairs", json_integer((json_int_t)c->pairs));
	json_object_set_new(obj, "first", json_pass_stats(&c->pass[PASS_FIRST]));
	json_object_set_new(obj, "repeat", json_pass_stats(&c->pass[PASS_REPEAT]));
	json_object_set_new(obj, "penalty_ms", json_penalty(&c->penalty));
	if (c->threads > 1 && c->block > 0)
		json_object_set_new(obj, "rounds",
				    json_pack("{s:I, s:I, s:o, s:o}", "count", (json_int_t)c->rounds,
					      "skewed", (json_int_t)c->rounds_skewed,
					      "excess_ms", json_penalty(&c->round),
					      "spread_ms", json_penalty(&c->spread)));
	if (c->looks > 0)
		json_object_set_new(obj, "sequential",
				    json_pack("{s:o, s:I, s:I, s:o}", "looks", jstr(c->looks_at),
					      "planned", (json_int_t)c->planned,
					      "launched", (json_int_t)c->n,
					      "stopped", jstr(c->stopped)));
	json_object_set_new(obj, "ratio", json_num(c->ratio));
	json_object_set_new(obj, "relative", json_num(c->relative));
	json_object_set_new(obj, "unloaded_ms", json_num(c->unloaded_ms > 0 ? c->unloaded_ms : NAN));
	json_object_set_new(obj, "floor_ms", json_num(stop_floor(c->unloaded_ms > 0 ? c->unloaded_ms : NAN)));
	json_object_set_new(obj, "verdict", json_string(stats_verdict_name(c->verdict)));
	json_object_set_new(obj, "reason", jstr(c->reason));
	json_object_set_new(passes, "first", json_pass_time(&c->passes[PASS_FIRST]));
	json_object_set_new(passes, "repeat", json_pass_time(&c->passes[PASS_REPEAT]));
	json_object_set_new(obj, "passes", passes);
	json_object_set_new(obj, "failures", json_failures(c));
	if (c->n_hangs > 0)
		json_object_set_new(obj, "hang", json_hang(c));
	return obj;
}

static json_t *json_scaling(const struct case_result *cr)
{
	json_t *list = json_array();
	size_t i;

	for (i = 0; i < cr->n_scaling; i++) {
		const struct scaling_row *row = &cr->scaling[i];

		json_array_append_new(list, json_pack("{s:o, s:I, s:o, s:o}",
						      "class", jstr(row->class_name),
						      "threads", (json_int_t)row->threads,
						      "first", json_num(row->first),
						      "repeat", json_num(row->repeat)));
	}
	return list;
}

static json_t *json_slopes(const struct case_result *cr)
{
	json_t *list = json_array();
	size_t i;

	for (i = 0; i < cr->n_slopes; i++) {
		const struct size_slope *s = &cr->slopes[i];

		json_array_append_new(list, json_pack(
			"{s:o, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:s, s:o}",
			"class", jstr(s->class_name), "threads", (json_int_t)s->threads,
			"sizes", (json_int_t)s->n_sizes,
			"min_pad_bytes", (json_int_t)s->min_pad,
			"max_pad_bytes", (json_int_t)s->max_pad,
			"ms_per_mib", json_num(s->ms_per_mib), "low", json_num(s->ci_low),
			"high", json_num(s->ci_high), "verdict", stats_verdict_name(s->verdict),
			"reason", jstr(s->reason)));
	}
	return list;
}

static json_t *json_case(const struct case_result *cr)
{
	const struct config *h = cr->headline;
	json_t *obj = json_object();
	json_t *configs = json_array();
	size_t i;

	json_object_set_new(obj, "name", jstr(cr->name));
	json_object_set_new(obj, "kind", jstr(cr->kind));
	json_object_set_new(obj, "verdict", json_string(stats_verdict_name(h->verdict)));
	json_object_set_new(obj, "reason", jstr(h->reason));
	json_object_set_new(obj, "penalty_ms", json_penalty(&h->penalty));
	json_object_set_new(obj, "first_median_ms", json_num(h->pass[PASS_FIRST].median_ms));
	json_object_set_new(obj, "repeat_median_ms", json_num(h->pass[PASS_REPEAT].median_ms));
	json_object_set_new(obj, "ratio", json_num(h->ratio));
	json_object_set_new(obj, "relative", json_num(h->relative));
	json_object_set_new(obj, "floor_ms", json_num(stop_floor(h->unloaded_ms > 0 ? h->unloaded_ms : NAN)));
	json_object_set_new(obj, "serialisation",
			    json_string(stats_serialisation_name(cr->serialisation)));
	json_object_set_new(obj, "serialisation_reason", jstr(cr->serial_reason));
	json_object_set_new(obj, "every_launch", json_every_launch(h));
	json_object_set_new(obj, "headline",
			    json_pack("{s:I, s:o, s:I}", "threads", (json_int_t)h->threads,
				      "class", jstr(h->class_name), "pad_bytes", (json_int_t)h->pad));
	for (i = 0; i < cr->n_configs; i++)
		json_array_append_new(configs, json_config(cr->configs[i]));
	json_object_set_new(obj, "configs", configs);
	json_object_set_new(obj, "scaling", json_scaling(cr));
	json_object_set_new(obj, "size_slopes", json_slopes(cr));
	return obj;
}

static json_t *json_run(const struct run *r)
{
	json_t *root = json_object();
	json_t *cases = json_array();
	size_t i;

	json_object_set_new(root, "schema", json_string("execlag-run"));
	json_object_set_new(root, "schema_version", json_integer(1));
	json_object_set_new(root, "kit_version", json_string(EXECLAG_VERSION));
	json_object_set_new(root, "run_id", jstr(r->run_id));
	json_object_set_new(root, "conditions", json_conditions(r));
	json_object_set_new(root, "thresholds", json_thresholds());
	json_object_set_new(root, "gate", json_gate(r));
	for (i = 0; i < r->n_cases; i++)
		json_array_append_new(cases, json_case(&r->cases[i]));
	services_log_json_cases(r->services_log, cases);
	json_object_set_new(root, "cases", cases);
	json_object_set_new(root, "inferred",
			    json_pack("{s:s, s:s}",
				      "cache_key", stats_cache_key_name(r->inference.key),
				      "reason", r->inference.reason));
	json_object_set_new(root, "suite", suite_json(r->suite));
	json_object_set_new(root, "hyperfine", hf_json(r->hyperfine));
	return root;
}

int report_write_json(const struct run *r, FILE *f)
{
	json_t *root = json_run(r);
	int rc;

	if (!root)
		return -1;
	rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
	json_decref(root);
	if (rc != 0 || fputc('\n', f) == EOF)
		return -1;
	return 0;
}

/* ---- shared cell formatting ------------------------------------------------------- */

static const char *penalty_text(const struct penalty *p, char *buf, size_t len)
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

enum { COL_CASE, COL_T, COL_CLASS, COL_FIRST, COL_REPEAT, COL_PENALTY,
       COL_RELATIVE, COL_VERDICT, N_COLS };

/* The results row of one config, shared by report.md and the terminal. */
static void result_cells(const struct case_result *cr, const struct config *c,
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
	penalty_text(&c->penalty, cells[COL_PENALTY], CELL_MAX);
	num2(c->relative, cells[COL_RELATIVE], CELL_MAX);
	snprintf(cells[COL_VERDICT], CELL_MAX, "%s", stats_verdict_name(c->verdict));
}

static void header_cells(char cells[N_COLS][CELL_MAX])
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

/* ---- report.md ------------------------------------------------------------------ */

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

static void md_simulated(const struct run *r, FILE *f)
{
	if (!simulated(r))
		return;
	fprintf(f, "**Simulated run — not evidence.** Nothing was launched: every time in "
		"this report was drawn from the kit's seeded model of a first-launch checker "
		"(launcher %s), not measured on this machine or any OS. It is a test of the "
		"kit, not of an OS, and never for filing: make feedback refuses it.\n\n",
		simulated(r));
}

static void md_gate(const struct run *r, FILE *f)
{
	if (!gate_active(r))
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

/* The emulated kit's note: NULL where the kit ran natively. */
static const char *emulated(const struct run *r)
{
	const char *e = run_condition(r, "emulation");

	return e && strcmp(e, "no") != 0 ? e : NULL;
}

static void md_emulation(const struct run *r, FILE *f)
{
	if (!emulated(r))
		return;
	fprintf(f, "**Emulated:** the kit was built for %s and ran under emulation (%s). "
		"Launch timings under an emulator are the emulator's: they test the kit, and "
		"are not evidence of what the OS does to a new program.\n\n",
		or_unknown(run_condition(r, "kit_arch")), emulated(r));
}

/* The fanotify listeners (Linux): on-access scanners and endpoint agents
 * that can hold every exec and open; NULL where none or not read. */
static const char *listeners(const struct run *r)
{
	const char *l = run_condition(r, "fanotify_listeners");

	if (!l || strcmp(l, "none") == 0 || strcmp(l, "n/a") == 0 || strncmp(l, "not read", 8) == 0)
		return NULL;
	return l;
}

static void md_watchers(const struct run *r, FILE *f)
{
	const char *agents = run_condition(r, "agents");

	if (!listeners(r))
		return;
	fprintf(f, "**Watching exec and open (fanotify listeners):** %s", listeners(r));
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

static void md_thresholds(FILE *f)
{
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
	header_cells(cells);
	md_row(f, cells);
	fputs("|---|---:|---|---:|---:|---:|---:|---|\n", f);
	for (i = 0; i < r->n_cases; i++)
		for (j = 0; j < r->cases[i].n_configs; j++) {
			result_cells(&r->cases[i], r->cases[i].configs[j], cells);
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
			fprintf(f, "%s%s ms at %s", sep, penalty_text(&c->penalty, pen, sizeof pen),
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
		if (has_reference(h)) {
			char buf[96];

			fprintf(f, "  Every launch: %s — a launch in the work folder costs %s ms "
				"more than the same kind of program outside it, first or repeat "
				"(repeat median %.2f ms, outside %.2f ms): %s.\n",
				stats_verdict_name(h->ref_verdict),
				penalty_text(&h->ref_cost, buf, sizeof buf),
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
			struct svc_total tot[N_SERVICES];
			char why[256] = "";
			int p, rc;

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
			rc = hang_services(c, tot, why, sizeof why);
			if (rc == 0) {
				fputs("  - services' CPU from half the bound to the kill:", f);
				for (k = 0; k < N_SERVICES; k++) {
					if (tot[k].unknown)
						fprintf(f, "%s %s unknown", k ? "," : "", service_names[k]);
					else
						fprintf(f, "%s %s %.2f s", k ? "," : "", service_names[k], tot[k].cpu_s);
				}
				fputs("\n", f);
			} else {
				fprintf(f, "  - services' CPU: %s\n",
					rc == 1 ? "not sampled" : why);
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

static void md_how_to_read(FILE *f)
{
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

/* The plain lines first (advice.c, the same words make repro ends with),
 * read from run.json as it is written (the same rounding), so that
 * advise --brief on the finished run says exactly this. */
static void md_brief(const struct run *r, FILE *f)
{
	json_t *root = json_run(r);

	if (root && advice_brief(f, root, "- ") > 0)
		fputc('\n', f);
	json_decref(root);
}

int report_write_markdown(const struct run *r, FILE *f)
{
	fprintf(f, "# execlag report — %s%s\n\n", r->run_id, simulated(r) ? " (simulated)" : "");
	md_brief(r, f);
	md_simulated(r, f);
	fprintf(f, "execlag %s: launch time of freshly made files on their first "
		"launch against their second launch, %s on the machine "
		"described under Conditions (at the end).\n\n", EXECLAG_VERSION,
		simulated(r) ? "simulated" : "measured");
	/* Verdicts and numbers first: the conditions and the rules that
	 * produced them follow, for the reader who wants to check. */
	md_gate(r, f);
	md_emulation(r, f);
	md_watchers(r, f);
	md_verdicts(r, f);
	md_hangs(r, f);
	md_started(r, f);
	md_results(r, f);
	plot_markdown(r, f);
	md_scaling(r, f);
	fprintf(f, "## Inferred cache key\n\n**%s** — %s.\n\n",
		stats_cache_key_name(r->inference.key), r->inference.reason);
	md_failures(r, f);
	services_log_markdown(r->services_log, r, f);
	suite_markdown(r->suite, f);
	hf_markdown(r->hyperfine, f);
	md_how_to_read(f);
	md_thresholds(f);
	md_conditions(r, f);
	return ferror(f) ? -1 : 0;
}

/* ---- terminal table ----------------------------------------------------------------- */

static void print_row(FILE *f, char cells[N_COLS][CELL_MAX], const int *width)
{
	int i;

	for (i = 0; i < N_COLS; i++) {
		if (i == N_COLS - 1)
			fprintf(f, "%s\n", cells[i]);
		else
			fprintf(f, "%-*s  ", width[i], cells[i]);
	}
}

static void widen(int *width, char cells[N_COLS][CELL_MAX])
{
	int i;

	for (i = 0; i < N_COLS; i++) {
		int len = (int)strlen(cells[i]);

		if (len > width[i])
			width[i] = len;
	}
}

static void print_case_lines(const struct run *r, FILE *f)
{
	size_t i, j;

	for (i = 0; i < r->n_cases; i++) {
		const struct case_result *cr = &r->cases[i];

		fprintf(f, "%s: %s", cr->name, stats_verdict_name(cr->headline->verdict));
		if (cr->serialisation != SERIAL_NA)
			fprintf(f, " (%s)", stats_serialisation_name(cr->serialisation));
		fprintf(f, " — %s\n", cr->headline->reason);
		if (has_reference(cr->headline) && cr->headline->ref_verdict == VERDICT_SLOWDOWN)
			fprintf(f, "%s: every launch in the work folder costs %.2f ms more than "
				"outside, first or repeat — %s\n", cr->name,
				cr->headline->ref_cost.median_ms, cr->headline->ref_reason);
		for (j = 0; j < cr->n_slopes; j++)
			fprintf(f, "%s: against size (T=%ld, class %s): %s — %s\n", cr->name,
				cr->slopes[j].threads, cr->slopes[j].class_name,
				stats_verdict_name(cr->slopes[j].verdict), cr->slopes[j].reason);
	}
	fprintf(f, "cache key: %s — %s\n", stats_cache_key_name(r->inference.key),
		r->inference.reason);
}

int report_print_table(const struct run *r, FILE *f)
{
	char cells[N_COLS][CELL_MAX];
	int width[N_COLS] = { 0 };
	size_t i, j;

	header_cells(cells);
	widen(width, cells);
	for (i = 0; i < r->n_cases; i++)
		for (j = 0; j < r->cases[i].n_configs; j++) {
			result_cells(&r->cases[i], r->cases[i].configs[j], cells);
			widen(width, cells);
		}
	header_cells(cells);
	print_row(f, cells, width);
	for (i = 0; i < r->n_cases; i++)
		for (j = 0; j < r->cases[i].n_configs; j++) {
			result_cells(&r->cases[i], r->cases[i].configs[j], cells);
			print_row(f, cells, width);
		}
	fputc('\n', f);
	if (simulated(r))
		fprintf(f, "(simulated: launcher %s; nothing was launched: a test of the kit, "
			"not evidence)\n", simulated(r));
	if (gate_active(r))
		fputs("(calibration gate active: a test of the kit, not of an OS)\n", f);
	if (emulated(r))
		fprintf(f, "(emulated: %s; the timings are the emulator's, not evidence of the OS)\n",
			emulated(r));
	if (listeners(r))
		fprintf(f, "fanotify listeners: %s\n", listeners(r));
	if (gate_active(r) && run_condition(r, "gate.failure"))
		fprintf(f, "gate failure: %s\n", run_condition(r, "gate.failure"));
	print_case_lines(r, f);
	services_log_print(r->services_log, r, f);
	suite_print(r->suite, f);
	hf_print(r->hyperfine, f);
	if (simulated(r))
		fputs("simulated run: nothing was launched; the numbers above are the model's, "
		      "not evidence of this machine or any OS\n", f);
	return ferror(f) ? -1 : 0;
}
