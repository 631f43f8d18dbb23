/* report_json.c - run.json (docs/run.schema.json), the one machines read:
 * a section per model (report.h): the run and its cases (with their hangs),
 * the services and the log, the suite, the hyperfine cross-check.  jansson
 * builds the document; report_json_tree hands it to report.md's plain lines. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"
#include "report_common.h"
#include "jsonnum.h"
#include "services_log.h"
#include "stop.h"
#include "suitefile.h"
#include "thresholds.h"
#include "conditions.h"
#include "remedies.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef EXECLAG_VERSION
#define EXECLAG_VERSION "0.0.0"
#endif

/* ---- text ------------------------------------------------------------------------ */

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

/* Text jansson refuses (not UTF-8: CC comes from the environment, a
 * hyperfine case name from conditions.txt) as a whole "?"; NULL as null. */
static json_t *jtext(const char *s)
{
	json_t *j;

	if (!s)
		return json_null();
	j = json_string(s);
	return j ? j : json_string("?");
}

static double centis(double v)
{
	return round(v * 100.0) / 100.0;
}

/* ---- the run and its cases --------------------------------------------------------- */

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

	if (!report_gate_active(r))
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

/* Every launch's cost in the work folder, from the headline config; null
 * where there was no reference. */
static json_t *json_every_launch(const struct config *h)
{
	if (!report_has_reference(h))
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
	if (report_has_reference(c))
		json_object_set_new(obj, "reference",
				    json_integer((json_int_t)c->failures[PASS_REFERENCE]));
	for (i = 0; i < c->n_samples && json_array_size(list) < MAX_LISTED_FAILURES; i++)
		if (!stats_sample_ok(&c->samples[i]) && !c->samples[i].killed) /* a kill: "kills" */
			json_array_append_new(list, json_failed_sample(&c->samples[i]));
	json_object_set_new(obj, "samples", list);
	return obj;
}

/* run.json's "hang" of a configuration: its bound, the hung launches per
 * pass out of those made, each one's evidence, and the services' CPU over
 * the wait (services_log.h); absent where nothing hung. */
static json_t *json_hang(const struct config *c, const struct services_log_hang *svcs)
{
	json_t *obj = json_object(), *hung = json_object(), *made = json_object();
	json_t *list = json_array(), *svc;
	size_t i;
	int p;

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
	if (svcs->state == 0) {
		svc = json_object();
		for (i = 0; i < N_SERVICES; i++)
			json_object_set_new(svc, service_names[i],
					    svcs->cpu[i].unknown ? json_null() : json_real(centis(svcs->cpu[i].cpu_s)));
		json_object_set_new(obj, "services_cpu_s", svc);
		json_object_set_new(obj, "services_reason", json_null());
	} else {
		json_object_set_new(obj, "services_cpu_s", json_null());
		json_object_set_new(obj, "services_reason",
				    json_string(svcs->state == 1 ? (c->launcher ? "not sampled: a simulated run"
							  : "not sampled (the services are watched on macOS, "
							    "or with EXECLAG_WATCH_SERVICES=1)") : svcs->why));
	}
	return obj;
}

/* {"killed": K, "of": N} */
static json_t *json_kills(size_t killed, size_t of)
{
	return json_pack("{s:I, s:I}", "killed", (json_int_t)killed, "of", (json_int_t)of);
}

static json_t *json_config(const struct config *c, const struct services_log_hang *svcs)
{
	json_t *obj = json_object();
	json_t *passes = json_object();

	json_object_set_new(obj, "threads", json_integer(c->threads));
	json_object_set_new(obj, "class", jstr(c->class_name));
	json_object_set_new(obj, "pad_bytes", json_integer(c->pad));
	if (c->kills_kept) {
		json_t *k = json_kills(c->killed, c->killed_of);

		if (c->kill_log_read) /* what the log said of them */
			json_object_set_new(k, "log", json_pack("{s:I, s:I}", "lines",
				(json_int_t)c->kill_log_lines, "changed", (json_int_t)c->kill_log_changed));
		json_object_set_new(obj, "kills", k);
	}
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
		json_object_set_new(obj, "hang", json_hang(c, svcs));
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

/* ---- the services and the log (services_log.h) ------------------------------------ */

static json_t *json_services(const struct services_log_case *sc)
{
	json_t *obj, *deltas;
	int i;

	if (sc->svc_windows == 0)
		return json_null();
	deltas = json_array();
	for (i = 0; i < N_SERVICES; i++) {
		const struct svc_total *t = &sc->svc[i];

		json_array_append_new(deltas, json_pack("{s:s, s:o, s:I, s:I}",
			"name", service_names[i],
			"cpu_s_delta", t->unknown ? json_null() : json_real(centis(t->cpu_s)),
			"instances", (json_int_t)t->instances,
			"ended", (json_int_t)t->ended));
	}
	obj = json_pack("{s:I, s:I, s:i}", "fresh_launches", (json_int_t)sc->svc_fresh,
			"repeat_launches", (json_int_t)sc->svc_repeat, "windows", sc->svc_windows);
	json_object_set_new(obj, "deltas", deltas);
	return obj;
}

static double millis3(double v)
{
	return round(v * 1000.0) / 1000.0;
}

/* steps, checks_timed, check_median_ms, check_max_ms and checks (the
 * first SERVICES_LOG_CHECKS_LISTED timed ones) into obj. */
static void json_steps(const struct services_log_case *sc, json_t *obj)
{
	json_t *st = json_object(), *list = json_array();
	size_t i, n = sc->checks_timed, listed = 0;
	int k;

	for (k = 0; k < N_STEPS; k++)
		json_object_set_new(st, services_log_steps[k].key, json_integer(sc->steps[k]));
	json_object_set_new(obj, "steps", st);
	json_object_set_new(obj, "checks_timed", json_integer((json_int_t)n));
	json_object_set_new(obj, "check_median_ms", n ? json_real(millis3(sc->check_median_ms)) : json_null());
	json_object_set_new(obj, "check_max_ms", n ? json_real(millis3(sc->check_max_ms)) : json_null());
	for (i = 0; i < sc->n_checks && listed < SERVICES_LOG_CHECKS_LISTED; i++) {
		const struct services_log_check *c = &sc->checks[i];

		if (c->lines < 2)
			continue;
		json_array_append_new(list, json_pack("{s:s, s:I, s:s, s:f}", "path", c->path,
						      "lines", (json_int_t)c->lines, "first", c->first,
						      "ms", millis3((c->last_s - c->first_s) * 1000.0)));
		listed++;
	}
	json_object_set_new(obj, "checks", list);
}

static json_t *json_assessments(const struct services_log_case *sc)
{
	json_t *obj;

	if (sc->log_windows == 0)
		return json_null();
	obj = json_pack("{s:I, s:I, s:i, s:I, s:I, s:I}",
			"fresh_launches", (json_int_t)sc->log_fresh,
			"repeat_launches", (json_int_t)sc->log_repeat,
			"windows", sc->log_windows,
			"observed", (json_int_t)sc->performscan,
			"scan_complete", (json_int_t)sc->scan_complete,
			"process_assessment", (json_int_t)sc->process_assessment);
	json_object_set_new(obj, "amfid", json_integer(sc->amfid));
	json_object_set_new(obj, "xprotect", json_integer(sc->xprotect));
	json_object_set_new(obj, "events", json_integer(sc->events));
	json_object_set_new(obj, "unreadable", json_integer(sc->unreadable));
	json_object_set_new(obj, "cut_windows", json_integer(sc->log_cut));
	json_steps(sc, obj);
	return obj;
}

/* The reason for a null, or what a partial answer leaves out. */
static json_t *json_reason(int used, int windows, int missing, const char *why)
{
	char buf[SERVICES_LOG_WHY_MAX + 64];

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

/* services, services_reason, assessments and assessments_reason of one case. */
static void json_case_services(const struct services_log_case *sc, json_t *obj)
{
	char cut[SERVICES_LOG_WHY_MAX];
	json_t *reason;

	json_object_set_new(obj, "services", json_services(sc));
	json_object_set_new(obj, "services_reason",
			    json_reason(sc->svc_windows, sc->windows, sc->svc_missing, sc->svc_why));
	json_object_set_new(obj, "assessments", json_assessments(sc));
	reason = json_reason(sc->log_windows, sc->windows, sc->log_missing, sc->log_why);
	if (json_is_null(reason) && sc->log_cut) {
		json_decref(reason);
		snprintf(cut, sizeof cut, "the excerpt of %d window(s) reached the size "
			 "limit: the counts are lower bounds", sc->log_cut);
		reason = json_string(cut);
	}
	json_object_set_new(obj, "assessments_reason", reason);
}

/* ---- a case: its configs, scaling, slopes and services -------------------------------- */

/* [{"tool", "steps", "median_ms", "max_ms", "ok", "other", "bound", "absent"}, ...]:
 * the assessments before the launch (exe-assessed), a tool each. */
static json_t *json_assessed(const struct case_result *cr)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < cr->n_assessed; i++) {
		const struct assessed_tool *t = &cr->assessed[i];

		json_array_append_new(a, json_pack("{s:s, s:I, s:o, s:o, s:I, s:I, s:I, s:I}", "tool", t->tool,
			"steps", (json_int_t)t->steps, "median_ms", json_num(t->median_ms),
			"max_ms", json_num(t->max_ms), "ok", (json_int_t)t->ok,
			"other", (json_int_t)t->other, "bound", (json_int_t)t->bound,
			"absent", (json_int_t)t->absent));
	}
	return a;
}

static json_t *json_case(const struct case_result *cr, const struct services_log_case *sc)
{
	const struct config *h = cr->headline;
	json_t *obj = json_object();
	json_t *configs = json_array();
	size_t i, killed, of;

	json_object_set_new(obj, "name", jstr(cr->name));
	json_object_set_new(obj, "kind", jstr(cr->kind));
	if (stats_case_kills(cr, &killed, &of))
		json_object_set_new(obj, "kills", json_kills(killed, of));
	if (cr->n_assessed > 0)
		json_object_set_new(obj, "assessed_first", json_assessed(cr));
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
		json_array_append_new(configs, json_config(cr->configs[i], report_hang_services(sc, i)));
	json_object_set_new(obj, "configs", configs);
	json_object_set_new(obj, "scaling", json_scaling(cr));
	json_object_set_new(obj, "size_slopes", json_slopes(cr));
	if (sc)
		json_case_services(sc, obj);
	return obj;
}

/* ---- the suite (suitestats.h): null where it did not run -------------------------------- */

static json_t *suite_pass_json(const struct suite_pass_stats *ps)
{
	json_t *o = json_object();

	json_object_set_new(o, "wall_ms", json_num(ps->wall_ms));
	json_object_set_new(o, "cpu_ms", json_num(ps->cpu_ms));
	json_object_set_new(o, "utilisation", json_num(ps->utilisation));
	json_object_set_new(o, "programs", json_integer(ps->programs));
	json_object_set_new(o, "failures", json_integer((json_int_t)ps->failures));
	json_object_set_new(o, "median_compile_ms", json_num(ps->median_compile_ms));
	json_object_set_new(o, "median_run_ms", json_num(ps->median_run_ms));
	json_object_set_new(o, "compile_sum_ms", json_num(ps->compile_sum_ms));
	json_object_set_new(o, "run_sum_ms", json_num(ps->run_sum_ms));
	return o;
}

static json_t *suite_config_json(const struct suite_config *c)
{
	json_t *o = json_object(), *passes = json_object(), *pen = json_object();
	int p;

	json_object_set_new(o, "jobs", json_integer(c->jobs));
	json_object_set_new(o, "programs", json_integer(c->m));
	json_object_set_new(o, "cores", json_integer(c->cores));
	for (p = 0; p < SP_COUNT; p++)
		json_object_set_new(passes, suite_pass_names[p], suite_pass_json(&c->pass[p]));
	json_object_set_new(o, "passes", passes);
	json_object_set_new(o, "first_launch_cost_ms", json_num(c->cost_ms));
	json_object_set_new(o, "share_of_fresh", json_num(c->share));
	json_object_set_new(o, "pairs", json_integer((json_int_t)c->pairs));
	json_object_set_new(pen, "median", json_num(c->launch.median_ms));
	json_object_set_new(pen, "ci_low", json_num(c->launch.ci_low_ms));
	json_object_set_new(pen, "ci_high", json_num(c->launch.ci_high_ms));
	json_object_set_new(pen, "coverage", json_num(c->launch.coverage));
	json_object_set_new(o, "launch_penalty_ms", pen);
	json_object_set_new(o, "concurrency", json_num(c->concurrency));
	json_object_set_new(o, "verdict", json_string(stats_verdict_name(c->verdict)));
	json_object_set_new(o, "reason", json_string(c->reason));
	json_object_set_new(o, "projection_min", json_num(c->projection_min));
	if (c->looks > 0)
		json_object_set_new(o, "sequential",
				    json_pack("{s:s?, s:I, s:I, s:s?}", "looks", c->looks_at,
					      "planned", (json_int_t)c->planned,
					      "launched", (json_int_t)c->m, "stopped", c->stopped));
	return o;
}

static const char formula_text[] =
	"minutes = N * p / s_J / 60000 = N * (A_J - R_J) / M / 60000, where A_J and R_J are "
	"the wall times (ms) of the first-runs-alone and re-run passes at J jobs, M the "
	"programs per pass, p = (A_1 - R_1) / M the per-launch penalty at J = 1 and "
	"s_J = M * p / (A_J - R_J) the number of first-launch checks overlapped at J jobs; "
	"only where the first-launch cost is measurable";

static json_t *json_suite(const struct suite_result *s)
{
	json_t *o, *runs;
	size_t i;

	if (!s)
		return json_null();
	o = json_object();
	runs = json_array();
	json_object_set_new(o, "programs", json_integer(s->configs[0].m));
	json_object_set_new(o, "cc", jtext(s->configs[0].cc));
	json_object_set_new(o, "project_programs", json_integer(SUITE_PROJECT_PROGRAMS));
	json_object_set_new(o, "penalty_per_launch_ms", json_num(s->penalty_ms));
	json_object_set_new(o, "formula", json_string(formula_text));
	for (i = 0; i < s->n_configs; i++)
		json_array_append_new(runs, suite_config_json(&s->configs[i]));
	json_object_set_new(o, "runs", runs);
	return o;
}

/* ---- the hyperfine cross-check (hfcompare.h): null where not attempted ------------------ */

static json_t *jbool3(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

static json_t *hf_case_json(const struct hf_case *c)
{
	json_t *o = json_object(), *hn;

	json_object_set_new(o, "case", jtext(c->name));
	json_object_set_new(o, "first_median_ms", json_num(c->hf[HF_FIRST]));
	json_object_set_new(o, "repeat_median_ms", json_num(c->hf[HF_REPEAT]));
	json_object_set_new(o, "penalty_ms", json_num(c->hf[HF_PENALTY]));
	json_object_set_new(o, "first_runs", c->runs[0] >= 0 ? json_integer(c->runs[0]) : json_null());
	json_object_set_new(o, "repeat_runs", c->runs[1] >= 0 ? json_integer(c->runs[1]) : json_null());
	if (c->have_harness) {
		hn = json_object();
		json_object_set_new(hn, "threads", json_integer(c->harness_threads));
		json_object_set_new(hn, "class", jtext(c->harness_class));
		json_object_set_new(hn, "first_median_ms", json_num(c->harness[HF_FIRST]));
		json_object_set_new(hn, "repeat_median_ms", json_num(c->harness[HF_REPEAT]));
		json_object_set_new(hn, "penalty_ms", json_num(c->harness[HF_PENALTY]));
	} else {
		hn = json_null();
	}
	json_object_set_new(o, "harness", hn);
	json_object_set_new(o, "tolerance_ms",
			    json_pack("{s:o, s:o, s:o}", "first", json_num(c->tolerance[HF_FIRST]),
				      "repeat", json_num(c->tolerance[HF_REPEAT]), "penalty",
				      json_num(c->tolerance[HF_PENALTY])));
	json_object_set_new(o, "agree", jbool3(c->agree));
	json_object_set_new(o, "compared", jtext(c->incomparable ? "repeat median" : "all"));
	json_object_set_new(o, "penalty_seen", json_boolean(c->penalty_seen));
	json_object_set_new(o, "reason", jtext(c->reason));
	return o;
}

static json_t *json_hyperfine(const struct hf_result *h)
{
	json_t *o, *cases;
	size_t i;

	if (!h)
		return json_null();
	o = json_object();
	cases = json_array();
	json_object_set_new(o, "status", jtext(h->status));
	json_object_set_new(o, "note", jtext(h->note));
	json_object_set_new(o, "version", jtext(h->version));
	json_object_set_new(o, "runs", h->runs >= 0 ? json_integer(h->runs) : json_null());
	json_object_set_new(o, "tolerance",
			    json_pack("{s:f, s:f, s:f}", "relative", HF_TOLERANCE_REL,
				      "absolute_ms", HF_TOLERANCE_MS, "noise_coverage",
				      MEDIAN_NOISE_COVERAGE));
	json_object_set_new(o, "agree", jbool3(h->agree));
	for (i = 0; i < h->n_cases; i++)
		json_array_append_new(cases, hf_case_json(&h->cases[i]));
	json_object_set_new(o, "cases", cases);
	return o;
}

/* ---- make remedies' table (remedies.h) ------------------------------------------------ */

static const char *const mark_names[] = { "plain", "use", "avoid" };

static json_t *json_ms_interval(double v, double lo, double hi)
{
	if (isnan(v))
		return json_null();
	return json_pack("{s:o, s:o, s:o}", "median", json_num(v), "ci_low", json_num(lo),
			 "ci_high", json_num(hi));
}

static json_t *json_remedy_row(const struct remedies *t, const struct remedy_row *r)
{
	const struct kill_rate *k = &r->kills;

	return json_pack("{s:s, s:s, s:b, s:o, s:o, s:s, s:{s:I, s:I, s:o, s:o, s:o, s:b}, s:b, s:s, s:s}",
			 "placement", r->name, "what", r->what, "baseline", r == t->baseline,
			 "cost_ms", json_ms_interval(r->cost_ms, r->cost_low, r->cost_high),
			 "saves_ms", json_ms_interval(r->saves_ms, r->saves_low, r->saves_high),
			 "verdict", r->verdict,
			 "kills", "killed", (json_int_t)k->killed, "of", (json_int_t)k->of,
			 "estimate", json_num(k->estimate), "ci_low", json_num(k->low),
			 "ci_high", json_num(k->high), "one_sided", k->one_sided,
			 "unchecked", r->unchecked, "mark", mark_names[r->mark],
			 "tools", r->tools ? r->tools : "");
}

/* null for a run that is not make remedies'; written only there, so that
 * every other run.json stays as it was */
static json_t *json_remedies(const struct remedies *t)
{
	json_t *rows = json_array(), *avoid = json_array();
	size_t i;

	for (i = 0; i < t->n_rows; i++) {
		json_array_append_new(rows, json_remedy_row(t, &t->rows[i]));
		if (t->rows[i].mark == REMEDY_AVOID)
			json_array_append_new(avoid, json_string(t->rows[i].name));
	}
	return json_pack("{s:o, s:o, s:o, s:b}", "rows", rows,
			 "use", t->use ? json_string(t->use->name) : json_null(), "avoid", avoid,
			 "nothing_pays", t->nothing_pays);
}

/* ---- the document -------------------------------------------------------------------- */

json_t *report_json_tree(const struct run *r)
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
		json_array_append_new(cases, json_case(&r->cases[i], report_services_of(r, i)));
	json_object_set_new(root, "cases", cases);
	json_object_set_new(root, "inferred",
			    json_pack("{s:s, s:s}",
				      "cache_key", stats_cache_key_name(r->inference.key),
				      "reason", r->inference.reason));
	json_object_set_new(root, "suite", json_suite(r->suite));
	json_object_set_new(root, "hyperfine", json_hyperfine(r->hyperfine));
	if (r->remedies)
		json_object_set_new(root, "remedies", json_remedies(r->remedies));
	return root;
}

int report_write_json(const struct run *r, FILE *f)
{
	json_t *root = report_json_tree(r);
	int rc;

	if (!root)
		return -1;
	rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
	json_decref(root);
	if (rc != 0 || fputc('\n', f) == EOF)
		return -1;
	return 0;
}
