/* measure_json.c - the measure.json writer (measure_json.h).  Keys in the
 * order measure.json has always had them; a number that is not known is
 * null (jsonnum.h). */
#define _POSIX_C_SOURCE 200809L
#include "measure_json.h"
#include "conditions.h"
#include "jsonnum.h"
#include "measurein.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* {median, ci_low, ci_high}, or null when a value is missing (JSON has no NaN). */
static json_t *interval(double m, double lo, double hi)
{
	if (isnan(m) || isnan(lo) || isnan(hi))
		return json_null();
	return json_pack("{s:f, s:f, s:f}", "median", m, "ci_low", lo, "ci_high", hi);
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static void set(json_t *o, const char *key, json_t *v)
{
	json_object_set_new(o, key, v);
}

/* L as measure.json gives it: null when none, or unknown. */
static json_t *penalty(const struct measure_penalty *l)
{
	return l->verdict != M_UNKNOWN && l->verdict != M_NONE && !isnan(l->median)
	       ? interval(l->median, l->low, l->high) : json_null();
}

/* The head: the schema, the command, how it ended, W and its CPU. */
static void command_json(json_t *root, const struct measure_command *c)
{
	json_t *cmd = json_array();
	int k;

	for (k = 0; k < c->argc; k++)
		json_array_append_new(cmd, json_string(c->argv[k]));
	set(root, "schema", json_string("execlag-measure"));
	set(root, "schema_version", json_integer(MEASURE_SCHEMA_VERSION));
	set(root, "kit_version", json_string(EXECLAG_VERSION));
	set(root, "measure_id", json_string(c->id ? c->id : ""));
	set(root, "command", cmd);
	set(root, "command_line", json_string(c->line));
	set(root, "dir", str_or_null(c->dir));
	set(root, "exit", json_pack("{s:i, s:o, s:o, s:o}", "status", c->status,
		"signal", c->signal ? json_integer(c->signal) : json_null(),
		"not_run", c->not_run ? json_string(c->not_run_why) : json_null(),
		"interrupted", c->interrupted[0] ? json_string(c->interrupted) : json_null()));
	set(root, "wall_s", json_real(c->wall_s));
	set(root, "cpu_s", json_pack("{s:f, s:f}", "user", c->user_s, "system", c->sys_s));
}

static json_t *strings(char *const *v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

/* A field of fresh, the source's own counts: its key and value, a whole
 * number, a boolean, a number (null when unknown) or a string. */
struct field {
	const char *key;
	char kind; /* 'l' long, 'b' int, 'n' double, 's' string */
	const void *v;
};

static json_t *fields(const struct field *f, size_t n)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; i < n; i++)
		set(o, f[i].key, f[i].kind == 'l' ? json_integer(*(const long *)f[i].v) :
				 f[i].kind == 'b' ? json_boolean(*(const int *)f[i].v) :
				 f[i].kind == 'n' ? json_num(*(const double *)f[i].v) :
				 json_string(f[i].v));
	return o;
}

/* fresh: the exec listener's own counts. */
static json_t *fanotify_json(const struct measure_n *n)
{
	const struct measure_fanotify *f = &n->fan;
	const struct field head[] = {
		{ "source", 's', "fanotify" }, { "fresh_executions", 'l', &f->fresh_execs },
		{ "old_executions", 'l', &f->old_execs }, { "others_fresh_executions", 'l', &f->outside },
		{ "unplaced", 'l', &f->unplaced }, { "overflow", 'b', &n->n_lower },
		{ "process_tree", 's', f->tree },
	};
	json_t *d = fields(head, sizeof head / sizeof *head), *programs = json_array();
	size_t i;

	if (f->n_fs)
		set(d, "file_systems", strings(f->fs, f->n_fs));
	for (i = 0; i < f->n_programs; i++)
		json_array_append_new(programs, json_pack("{s:f, s:s, s:s}", "at_ms", f->programs[i].at_ms,
			"new_by", f->programs[i].new_by, "path", f->programs[i].path));
	set(d, "first_programs", programs);
	if (f->have_new_by) {
		set(d, "new_by_btime", json_integer(f->new_by_btime));
		set(d, "new_by_ctime", json_integer(f->new_by_ctime));
	}
	return d;
}

/* fresh: the unified log's own counts. */
static json_t *logcount_json(const struct measure_logcount *c)
{
	const struct field all[] = {
		{ "source", 's', "unified log" }, { "performscan", 'l', &c->performscan },
		{ "others_checks", 'l', &c->outside }, { "checks_in_folders", 'l', &c->inside },
		{ "checks_unnamed", 'l', &c->unplaced }, { "programs", 'l', &c->programs },
		{ "programs_named", 'l', &c->programs_named }, { "programs_at_least", 'b', &c->programs_capped },
		{ "scan_complete", 'l', &c->scan_complete }, { "evaluate_scan_result", 'l', &c->evaluate },
		{ "process_assessment", 'l', &c->process_assessment },
		{ "xprotect_results", 'l', &c->xprotect_results }, { "scans_logged_s", 'n', &c->scan_s },
		{ "scans_paired", 'l', &c->paired }, { "window_start", 's', c->start },
		{ "window_end", 's', c->end },
	};
	json_t *d = fields(all, sizeof all / sizeof *all);

	set(d, "others_programs", strings(c->others, c->n_others));
	return d;
}

static json_t *fresh_json(const struct measure_n *n)
{
	if (!n->have_counts)
		return json_null();
	return n->source == M_FANOTIFY ? fanotify_json(n) : logcount_json(&n->log);
}

/* probe: how it came to be, the run, its verdict and queueing.  A note
 * given with the command line, or one that says the run could not be
 * read, comes second; one that says the run has no exe case, last. */
static json_t *probe_json(const struct measure_probe *p)
{
	json_t *o = json_object();
	int note_last = p->state == M_PROBE_NO_EXE && !p->note_given;

	set(o, "how", json_string(m_how_word(p->how)));
	if (p->note && !note_last)
		set(o, "note", json_string(p->note));
	set(o, "run_id", str_or_null(p->run_id));
	if (p->state == M_PROBE_NO_RUN || p->state == M_PROBE_UNREADABLE)
		return o;
	set(o, "run", json_string(p->run));
	set(o, "launcher", json_string(p->launcher));
	set(o, "simulated", json_boolean(p->simulated));
	if (note_last) {
		set(o, "note", json_string(p->note));
		return o;
	}
	if (p->state != M_PROBE_READ)
		return o;
	set(o, "verdict", json_string(p->l.verdict != M_UNKNOWN ? m_verdict_word(p->l.verdict) : "unknown"));
	set(o, "reason", json_string(p->l.reason));
	set(o, "serialisation", json_string(m_queue_word(p->queue)));
	set(o, "serialisation_reason", json_string(p->queue_reason));
	return o;
}

/* penalty_at_size: the second probe, where one was due. */
static json_t *at_size_json(const struct measure_at_size *z)
{
	json_t *o;

	if (!z->due)
		return json_null();
	o = json_object();
	set(o, "pad_bytes", json_integer(z->pad));
	set(o, "pad_capped", json_boolean(z->pad_capped));
	set(o, "how", json_string(m_how_word(z->how)));
	if (z->note && z->note_given)
		set(o, "note", json_string(z->note));
	set(o, "run_id", str_or_null(z->run_id));
	if (z->read)
		set(o, "program_bytes", z->program_bytes > 0 ? json_integer(z->program_bytes) : json_null());
	if (z->note && !z->note_given)
		set(o, "note", json_string(z->note));
	set(o, "verdict", str_or_null(m_verdict_word(z->l.verdict)));
	set(o, "penalty_ms", penalty(&z->l));
	set(o, "reason", json_string(z->l.reason));
	return o;
}

static json_t *sizes_json(const struct measure *m)
{
	const struct measure_sizes *s = &m->sizes;
	const char *source = m_source_word(m->n.source);

	if (s->known <= 0)
		return json_null();
	return json_pack("{s:s, s:I, s:I, s:I, s:I, s:I}", "source", source ? source : "",
		"known", (json_int_t)s->known, "gone", (json_int_t)s->gone,
		"median_bytes", (json_int_t)s->median, "p90_bytes", (json_int_t)s->p90,
		"largest_bytes", (json_int_t)s->largest);
}

/* N and L: the new programs, the probe, its verdict and queueing, the sizes. */
static void seen_json(json_t *root, const struct measure *m)
{
	const struct measure_n *n = &m->n;
	const struct measure_sizes *s = &m->sizes;

	set(root, "fresh_launches", n->n >= 0 ? json_integer(n->n) : json_null());
	set(root, "fresh_launches_at_least", json_boolean(n->n_lower));
	set(root, "fresh_source", n->n >= 0 ? str_or_null(m_source_word(n->source)) : json_null());
	set(root, "fresh_reason", n->n < 0 ? json_string(n->why) : json_null());
	set(root, "fresh", fresh_json(n));
	set(root, "probe", probe_json(&m->probe));
	set(root, "penalty_verdict", str_or_null(m_verdict_word(m->probe.l.verdict)));
	set(root, "penalty_ms", penalty(&m->probe.l));
	set(root, "checks_queue", m->used.verdict != M_UNKNOWN ? str_or_null(m_queue_word(m->probe.queue))
							     : json_null());
	set(root, "fresh_range", n->n >= 0 && n->n_low >= 0 && n->n_low < n->n
		? json_pack("{s:I, s:I}", "low", (json_int_t)n->n_low, "high", (json_int_t)n->n) : json_null());
	set(root, "program_sizes", sizes_json(m));
	set(root, "program_sizes_reason", s->known > 0 ? json_null() : json_string(s->why[0] ? s->why : "not read"));
	set(root, "probe_program_bytes", s->probe_bytes > 0 ? json_integer(s->probe_bytes) : json_null());
	set(root, "penalty_at_size", at_size_json(&m->at_size));
	set(root, "penalty_used", json_string(m->used.at_size ? "at_size" : "probe"));
}

/* The answer: B, the share, and the projection without the checks. */
static void answer_json(json_t *root, const struct measure_answer *a)
{
	set(root, "checks_at_once", a->have_b && a->k ? json_integer(a->k) : json_null());
	set(root, "checker_busy_s", a->have_b ? interval(a->b, a->b_lo, a->b_hi) : json_null());
	set(root, "checker_busy_bound", a->have_b ? json_string(a->at_most ? "at_most" : "estimate") : json_null());
	set(root, "share", a->have_share ? interval(a->sh, a->sh_lo, a->sh_hi) : json_null());
	set(root, "checker_busy_range_s", a->have_b && a->range
		? json_pack("{s:f, s:f}", "low", a->b_r, "high", a->b) : json_null());
	set(root, "share_range", a->have_share && a->range
		? json_pack("{s:f, s:f}", "low", a->sh_r, "high", a->sh) : json_null());
	set(root, "share_capped", json_boolean(a->capped));
	set(root, "bottleneck", json_boolean(a->bottleneck));
	set(root, "projection", a->have_proj ? json_pack("{s:o, s:s, s:s}",
		"without_checks_s", interval(a->pj, a->pj_lo, a->pj_hi),
		"kind", "at least",
		"formula", "W - N x L / 1 (the command waited for checks at most as long as the one checker was busy)")
		: json_null());
}

/* The remedy (issue 42), where B was computed for new programs: the
 * placement the newest remedies run says to use, and B with its cost for
 * L, a projection; absent from any other measure. */
static void remedy_json(json_t *root, const struct measure *m)
{
	const struct measure_remedy *r = &m->remedy;

	if (!m->answer.have_b || m->n.n <= 0)
		return;
	set(root, "remedy", json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:s}", "kind", "projection",
		"remedies_run", str_or_null(r->run_id), "placement", str_or_null(r->placement),
		"what", str_or_null(r->what),
		"first_launch_ms", r->placement ? interval(r->cost, r->low, r->high) : json_null(),
		"checker_busy_s", r->have_b ? interval(r->b, r->b_lo, r->b_hi) : json_null(),
		"new_bytes", "no placement helps; only the exemption does"));
}

static json_t *services_json(const struct measure_services *s)
{
	json_t *arr;
	int i;

	if (!s->sampled)
		return json_null();
	arr = json_array();
	for (i = 0; i < MEASURE_SERVICES; i++)
		json_array_append_new(arr, json_pack("{s:s, s:o, s:I, s:I}", "name", s->s[i].name,
			"cpu_s", isnan(s->s[i].cpu_s) ? json_null() : json_real(s->s[i].cpu_s),
			"instances", (json_int_t)s->s[i].instances, "ended", (json_int_t)s->s[i].ended));
	return arr;
}

static json_t *gate_json(const struct measure_gate *g)
{
	json_t *o;

	if (!g->active)
		return json_null();
	o = json_pack("{s:s, s:s, s:s}", "latency_ms", g->latency_ms, "workers", g->workers, "key", g->key);
	if (!g->read) {
		set(o, "held_launches", json_null());
		set(o, "held_s", json_null());
		return o;
	}
	set(o, "decisions", json_integer(g->held.decisions));
	set(o, "held_launches", json_integer(g->held.held_launches));
	set(o, "held_launches_s", json_real(g->held.held_launches_ms / 1000.0));
	set(o, "unheld_launches", json_integer(g->held.unheld_launches));
	set(o, "held_s", json_real(g->held.held_ms / 1000.0));
	return o;
}

static json_t *conditions_json(const struct measure *m)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; i < m->n_conds; i++)
		set(o, m->conds[i].key, json_string(m->conds[i].value));
	return o;
}

json_t *measure_json(const struct measure *m, const char *summary)
{
	json_t *root = json_object();

	command_json(root, &m->cmd);
	seen_json(root, m);
	answer_json(root, &m->answer);
	remedy_json(root, m);
	set(root, "services", services_json(&m->services));
	set(root, "services_reason", m->services.sampled ? json_null() : json_string(m->services.why));
	set(root, "watchers", json_pack("{s:s, s:s}", "fanotify_listeners", measure_condition(m, "fanotify_listeners"),
					"agents", measure_condition(m, "agents")));
	set(root, "gate", gate_json(&m->gate));
	set(root, "conditions", conditions_json(m));
	set(root, "summary", json_string(summary ? summary : ""));
	return root;
}

int measure_json_write(const char *path, const struct measure *m, const char *summary)
{
	json_t *root = measure_json(m, summary);
	char *dump = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
	struct atomic_file af;
	int rc = -1;

	json_decref(root);
	if (dump && atomic_open(&af, path) == 0) {
		fputs(dump, af.fp);
		rc = atomic_commit(&af);
	}
	free(dump);
	return rc;
}
