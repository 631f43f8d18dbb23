/* runjson.c - load and check a run.json, the one reader of it for the
 * programs that work on finished runs (compare, fbtext, runfield,
 * aggregate, advise, measure's probe), and the lookups they share (advice
 * reads the run's JSON through them).  Only what these programs read is checked; fields added by
 * newer kits are left alone (they are read where present, never required). */
#define _POSIX_C_SOURCE 200809L
#include "jsonnum.h"
#include "jsonrange.h"
#include "runjson.h"
#include "util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *label_of = "";

static char *path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = xmalloc(n);

	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The run.json that WHERE names, or exit 2 saying why there is none. */
static char *resolve(const char *where, const char *results)
{
	char *p, *dir;

	if (!where || !*where)
		die(EXIT_USAGE, "%sno run given", label_of);
	if (is_dir(where)) {
		p = path_join(where, "run.json");
		if (is_file(p))
			return p;
		die(EXIT_USAGE, "%s%s: no run.json in this folder (not a finished run)",
		    label_of, where);
	}
	if (is_file(where))
		return xstrdup(where);
	if (results && !strchr(where, '/')) {
		dir = path_join(results, where);
		p = path_join(dir, "run.json");
		free(dir);
		if (is_file(p))
			return p;
		free(p);
	}
	die(EXIT_USAGE, "%s%s: no such run (neither a run folder nor a run.json)",
	    label_of, where);
	return NULL;
}

/* Why the run.json at hand cannot be used: the first fault found. */
static char fault[768];

static int failf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fault, sizeof fault, fmt, ap);
	va_end(ap);
	return -1;
}

/* The field at fault and what is wrong with it. */
static int bad(const char *what, const char *field)
{
	return failf("%s %s", field, what);
}

static int is_num_or_null(const json_t *v)
{
	return v && (json_is_number(v) || json_is_null(v));
}

static int check_penalty(const json_t *p, const char *at)
{
	static const char *const keys[] = { "median", "ci_low", "ci_high" };
	char field[256];
	size_t i;

	if (!json_is_object(p)) {
		snprintf(field, sizeof field, "%s.penalty_ms", at);
		return bad("is missing or not an object", field);
	}
	for (i = 0; i < sizeof keys / sizeof *keys; i++)
		if (!is_num_or_null(json_object_get(p, keys[i]))) {
			snprintf(field, sizeof field, "%s.penalty_ms.%s", at, keys[i]);
			return bad("is missing or not a number", field);
		}
	return 0;
}

static int check_verdict(const json_t *obj, const char *at)
{
	const char *v = rj_str(obj, "verdict");
	char field[256];

	if (!v || (strcmp(v, "slowdown") != 0 && strcmp(v, "none") != 0 &&
		   strcmp(v, "inconclusive") != 0 && strcmp(v, "hang") != 0)) {
		snprintf(field, sizeof field, "%s.verdict", at);
		return bad("is missing or not slowdown, none, inconclusive or hang", field);
	}
	return 0;
}

static int check_config(const json_t *c, const char *at)
{
	char field[256];

	if (!json_is_object(c))
		return bad("is not an object", at);
	if (rj_long(c, "threads") < 1) {
		snprintf(field, sizeof field, "%s.threads", at);
		return bad("is missing or not a whole number >= 1", field);
	}
	if (!rj_str(c, "class")) {
		snprintf(field, sizeof field, "%s.class", at);
		return bad("is missing or not a string", field);
	}
	if (check_penalty(json_object_get(c, "penalty_ms"), at) || check_verdict(c, at))
		return -1;
	if (!is_num_or_null(json_object_get(c, "ratio"))) {
		snprintf(field, sizeof field, "%s.ratio", at);
		return bad("is missing or not a number", field);
	}
	return 0;
}

static int check_case(const json_t *k, size_t i)
{
	char at[32], field[96];
	const json_t *configs, *h;
	size_t j;

	snprintf(at, sizeof at, "cases[%zu]", i);
	if (!json_is_object(k))
		return bad("is not an object", at);
	if (!rj_str(k, "name")) {
		snprintf(field, sizeof field, "%s.name", at);
		return bad("is missing or not a string", field);
	}
	if (check_verdict(k, at) || check_penalty(json_object_get(k, "penalty_ms"), at))
		return -1;
	h = json_object_get(k, "headline");
	if (!json_is_object(h) || rj_long(h, "threads") < 1 || !rj_str(h, "class")) {
		snprintf(field, sizeof field, "%s.headline", at);
		return bad("is missing or lacks threads and class", field);
	}
	configs = json_object_get(k, "configs");
	if (!json_is_array(configs) || json_array_size(configs) == 0) {
		snprintf(field, sizeof field, "%s.configs", at);
		return bad("is missing or empty", field);
	}
	for (j = 0; j < json_array_size(configs); j++) {
		snprintf(field, sizeof field, "%s.configs[%zu]", at, j);
		if (check_config(json_array_get(configs, j), field))
			return -1;
	}
	return 0;
}

static int check_run(struct runjson *r, unsigned flags)
{
	const json_t *root = r->json, *v;
	const char *schema;
	char field[512] = "";
	size_t i;

	if (!json_is_object(root))
		return failf("not a run.json (the top level is not an object)");
	schema = rj_str(root, "schema");
	if (!schema || strcmp(schema, "execlag-run") != 0)
		return failf("not an execlag run.json (schema is not \"execlag-run\")");
	v = json_object_get(root, "schema_version");
	if (!json_is_integer(v))
		return failf("schema_version is missing or not a whole number");
	if (json_integer_value(v) != RUNJSON_SCHEMA_VERSION)
		return failf("schema_version %" JSON_INTEGER_FORMAT
			     " is not the version this kit reads (%d); use the kit that wrote it",
			     json_integer_value(v), RUNJSON_SCHEMA_VERSION);
	r->run_id = rj_str(root, "run_id");
	if (!r->run_id)
		return bad("is missing or not a string", "run_id");
	r->conditions = json_object_get(root, "conditions");
	if (!json_is_object(r->conditions))
		return bad("is missing or not an object", "conditions");
	r->cases = json_object_get(root, "cases");
	if (!json_is_array(r->cases))
		return bad(flags & RUNJSON_NO_CASES_OK ? "is missing or not an array" : "is missing or empty",
			   "cases");
	if (json_array_size(r->cases) == 0 && !(flags & RUNJSON_NO_CASES_OK))
		return bad("is missing or empty", "cases");
	for (i = 0; i < json_array_size(r->cases); i++)
		if (check_case(json_array_get(r->cases, i), i))
			return -1;
	if (json_out_of_range(root, field, sizeof field) != 0)
		return failf("%s is out of range (a number of this size is no measurement; at most %g)",
			     field, JSON_NUM_MAX);
	return 0;
}

int runjson_read(struct runjson *r, const char *path, unsigned flags, char *why, size_t len)
{
	json_error_t err;

	memset(r, 0, sizeof *r);
	fault[0] = '\0';
	r->path = xstrdup(path);
	r->json = json_load_file(path, 0, &err);
	if (!r->json && strncmp(err.text, "end of file expected", 20) == 0)
		failf("not a run.json: it holds more than one JSON value");
	else if (!r->json)
		failf("not valid JSON (line %d, column %d: %s)", err.line, err.column, err.text);
	else
		check_run(r, flags);
	if (!fault[0])
		return 0;
	if (flags & RUNJSON_SKIP) {
		snprintf(why, len, "%s", fault);
		runjson_free(r);
		return -1;
	}
	die(EXIT_USAGE, "%s%s: %s", label_of, path, fault);
	return -1;
}

void runjson_load(struct runjson *r, const char *label, const char *where,
		  const char *results)
{
	char *path, why[8];

	label_of = label ? label : "";
	path = resolve(where, results);
	runjson_read(r, path, RUNJSON_DIE, why, sizeof why);
	free(path);
}

void runjson_free(struct runjson *r)
{
	json_decref(r->json);
	free(r->path);
	memset(r, 0, sizeof *r);
}

const char *runjson_condition(const struct runjson *r, const char *key)
{
	return rj_str(r->conditions, key);
}

const char *rj_str(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

double rj_penalty(const json_t *obj, const char *which)
{
	return json_num_at(json_object_get(obj, "penalty_ms"), which);
}

long rj_long(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) > 1000000000)
		return -1;
	return (long)json_integer_value(v);
}

long rj_pad(const json_t *o)
{
	long pad = rj_long(o, "pad_bytes");

	return pad > 0 ? pad : 0;
}

const json_t *rj_config(const json_t *kase, long threads, const char *class_name, long pad)
{
	const json_t *configs = json_object_get(kase, "configs");
	size_t i;

	for (i = 0; i < json_array_size(configs); i++) {
		const json_t *c = json_array_get(configs, i);

		if (class_name && rj_long(c, "threads") == threads && rj_pad(c) == pad &&
		    rj_str(c, "class") && strcmp(rj_str(c, "class"), class_name) == 0)
			return c;
	}
	return NULL;
}

const json_t *rj_headline_config(const json_t *kase)
{
	const json_t *h = json_object_get(kase, "headline");

	return rj_config(kase, rj_long(h, "threads"), rj_str(h, "class"), rj_pad(h));
}

const json_t *rj_run_case(const json_t *run, const char *name, int or_first)
{
	const json_t *cases = json_object_get(run, "cases"), *c;
	size_t i;

	json_array_foreach(cases, i, c)
		if (rj_str(c, "name") && strcmp(rj_str(c, "name"), name) == 0)
			return c;
	return or_first ? json_array_get(cases, 0) : NULL;
}

const json_t *rj_case(const struct runjson *r, const char *name)
{
	return rj_run_case(r->json, name, 0);
}

const char *rj_num2(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f", v);
	return buf;
}

const char *rj_penalty_text(const json_t *obj, char *buf, size_t len)
{
	double m = rj_penalty(obj, "median");
	double lo = rj_penalty(obj, "ci_low"), hi = rj_penalty(obj, "ci_high");

	if (isnan(m))
		snprintf(buf, len, "-");
	else if (isnan(lo) || isnan(hi))
		snprintf(buf, len, "%.2f [no interval]", m);
	else
		snprintf(buf, len, "%.2f [%.2f, %.2f]", m, lo, hi);
	return buf;
}
