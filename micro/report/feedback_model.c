/* feedback_model.c - what feedback.txt says, read from a run.json in one
 * place (feedback.h); no output here. */
#define _POSIX_C_SOURCE 200809L
#include "feedback.h"
#include "jsonnum.h"
#include "kinds.h"
#include "remediesjson.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *feedback_condition(const struct feedback *fb, const char *key)
{
	return json_string_value(json_object_get(fb->conditions, key));
}

static int condition_is(const struct feedback *fb, const char *key, const char *want)
{
	const char *v = feedback_condition(fb, key);

	return v && strcmp(v, want) == 0;
}

static const char *or_unknown(const char *v)
{
	return v ? v : "unknown";
}

static enum feedback_platform platform_of(const struct feedback *fb)
{
	if (condition_is(fb, "gate.active", "1"))
		return FEEDBACK_GATE;
	if (condition_is(fb, "os", "Darwin"))
		return FEEDBACK_MAC;
	if (condition_is(fb, "os", "Linux"))
		return FEEDBACK_LINUX;
	return FEEDBACK_OTHER;
}

/* "macOS 14.4.1 (23E224)" or "Debian GNU/Linux 12 (bookworm)". */
static void os_name(struct feedback *fb)
{
	const char *build = feedback_condition(fb, "os_build");
	size_t n;

	if (condition_is(fb, "os", "Darwin"))
		snprintf(fb->os, sizeof fb->os, "%s %s", or_unknown(feedback_condition(fb, "os_name")),
			 or_unknown(feedback_condition(fb, "os_version")));
	else
		snprintf(fb->os, sizeof fb->os, "%s", or_unknown(feedback_condition(fb, "os_name")));
	if (build && strcmp(build, "n/a") != 0 && strcmp(build, "unknown") != 0) {
		n = strlen(fb->os);
		snprintf(fb->os + n, sizeof fb->os - n, " (%s)", build);
	}
}

/* What a case's artifacts are, by its kind (run.json's kind; its name in a
 * run that records none), from the kinds table (kinds.h), so that a case of
 * the kit's own files reads the same under any name. */
static const char *meaning_of(const json_t *k)
{
	const char *kind = rj_str(k, "kind");
	const char *name = kind && *kind ? kind : rj_str(k, "name");
	int i = name ? kind_find(name) : -1;

	return i >= 0 ? kind_table[i].meaning : "a case of the kit";
}

/* The numbers of O (a case or a configuration), its medians given. */
static struct feedback_numbers numbers_of(const json_t *o, double first_ms, double repeat_ms)
{
	struct feedback_numbers n;

	n.first_ms = first_ms;
	n.repeat_ms = repeat_ms;
	n.ratio = json_num_at(o, "ratio");
	n.penalty.median = rj_penalty(o, "median");
	n.penalty.low = rj_penalty(o, "ci_low");
	n.penalty.high = rj_penalty(o, "ci_high");
	return n;
}

static void read_config(struct feedback_config *c, const json_t *o)
{
	c->threads = rj_long(o, "threads");
	c->pad = rj_pad(o);
	c->class_name = rj_str(o, "class");
	c->verdict = rj_str(o, "verdict");
	c->n = numbers_of(o, json_num_at(json_object_get(o, "first"), "median_ms"),
			  json_num_at(json_object_get(o, "repeat"), "median_ms"));
}

static void read_case(struct feedback_case *c, const json_t *k)
{
	const json_t *h = json_object_get(k, "headline"), *configs = json_object_get(k, "configs");
	size_t i;

	c->name = rj_str(k, "name");
	c->verdict = rj_str(k, "verdict");
	c->reason = rj_str(k, "reason");
	c->serialisation = rj_str(k, "serialisation");
	c->serialisation_reason = rj_str(k, "serialisation_reason");
	c->meaning = meaning_of(k);
	c->threads = rj_long(h, "threads");
	c->class_name = rj_str(h, "class");
	c->n = numbers_of(k, json_num_at(k, "first_median_ms"), json_num_at(k, "repeat_median_ms"));
	c->n_configs = json_array_size(configs);
	c->config = xmalloc((c->n_configs ? c->n_configs : 1) * sizeof *c->config);
	for (i = 0; i < c->n_configs; i++)
		read_config(&c->config[i], json_array_get(configs, i));
}

/* The slowdown case with the largest penalty, or NULL. */
static const struct feedback_case *worst_of(const struct feedback *fb)
{
	const struct feedback_case *best = NULL;
	size_t i;

	for (i = 0; i < fb->n_cases; i++) {
		const struct feedback_case *k = &fb->kase[i];

		if (strcmp(k->verdict, "slowdown") != 0)
			continue;
		if (!best || k->n.penalty.median > best->n.penalty.median)
			best = k;
	}
	return best;
}

/* The case the results lead with: the title's, else exe, else the first. */
static const struct feedback_case *headline_of(const struct feedback *fb)
{
	size_t i;

	if (fb->worst)
		return fb->worst;
	for (i = 0; i < fb->n_cases; i++)
		if (fb->kase[i].name && strcmp(fb->kase[i].name, "exe") == 0)
			return &fb->kase[i];
	return fb->n_cases ? &fb->kase[0] : NULL;
}

/* The fields the text words itself. */
static int worded(const char *key, const char *const *known)
{
	int i;

	for (i = 0; known[i]; i++)
		if (strcmp(known[i], key) == 0)
			return 1;
	return 0;
}

static const char *const case_keys[] = {
	"name", "kind", "verdict", "reason", "penalty_ms", "first_median_ms",
	"repeat_median_ms", "ratio", "serialisation", "serialisation_reason",
	"headline", "configs", "scaling", NULL
};

static const char *const run_keys[] = {
	"schema", "schema_version", "kit_version", "run_id", "conditions",
	"thresholds", "gate", "cases", "inferred", "remedies", NULL
};

static void field(struct feedback *fb, const char *kase, const char *key, const json_t *v, int paste)
{
	fb->field = xrealloc(fb->field, (fb->n_fields + 1) * sizeof *fb->field);
	fb->field[fb->n_fields].kase = kase;
	fb->field[fb->n_fields].key = key;
	fb->field[fb->n_fields].value = v;
	fb->field[fb->n_fields++].paste = paste;
}

/* The fields of newer kit parts: of each case, then of the run. */
static void read_fields(struct feedback *fb, const struct runjson *r)
{
	const char *key;
	json_t *v;
	size_t i;

	for (i = 0; i < json_array_size(r->cases); i++) {
		const json_t *k = json_array_get(r->cases, i);

		json_object_foreach((json_t *)k, key, v)
			if (!worded(key, case_keys))
				field(fb, rj_str(k, "name"), key, v,
				      strcmp(key, "services") == 0 || strcmp(key, "assessments") == 0 ||
					      strcmp(key, "log_events") == 0);
	}
	json_object_foreach(r->json, key, v)
		if (!worded(key, run_keys))
			field(fb, NULL, key, v, 0);
}

void feedback_of_run(struct feedback *fb, const struct runjson *r, const struct feedback_kit *kit)
{
	char why[256];
	size_t i;

	memset(fb, 0, sizeof *fb);
	fb->conditions = r->conditions;
	fb->run_id = r->run_id;
	fb->platform = platform_of(fb);
	os_name(fb);
	fb->n_cases = json_array_size(r->cases);
	fb->kase = xmalloc((fb->n_cases ? fb->n_cases : 1) * sizeof *fb->kase);
	for (i = 0; i < fb->n_cases; i++)
		read_case(&fb->kase[i], json_array_get(r->cases, i));
	fb->worst = worst_of(fb);
	fb->headline = headline_of(fb);
	fb->projection = advice_projection_of(r->json, 1);
	if (remediesjson_read(r->json, &fb->remedies, why, sizeof why) < 0)
		die(EXIT_USAGE, "%s: %s", r->path, why);
	read_fields(fb, r);
	fb->version = rj_str(r->json, "kit_version") ? rj_str(r->json, "kit_version")
						     : or_unknown(feedback_condition(fb, "kit_version"));
	fb->commit = kit->commit;
	fb->from = kit->from;
	fb->home = kit->home;
	fb->bundle = kit->bundle;
	fb->contents = kit->contents;
	fb->logs_kept = kit->logs_kept;
	fb->logs_total = kit->logs_total;
	fb->checker_state = feedback_condition(fb, "checker.state");
	if (fb->checker_state && kit->health) {
		fb->assess_line = kit->health->assess_line;
		fb->quotes = kit->health->quotes;
		fb->n_quotes = kit->health->nquotes;
	}
}

void feedback_free(struct feedback *fb)
{
	size_t i;

	for (i = 0; i < fb->n_cases; i++)
		free(fb->kase[i].config);
	free(fb->kase);
	free(fb->field);
	remediesjson_free(&fb->remedies);
	memset(fb, 0, sizeof *fb);
}
