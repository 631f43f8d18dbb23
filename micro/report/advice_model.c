/* advice_model.c - the advice of a run, read and decided in one place
 * (advice_model.h): the setting from the conditions, the probe from
 * run.json, then the cause, the steps, a hang's fixes and how the kit was
 * started.  No output: the writers (advice.h) word what is decided here.
 * Sources: docs/evidence.md, "How the kit was started" and "What make
 * doctor says". */
#define _POSIX_C_SOURCE 200809L
#include "advice_model.h"
#include "jsonnum.h"
#include "logexcerpt.h"
#include "runjson.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the public sources, as the words cite them ------------------------------------------ */

#define CARGO "cargo PR #15908"
#define MARSPOT "marspot RFC-007"
#define OPENCLAW "openclaw#91525"
#define TMUX "tmux#4803"
#define NEXTEST "nextest-rs/nextest#63"
#define ALACRITTY "alacritty#8785"
#define OAKLEY "Oakley"
#define DOCS "the nextest and cargo docs"
#define LAPCAT "lapcatsoftware"
#define DOTNET "dotnet#53031"
#define CODEX_HANG "openai/codex#17447"
#define ENTIRE "entireio/cli#1065"
#define CODEX_COPY "openai/codex#23802"
#define TLDRAW "tldraw-offline#79"
#define LOOM "rjwalters/loom#4046"
#define GOLANG "golang/go#37885"
#define CODEX_REBOOT "openai/codex#28071"
#define CODEX_EMFILE "openai/codex#29796"
#define CODEX_STORM "openai/codex#25882"
#define CODEX_REBIRTH "openai/codex#27662"
#define CODEX_RUNAWAY "openai/codex#25243"
#define CODEX_UPDATE "openai/codex#34768"

static const char *const none_cited[] = { NULL };

static const char *const cause_sources[][ADVICE_SOURCES + 1] = {
	[ADVICE_CAUSE_HANG] = { CODEX_HANG, ENTIRE },
	[ADVICE_CAUSE_GRANTED] = { DOCS },
	[ADVICE_CAUSE_SIP_OFF] = { OAKLEY },
	[ADVICE_CAUSE_NOT_SEEN] = { CARGO },
	[ADVICE_CAUSE_UNCLEAR] = { CARGO }, /* where a cost is expected, else none */
	[ADVICE_CAUSE_SSH] = { CARGO },
	[ADVICE_CAUSE_LAUNCHD] = { MARSPOT },
	[ADVICE_CAUSE_MUX_GRANTED] = { NEXTEST },
	[ADVICE_CAUSE_MUX] = { TMUX },
	[ADVICE_CAUSE_TMUX_GRANTED] = { TMUX },
	[ADVICE_CAUSE_GRANTED_PAYS] = { ALACRITTY },
	[ADVICE_CAUSE_SIP_OFF_PAYS] = { OAKLEY },
	[ADVICE_CAUSE_VSCODE] = { CARGO },
	[ADVICE_CAUSE_TMUX] = { CARGO, TMUX },
	[ADVICE_CAUSE_NOT_GRANTED] = { CARGO },
	[ADVICE_CAUSE_GRANT_UNREAD] = { CARGO },
	[ADVICE_CAUSE_WATCHER] = { NULL },
	[ADVICE_CAUSE_CHECKER] = { NULL }, /* the state's: checker_sources */
};

/* The reports each sick state rests on (docs/evidence.md §16). */
static const char *const checker_sources[][ADVICE_SOURCES + 1] = {
	[CHECKER_EXHAUSTED] = { CODEX_EMFILE, CODEX_REBIRTH, CODEX_RUNAWAY },
	[CHECKER_STORM] = { CODEX_STORM, CODEX_REBIRTH },
	[CHECKER_HUNG] = { ENTIRE, LOOM },
	[CHECKER_BUSY] = { CODEX_RUNAWAY, CODEX_UPDATE, LOOM },
	[CHECKER_WELL] = { NULL },
	[CHECKER_UNKNOWN] = { NULL },
};

static const char *const step_sources[][ADVICE_SOURCES + 1] = {
	/* what a grant will not fix */
	[ADVICE_DO_GRANT] = { CARGO, MARSPOT, TMUX },
	[ADVICE_DO_REGRANT] = { NEXTEST },
	[ADVICE_DO_RESTART_MUX] = { TMUX, NEXTEST },
	[ADVICE_DO_KILL_TMUX] = { TMUX },
	[ADVICE_FIX_COPY] = { CODEX_COPY, TLDRAW },
	[ADVICE_FIX_LOAD] = { LOOM },
	[ADVICE_FIX_KILL] = { GOLANG, LOOM },
	[ADVICE_FIX_REBOOT] = { CODEX_REBOOT, ENTIRE },
};

static const char *const fact_sources[][ADVICE_SOURCES + 1] = {
	[ADVICE_FACT_SSH] = { CARGO, MARSPOT },
	[ADVICE_FACT_LAUNCHD] = { MARSPOT },
	[ADVICE_FACT_MAYBE_LAUNCHD] = { OPENCLAW },
	[ADVICE_FACT_TMUX] = { TMUX },
	[ADVICE_FACT_SCREEN] = { TMUX },
	[ADVICE_FACT_ZELLIJ] = { NEXTEST },
	[ADVICE_FACT_MUX_RESPONSIBLE] = { TMUX, NEXTEST },
	[ADVICE_FACT_NOT_GRANTED] = { CARGO },
	[ADVICE_FACT_GRANTED] = { DOCS },
	[ADVICE_FACT_ALACRITTY] = { ALACRITTY },
	[ADVICE_FACT_SIP_OFF] = { OAKLEY },
};

static const char *const vpn_cited[] = { LAPCAT, NULL };
static const char *const offline_cited[] = { DOTNET, NULL };
static const char *const copy_cited[] = { CODEX_COPY, NULL };

/* ---- the setting ------------------------------------------------------------------------- */

const char *advice_json_get(const void *conditions, const char *key)
{
	return json_string_value(json_object_get((const json_t *)conditions, key));
}

static const char *val(advice_get get, const void *ctx, const char *key)
{
	const char *v = get ? get(ctx, key) : NULL;

	return v && *v ? v : NULL;
}

static int eq(const char *v, const char *want)
{
	return v && strcmp(v, want) == 0;
}

/* a value that names something: not unknown, n/a, none or self */
static int known(const char *v)
{
	return v && strcmp(v, "unknown") != 0 && strcmp(v, "n/a") != 0 && strcmp(v, "none") != 0 &&
	       strcmp(v, "self") != 0;
}

static int in_list(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while (p && (p = strstr(p, word)) != NULL) {
		if ((p == list || p[-1] == ',') && (p[n] == '\0' || p[n] == ','))
			return 1;
		p += n;
	}
	return 0;
}

static enum advice_grant grant_of(const char *dt)
{
	if (!dt)
		return ADVICE_GRANT_ABSENT;
	if (strcmp(dt, "authorized") == 0)
		return ADVICE_GRANT_YES;
	if (strcmp(dt, "denied") == 0 || strcmp(dt, "not-determined") == 0 ||
	    strcmp(dt, "restricted") == 0)
		return ADVICE_GRANT_NO;
	return ADVICE_GRANT_UNREAD;
}

static void read_setting(struct advice_setting *s, advice_get get, const void *ctx)
{
	const char *terminal = val(get, ctx, "terminal_app"), *v;

	memset(s, 0, sizeof *s);
	s->os = val(get, ctx, "os");
	s->os_name = val(get, ctx, "os_name");
	s->sip = val(get, ctx, "sip");
	s->devtools = val(get, ctx, "devtools");
	s->responsible_app = val(get, ctx, "responsible_app");
	s->responsible_path = val(get, ctx, "responsible_path");
	s->xprotect_version = val(get, ctx, "xprotect_version");
	s->xprotect_scans = val(get, ctx, "xprotect_launch_scans");
	s->listeners = val(get, ctx, "fanotify_listeners");
	s->agents = val(get, ctx, "agents");
	s->started_via = val(get, ctx, "started_via");
	s->ssh = val(get, ctx, "ssh");
	s->multiplexer = val(get, ctx, "multiplexer");
	s->launchd_job = val(get, ctx, "launchd_job");
	s->network = val(get, ctx, "network");
	s->interface = val(get, ctx, "network_interface");
	s->gate_latency_ms = val(get, ctx, "gate.latency_ms");
	s->gate_workers = val(get, ctx, "gate.workers");
	s->gate_key = val(get, ctx, "gate.key");
	s->gate_wedge = val(get, ctx, "gate.wedge");
	s->gate_exhausted = val(get, ctx, "gate.exhausted");
	s->copy = val(get, ctx, "hang.copy");
	s->copy_ms = val(get, ctx, "hang.copy_ms");
	s->copy_s = val(get, ctx, "hang.copy_s");
	v = val(get, ctx, "launcher");
	s->launcher = v && strncmp(v, "sim:", 4) == 0 ? v : NULL;

	s->darwin = eq(s->os, "Darwin");
	s->gate = eq(val(get, ctx, "gate.active"), "1");
	s->over_ssh = eq(s->ssh, "yes");
	s->launchd = eq(s->launchd_job, "yes");
	s->maybe_launchd = eq(val(get, ctx, "tty"), "no") && eq(s->ssh, "no");
	s->tmux = in_list(s->multiplexer, "tmux");
	s->screen = in_list(s->multiplexer, "screen");
	s->zellij = in_list(s->multiplexer, "zellij");
	/* VS Code's integrated terminal: which process macOS holds
	 * responsible for what it starts is not documented (docs/evidence.md) */
	s->vscode = eq(terminal, "VS Code");
	s->sip_off = eq(s->sip, "disabled");
	s->scans_off = eq(s->xprotect_scans, "disabled");
	s->listeners_unread = s->listeners && strncmp(s->listeners, "not read", 8) == 0;
	v = val(get, ctx, "os_version");
	s->macos_major = v ? atoi(v) : 0;
	s->grant = grant_of(s->devtools);
	if (known(s->responsible_app))
		s->app = s->responsible_app;
	else if (known(terminal))
		s->app = terminal;
	else
		s->app = "your terminal";
	if (eq(s->responsible_app, "tmux") || eq(s->responsible_app, "zellij"))
		s->mux = s->responsible_app;
	s->net = eq(val(get, ctx, "vpn"), "yes") && s->darwin ? ADVICE_NET_VPN
		 : eq(s->network, "offline")                  ? ADVICE_NET_OFFLINE
							      : ADVICE_NET_PLAIN;
	s->net_source = s->net == ADVICE_NET_VPN       ? vpn_cited
			: s->net == ADVICE_NET_OFFLINE ? offline_cited
						       : none_cited;
}

/* ---- the checker's health ---------------------------------------------------------------- */

/* checker.* of the conditions (advise --health, checkercond.c), and the
 * relief of its state: a step about the driver only where one is named. */
static void read_checker(struct advice_checker *c, advice_get get, const void *ctx)
{
	const char *state = val(get, ctx, "checker.state");
	const struct checker_step *steps;
	size_t n, i;

	memset(c, 0, sizeof *c);
	c->source = none_cited;
	if (!state)
		return;
	c->read = 1;
	c->state = checker_state_of(state);
	c->sick = c->state == CHECKER_BUSY || c->state == CHECKER_STORM ||
		  c->state == CHECKER_EXHAUSTED || c->state == CHECKER_HUNG;
	c->record = val(get, ctx, "checker.record");
	c->why = val(get, ctx, "checker.why");
	c->cpu_pct = val(get, ctx, "checker.syspolicyd_cpu_pct");
	c->rss_kb = val(get, ctx, "checker.syspolicyd_rss_kb");
	c->etime_s = val(get, ctx, "checker.syspolicyd_etime_s");
	c->trustd_cpu_pct = val(get, ctx, "checker.trustd_cpu_pct");
	c->assess = val(get, ctx, "checker.assess");
	c->bound_s = val(get, ctx, "checker.assess_bound_s");
	c->log = val(get, ctx, "checker.log");
	c->window_s = val(get, ctx, "checker.window_s");
	c->log_lines = val(get, ctx, "checker.log_lines");
	c->rate = val(get, ctx, "checker.rate");
	c->baseline = val(get, ctx, "checker.baseline");
	c->emfile_lines = val(get, ctx, "checker.emfile_lines");
	c->driver = val(get, ctx, "checker.driver");
	c->driver_lines = val(get, ctx, "checker.driver_lines");
	c->source = checker_sources[c->state];
	steps = checker_relief(c->state, &n);
	for (i = 0; i < n && c->n_relief < ADVICE_STEPS; i++)
		if (!steps[i].names_driver || c->driver)
			c->relief[c->n_relief++] = &steps[i];
}

/* ---- how the kit was started ------------------------------------------------------------- */

static void fact(struct advice *a, enum advice_fact_kind what)
{
	if (a->n_facts < ADVICE_FACTS) {
		a->fact[a->n_facts].what = what;
		a->fact[a->n_facts++].source = fact_sources[what];
	}
}

static void facts_of(struct advice *a)
{
	const struct advice_setting *s = &a->where;
	const char *via = s->started_via;
	int plain = 1;

	if (!s->darwin) {
		fact(a, ADVICE_FACT_OFF_MAC);
		return;
	}
	if (s->over_ssh)
		fact(a, ADVICE_FACT_SSH), plain = 0;
	if (s->launchd)
		fact(a, ADVICE_FACT_LAUNCHD), plain = 0;
	else if (s->maybe_launchd)
		fact(a, ADVICE_FACT_MAYBE_LAUNCHD);
	if (s->tmux)
		fact(a, ADVICE_FACT_TMUX), plain = 0;
	if (s->screen)
		fact(a, ADVICE_FACT_SCREEN), plain = 0;
	if (s->zellij)
		fact(a, ADVICE_FACT_ZELLIJ), plain = 0;
	if (s->mux)
		fact(a, ADVICE_FACT_MUX_RESPONSIBLE);
	if (s->vscode)
		fact(a, ADVICE_FACT_VSCODE);
	if (plain && via && strcmp(via, "unknown") != 0 && strcmp(via, "no terminal") != 0)
		fact(a, ADVICE_FACT_TERMINAL);
	if (s->grant == ADVICE_GRANT_NO) {
		fact(a, ADVICE_FACT_NOT_GRANTED);
	} else if (s->grant == ADVICE_GRANT_YES) {
		fact(a, ADVICE_FACT_GRANTED);
		if (strcmp(s->app, "Alacritty") == 0)
			fact(a, ADVICE_FACT_ALACRITTY);
	} else if (s->grant == ADVICE_GRANT_UNREAD) {
		fact(a, ADVICE_FACT_GRANT_UNREAD);
	}
	if (s->sip_off)
		fact(a, ADVICE_FACT_SIP_OFF);
}

/* ---- the probe --------------------------------------------------------------------------- */

static void read_hang(struct advice_hang *h, const json_t *cfg)
{
	static const char *const passes[] = { "first", "repeat", "reference" };
	const json_t *o = json_object_get(cfg, "hang"), *l, *svc, *v;
	const char *k;
	size_t i;

	h->present = o != NULL;
	if (!o)
		return;
	h->bound_s = json_num_at(o, "bound_s");
	for (i = 0; i < 3; i++) {
		h->hung[i] = json_integer_value(json_object_get(json_object_get(o, "hung"), passes[i]));
		h->made[i] = json_integer_value(json_object_get(json_object_get(o, "made"), passes[i]));
	}
	json_array_foreach(json_object_get(o, "launches"), i, l) {
		struct advice_launch *x = &h->launch[h->n_launches];
		const char *out = json_string_value(json_object_get(l, "outcome"));

		if (h->n_launches == ADVICE_HANG_LAUNCHES)
			break;
		h->n_launches++;
		x->pass = json_string_value(json_object_get(l, "pass"));
		x->state = json_string_value(json_object_get(l, "state"));
		x->wchan = json_string_value(json_object_get(l, "wchan"));
		x->index = json_integer_value(json_object_get(l, "index"));
		x->pid = json_integer_value(json_object_get(l, "pid"));
		x->cpu_s = json_num_at(l, "cpu_s");
		x->simulated = x->state && strcmp(x->state, "sim") == 0;
		x->unkillable = out && strcmp(out, "unkillable") == 0;
	}
	svc = json_object_get(o, "services_cpu_s");
	h->sampled = json_is_object(svc);
	json_object_foreach((json_t *)svc, k, v) {
		if (h->n_services == ADVICE_SERVICES)
			break;
		h->service[h->n_services].name = k;
		h->service[h->n_services++].cpu_s = json_is_number(v) ? json_number_value(v) : NAN;
	}
	h->services_reason = json_string_value(json_object_get(o, "services_reason"));
	h->threads = json_integer_value(json_object_get(cfg, "threads"));
	h->class_name = json_string_value(json_object_get(cfg, "class"));
}

const json_t *advice_probe_of_run(const json_t *run, const char *name, struct advice_probe *p)
{
	const json_t *c = rj_run_case(run, name ? name : "exe", name == NULL);
	const json_t *pen = json_object_get(c, "penalty_ms");
	const char *v = c ? rj_str(c, "verdict") : NULL;
	const json_t *h = c ? rj_headline_config(c) : NULL;

	memset(p, 0, sizeof *p);
	p->verdict = ADVICE_UNCLEAR;
	if (v && strcmp(v, "slowdown") == 0)
		p->verdict = ADVICE_PENALTY;
	else if (v && strcmp(v, "none") == 0)
		p->verdict = ADVICE_NONE;
	else if (v && strcmp(v, "hang") == 0)
		p->verdict = ADVICE_HANG;
	read_hang(&p->hang, h);
	p->kase = c ? rj_str(c, "name") : NULL;
	p->penalty_ms = json_num_at(pen, "median");
	p->low_ms = json_num_at(pen, "ci_low");
	p->high_ms = json_num_at(pen, "ci_high");
	p->reason = c ? rj_str(c, "reason") : "the run has no such case";
	p->pairs = h ? rj_long(h, "pairs") : -1;
	p->first_ms = json_num_at(c, "first_median_ms");
	p->repeat_ms = json_num_at(c, "repeat_median_ms");
	return c;
}

/* ---- what the plain lines add: the cost's floor, the queue, the suite ------------------- */

static int same_class(const json_t *a, const json_t *b)
{
	return rj_str(a, "class") && rj_str(b, "class") &&
	       strcmp(rj_str(a, "class"), rj_str(b, "class")) == 0;
}

/* The config of the headline's class and padding with the most threads. */
static const json_t *widest_config(const json_t *c)
{
	const json_t *h = rj_headline_config(c), *cfg, *best = NULL;
	size_t i;

	if (!h)
		return NULL;
	json_array_foreach(json_object_get(c, "configs"), i, cfg)
		if (same_class(cfg, h) && rj_pad(cfg) == rj_pad(h) &&
		    (!best || rj_long(cfg, "threads") > rj_long(best, "threads")))
			best = cfg;
	return best;
}

static void read_queue(struct advice_queue *q, const json_t *k)
{
	const char *s = rj_str(k, "serialisation");
	const json_t *w = widest_config(k), *pen = json_object_get(w, "penalty_ms");

	q->threads = w ? rj_long(w, "threads") : 1;
	q->reason = rj_str(k, "serialisation_reason");
	q->penalty_ms = json_num_at(pen, "median");
	q->low_ms = json_num_at(pen, "ci_low");
	q->high_ms = json_num_at(pen, "ci_high");
	if (s && strcmp(s, "serialised") == 0)
		q->kind = ADVICE_QUEUE_SERIAL;
	else if (s && strcmp(s, "parallel") == 0)
		q->kind = ADVICE_QUEUE_PARALLEL;
	else if (q->threads > 1)
		q->kind = ADVICE_QUEUE_UNDETERMINED;
	else
		q->kind = ADVICE_QUEUE_NOT_MEASURED;
}

struct advice_projection advice_projection_of(const json_t *run, int jobs_known)
{
	const json_t *suite = json_object_get(run, "suite"), *r, *best = NULL;
	struct advice_projection p = { 0, 0, 0, NAN };
	size_t i;

	json_array_foreach(json_object_get(suite, "runs"), i, r) {
		if (isnan(json_num_at(r, "projection_min")) || (jobs_known && rj_long(r, "jobs") < 1))
			continue;
		if (!best || rj_long(r, "jobs") > rj_long(best, "jobs"))
			best = r;
	}
	p.programs = rj_long(suite, "project_programs");
	if (!best || p.programs <= 0)
		return p;
	p.present = 1;
	p.jobs = rj_long(best, "jobs");
	p.minutes = json_num_at(best, "projection_min");
	return p;
}

static void read_cost(struct advice_cost *c, const json_t *run, const json_t *k)
{
	const json_t *th = json_object_get(run, "thresholds");

	/* the case's own floor where the run gives it (a quarter of an
	 * unloaded launch where launches are long), else the run's, else the
	 * kit's 1 ms */
	c->floor_ms = json_num_at(th, "penalty_floor_ms");
	if (!isnan(json_num_at(k, "floor_ms")))
		c->floor_ms = json_num_at(k, "floor_ms");
	if (isnan(c->floor_ms))
		c->floor_ms = 1.0;
	c->confidence = json_num_at(th, "confidence");
	if (isnan(c->confidence))
		c->confidence = 0.95;
}

/* ---- the cause and the steps ------------------------------------------------------------- */

/* The cause of a penalty on a Mac: who macOS holds responsible, and its grant. */
static enum advice_cause darwin_penalty(const struct advice_setting *s)
{
	int granted = s->grant == ADVICE_GRANT_YES, refused = s->grant == ADVICE_GRANT_NO;

	if (s->over_ssh)
		return ADVICE_CAUSE_SSH;
	if (s->launchd)
		return ADVICE_CAUSE_LAUNCHD;
	if (s->mux)
		return granted ? ADVICE_CAUSE_MUX_GRANTED : ADVICE_CAUSE_MUX;
	if (granted)
		return s->tmux ? ADVICE_CAUSE_TMUX_GRANTED : ADVICE_CAUSE_GRANTED_PAYS;
	if (s->sip_off)
		return ADVICE_CAUSE_SIP_OFF_PAYS;
	if (refused && s->vscode)
		return ADVICE_CAUSE_VSCODE;
	if (refused && s->tmux)
		return ADVICE_CAUSE_TMUX;
	return refused ? ADVICE_CAUSE_NOT_GRANTED : ADVICE_CAUSE_GRANT_UNREAD;
}

static enum advice_cause cause_of(const struct advice *a, enum advice_verdict v)
{
	const struct advice_setting *s = &a->where;

	/* a sick checker first: the probe measured a checker slow for every
	 * program, which no setting of the kit's user changes */
	if (a->checker.sick)
		return ADVICE_CAUSE_CHECKER;
	if (s->launcher)
		return ADVICE_CAUSE_SIMULATED;
	if (s->gate)
		return ADVICE_CAUSE_GATE;
	switch (v) {
	case ADVICE_HANG: return ADVICE_CAUSE_HANG;
	case ADVICE_UNCLEAR: return ADVICE_CAUSE_UNCLEAR;
	case ADVICE_NONE:
		if (!s->darwin)
			return ADVICE_CAUSE_CONTROL;
		if (s->grant == ADVICE_GRANT_YES)
			return ADVICE_CAUSE_GRANTED;
		return s->sip_off ? ADVICE_CAUSE_SIP_OFF : ADVICE_CAUSE_NOT_SEEN;
	default:
		return s->darwin ? darwin_penalty(s) : ADVICE_CAUSE_WATCHER;
	}
}

static void add(struct advice_step *list, int *n, enum advice_do what, const char *app, unsigned needs)
{
	if (*n < ADVICE_STEPS) {
		list[*n].what = what;
		list[*n].app = app;
		list[*n].source = step_sources[what];
		list[(*n)++].needs = needs;
	}
}

static void step(struct advice *a, enum advice_do what, const char *app)
{
	add(a->step, &a->n_steps, what, app, 0);
}

static void steps_of(struct advice *a)
{
	const struct advice_setting *s = &a->where;

	switch (a->cause) {
	case ADVICE_CAUSE_CHECKER: step(a, ADVICE_DO_RELIEF, a->checker.driver); break;
	case ADVICE_CAUSE_SIMULATED: step(a, ADVICE_DO_NOTHING_SIM, NULL); break;
	case ADVICE_CAUSE_GATE: step(a, ADVICE_DO_NOTHING_GATE, NULL); break;
	case ADVICE_CAUSE_HANG:
		step(a, s->darwin ? ADVICE_DO_HANG_FIXES : ADVICE_DO_FIND_HOLDER, NULL);
		break;
	case ADVICE_CAUSE_UNCLEAR: step(a, ADVICE_DO_MEASURE_MORE, NULL); break;
	case ADVICE_CAUSE_CONTROL:
	case ADVICE_CAUSE_GRANTED:
	case ADVICE_CAUSE_SIP_OFF:
	case ADVICE_CAUSE_NOT_SEEN: step(a, ADVICE_DO_NOTHING, NULL); break;
	case ADVICE_CAUSE_WATCHER:
		step(a, s->listeners_unread ? ADVICE_DO_AS_ROOT : ADVICE_DO_EXCLUDE, NULL);
		break;
	case ADVICE_CAUSE_SSH:
	case ADVICE_CAUSE_LAUNCHD:
		step(a, ADVICE_DO_TERMINAL, NULL);
		step(a, ADVICE_DO_GRANT, "your terminal");
		break;
	case ADVICE_CAUSE_MUX_GRANTED: step(a, ADVICE_DO_REGRANT, s->mux); break;
	case ADVICE_CAUSE_MUX:
		step(a, ADVICE_DO_RESTART_MUX, s->mux);
		step(a, ADVICE_DO_GRANT, s->mux);
		break;
	case ADVICE_CAUSE_TMUX_GRANTED: step(a, ADVICE_DO_NEW_TMUX, s->app); break;
	case ADVICE_CAUSE_GRANTED_PAYS:
	case ADVICE_CAUSE_SIP_OFF_PAYS: step(a, ADVICE_DO_REPORT, NULL); break;
	default: /* not a Developer Tool, or its state unread */
		step(a, ADVICE_DO_GRANT, s->app);
		if (s->tmux)
			step(a, ADVICE_DO_KILL_TMUX, NULL);
		if (s->vscode)
			step(a, ADVICE_DO_TRY_TERMINAL, "Terminal");
		break;
	}
}

/* What public reports found to help with programs that never start, in
 * order: the first ones need neither an administrator nor a reboot. */
static void fixes_of(struct advice *a)
{
	const struct advice_setting *s = &a->where;

	if (s->launcher || s->gate) {
		add(a->fix, &a->n_fixes, ADVICE_FIX_NONE, NULL, 0);
	} else if (!s->darwin) {
		add(a->fix, &a->n_fixes, ADVICE_FIX_SCANNER, NULL, 0);
	} else {
		add(a->fix, &a->n_fixes, ADVICE_FIX_COPY, NULL, 0);
		add(a->fix, &a->n_fixes, ADVICE_FIX_LOAD, NULL, 0);
		add(a->fix, &a->n_fixes, ADVICE_FIX_KILL, "syspolicyd", ADVICE_NEEDS_ADMIN);
		add(a->fix, &a->n_fixes, ADVICE_FIX_REBOOT, NULL, ADVICE_NEEDS_REBOOT);
	}
}

static void decide(struct advice *a)
{
	const struct advice_setting *s = &a->where;
	struct advice_hang *h = &a->probe.hang;

	a->cause = cause_of(a, a->probe.verdict);
	a->cost_expected = s->darwin && s->grant == ADVICE_GRANT_NO && !s->sip_off;
	a->cause_source = a->cause == ADVICE_CAUSE_UNCLEAR && !a->cost_expected
				  ? none_cited
			  : a->cause == ADVICE_CAUSE_CHECKER ? a->checker.source
							     : cause_sources[a->cause];
	steps_of(a);
	if (a->probe.verdict == ADVICE_HANG && a->cause != ADVICE_CAUSE_CHECKER)
		fixes_of(a); /* a sick checker's relief is the checker's */
	h->copy = !s->copy                       ? ADVICE_COPY_NOT_TRIED
		  : strcmp(s->copy, "started") == 0 ? ADVICE_COPY_STARTED
		  : strcmp(s->copy, "hung") == 0    ? ADVICE_COPY_HUNG
						    : ADVICE_COPY_OTHER;
	h->copy_source = h->copy == ADVICE_COPY_STARTED ? copy_cited : none_cited;
}

/* ---- the whole ---------------------------------------------------------------------------- */

/* The setting and how the kit was started, beside a probe of no case. */
static void begin(struct advice *a, advice_get get, const void *ctx)
{
	memset(a, 0, sizeof *a);
	read_setting(&a->where, get, ctx);
	read_checker(&a->checker, get, ctx);
	a->probe.verdict = ADVICE_UNCLEAR;
	a->probe.pairs = -1;
	a->probe.penalty_ms = a->probe.low_ms = a->probe.high_ms = NAN;
	a->probe.first_ms = a->probe.repeat_ms = NAN;
	a->cost.floor_ms = 1.0;
	a->cost.confidence = 0.95;
	a->run_id = "<this run>";
	facts_of(a);
}

void advice_of_setting(struct advice *a, advice_get get, const void *ctx)
{
	begin(a, get, ctx);
	decide(a);
}

void advice_of_probe(struct advice *a, advice_get get, const void *ctx, const struct advice_probe *p)
{
	begin(a, get, ctx);
	a->probe = *p;
	decide(a);
}

const json_t *advice_of_run(struct advice *a, const json_t *run, const char *name)
{
	const json_t *k;
	struct advice_probe p;

	k = advice_probe_of_run(run, name, &p);
	advice_of_probe(a, advice_json_get, json_object_get(run, "conditions"), &p);
	if (rj_str(run, "run_id"))
		a->run_id = rj_str(run, "run_id");
	if (k) {
		read_cost(&a->cost, run, k);
		read_queue(&a->queue, k);
	}
	a->projection = advice_projection_of(run, 0);
	return k;
}

int advice_exit_status(enum advice_verdict v)
{
	switch (v) {
	case ADVICE_NONE: return 0;
	case ADVICE_PENALTY: return 1;
	case ADVICE_HANG: return 4;
	default: return 3;
	}
}

int advice_doctor_status(const struct advice *a)
{
	switch (a->checker.state) {
	case CHECKER_EXHAUSTED: return 5;
	case CHECKER_STORM: return 6;
	case CHECKER_HUNG: return 4;
	default: return advice_exit_status(a->probe.verdict);
	}
}

/* ---- a hang's log lines ----------------------------------------------------------------- */

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void log_line(const struct logex_event *ev, void *ctx)
{
	struct advice_log *l = ctx;
	const char *msg = ev->message;
	int named = msg && strstr(msg, l->prog) && l->named < 5;
	int asp = !named && msg && strstr(msg, "ASP: Security policy would not") && l->asp < 5;

	if (!named && !asp)
		return;
	l->named += named;
	l->asp += asp;
	l->line[l->n_lines].image = dup_or_null(ev->image);
	l->line[l->n_lines++].message = xstrdup(msg);
}

/* The lines that name the hung program, and the kernel's ASP lines
 * (entireio/cli#1065 quotes one beginning "ASP: Security policy would
 * not"), of raw/<config>.log.ndjson. */
void advice_read_log(struct advice *a, const char *dir)
{
	const struct advice_hang *h = &a->probe.hang;
	struct advice_log *l = &a->log;
	struct logex_counts n;
	char *path;

	if (a->probe.verdict != ADVICE_HANG || !h->present || h->n_launches == 0)
		return;
	l->looked = 1;
	path = xasprintf("%s/raw/%s-t%lld-%s.log.ndjson", dir, a->probe.kase, h->threads, h->class_name);
	l->prog = xasprintf("%s-t%lld-%s-%04lld", a->probe.kase, h->threads, h->class_name,
			    h->launch[0].index);
	l->read = logex_each(path, log_line, l, &n) == 0;
	l->lines = l->read ? n.lines : 0;
	free(path);
}

void advice_free(struct advice *a)
{
	int i;

	for (i = 0; i < a->log.n_lines; i++) {
		free(a->log.line[i].image);
		free(a->log.line[i].message);
	}
	free(a->log.prog);
	memset(&a->log, 0, sizeof a->log);
}
