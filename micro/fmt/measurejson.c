/* measurejson.c - a finished measure's measure.json, read (measurejson.h). */
#define _POSIX_C_SOURCE 200809L
#include "measurejson.h"
#include "conditions.h"
#include "jsonnum.h"
#include "measurein.h"
#include "services.h"
#include "util.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The file being read, the object whose fields are read (at: its name and
 * a dot, "" for the file's own), and the first fault found in it. */
struct reading {
	const json_t *j;
	const char *path;
	const char *at;
	char *why;
	size_t len;
};

static int fault(struct reading *r, const char *key, const char *what)
{
	snprintf(r->why, r->len, "%s: %s%s is %s", r->path, r->at, key, what);
	return -1;
}

/* The value at KEY, NULL when absent (or O is NULL). */
static const json_t *field(const json_t *o, const char *key)
{
	return json_object_get(o, key);
}

static int is_interval(const json_t *v)
{
	return json_is_object(v) && json_is_number(field(v, "median")) &&
	       json_is_number(field(v, "ci_low")) && json_is_number(field(v, "ci_high"));
}

static int is_range(const json_t *v)
{
	return json_is_object(v) && json_is_number(field(v, "low")) && json_is_number(field(v, "high"));
}

/* A word of WORDS (NULL-ended), or null where NULLABLE: its index, -1 null,
 * -2 neither. */
static int word(const json_t *v, const char *const *words, int nullable)
{
	int i;

	if (nullable && json_is_null(v))
		return -1;
	for (i = 0; json_is_string(v) && words[i]; i++)
		if (strcmp(json_string_value(v), words[i]) == 0)
			return i;
	return -2;
}

static const char *const verdicts[] = { "slowdown", "none", "inconclusive", NULL };
static const enum m_verdict verdict_of[] = { M_SLOWDOWN, M_NONE, M_INCONCLUSIVE };

/* An interval (or null) into median, low, high. */
static int read_interval(struct reading *r, const json_t *o, const char *key, double *mlh)
{
	const json_t *v = field(o, key);

	mlh[0] = mlh[1] = mlh[2] = NAN;
	if (json_is_null(v))
		return 0;
	if (!is_interval(v))
		return fault(r, key, "missing, or neither an interval nor null");
	mlh[0] = json_number_value(field(v, "median"));
	mlh[1] = json_number_value(field(v, "ci_low"));
	mlh[2] = json_number_value(field(v, "ci_high"));
	return 0;
}

/* A verdict and its interval: penalty_verdict and penalty_ms, or
 * penalty_at_size's verdict and penalty_ms. */
static int read_penalty(struct reading *r, const json_t *o, const char *verdict_key,
			struct measure_penalty *l)
{
	int w = word(field(o, verdict_key), verdicts, 1);
	double mlh[3];

	if (w == -2)
		return fault(r, verdict_key, "missing, or not slowdown, none, inconclusive or null");
	l->verdict = w < 0 ? M_UNKNOWN : verdict_of[w];
	if (read_interval(r, o, "penalty_ms", mlh) != 0)
		return -1;
	l->median = mlh[0], l->low = mlh[1], l->high = mlh[2];
	return 0;
}

/* The command: its id and line, W and how it ended. */
static int read_command(struct reading *r, struct measure_command *c)
{
	const json_t *j = r->j, *x = field(j, "exit");

	if (!json_is_string(field(j, "measure_id")))
		return fault(r, "measure_id", "missing or not a string");
	if (!json_is_string(field(j, "command_line")))
		return fault(r, "command_line", "missing or not a string");
	if (!json_is_integer(field(x, "status")))
		return fault(r, "exit.status", "missing or not a whole number");
	c->id = xstrdup(json_string_value(field(j, "measure_id")));
	c->line = xstrdup(json_string_value(field(j, "command_line")));
	c->wall_s = json_number_value(field(j, "wall_s"));
	c->status = (int)json_integer_value(field(x, "status"));
	return 0;
}

/* N, exact or a range, and whether it is a lower bound. */
static int read_n(struct reading *r, struct measure_n *n)
{
	const json_t *v = field(r->j, "fresh_launches"), *range = field(r->j, "fresh_range");
	const json_t *least = field(r->j, "fresh_launches_at_least");

	if (!json_is_null(v) && !(json_is_integer(v) && json_integer_value(v) >= 0))
		return fault(r, "fresh_launches", "missing, or neither a whole number nor null");
	if (least && !json_is_boolean(least))
		return fault(r, "fresh_launches_at_least", "not true or false");
	if (range && !json_is_null(range) && !(is_range(range) && json_is_integer(field(range, "low"))))
		return fault(r, "fresh_range", "neither a range of whole numbers nor null");
	n->n = json_is_integer(v) ? (long)json_integer_value(v) : -1;
	n->n_lower = json_is_true(least);
	n->n_low = is_range(range) ? (long)json_integer_value(field(range, "low")) : n->n;
	return 0;
}

/* L, L at the programs' size, which one B uses, and whether checks queue. */
static int read_l(struct reading *r, struct measure *m)
{
	static const char *const queues[] = { "serialised", "parallel", "undetermined", NULL };
	static const char *const used[] = { "probe", "at_size", NULL };
	const json_t *z = field(r->j, "penalty_at_size"), *ps = field(r->j, "program_sizes");
	const json_t *u = field(r->j, "penalty_used"), *q = field(r->j, "checks_queue");
	int w;

	if (read_penalty(r, r->j, "penalty_verdict", &m->probe.l) != 0)
		return -1;
	if ((w = word(q, queues, 1)) == -2 && q)
		return fault(r, "checks_queue", "not serialised, parallel, undetermined or null");
	m->probe.queue = w == 0 ? M_SERIALISED : w == 1 ? M_PARALLEL : w == 2 ? M_UNDETERMINED : M_QUEUE_UNREAD;
	if (u && word(u, used, 0) < 0)
		return fault(r, "penalty_used", "not probe or at_size");
	m->used.at_size = u && word(u, used, 0) == 1;
	if (ps && !json_is_null(ps) && !json_is_integer(field(ps, "median_bytes")))
		return fault(r, "program_sizes", "neither the sizes (median_bytes a whole number) nor null");
	m->sizes.median = (unsigned long long)json_integer_value(field(ps, "median_bytes"));
	if (!z || json_is_null(z))
		return 0;
	if (!json_is_object(z))
		return fault(r, "penalty_at_size", "neither an object nor null");
	m->at_size.due = 1;
	r->at = "penalty_at_size.";
	w = read_penalty(r, z, "verdict", &m->at_size.l);
	r->at = "";
	return w;
}

/* B, its share of W, and how: a bound, a range, capped, the bottleneck. */
static int read_answer(struct reading *r, struct measure_answer *a)
{
	static const char *const bounds[] = { "estimate", "at_most", NULL };
	const json_t *j = r->j, *br = field(j, "checker_busy_range_s"), *sr = field(j, "share_range");
	double b[3], s[3];
	int w = word(field(j, "checker_busy_bound"), bounds, 1);

	if (read_interval(r, j, "checker_busy_s", b) != 0 || read_interval(r, j, "share", s) != 0)
		return -1;
	if (w == -2)
		return fault(r, "checker_busy_bound", "missing, or not estimate, at_most or null");
	if (br && !json_is_null(br) && !is_range(br))
		return fault(r, "checker_busy_range_s", "neither a range nor null");
	if (sr && !json_is_null(sr) && !is_range(sr))
		return fault(r, "share_range", "neither a range nor null");
	if (!json_is_boolean(field(j, "share_capped")) || !json_is_boolean(field(j, "bottleneck")))
		return fault(r, "share_capped or bottleneck", "missing or not true or false");
	a->have_b = !isnan(b[0]);
	a->b = b[0], a->b_lo = b[1], a->b_hi = b[2];
	a->at_most = w == 1;
	a->range = is_range(br);
	a->b_r = json_number_value(field(br, "low"));
	a->have_share = !isnan(s[0]);
	a->sh = s[0], a->sh_lo = s[1], a->sh_hi = s[2];
	a->sh_r = is_range(sr) ? json_number_value(field(sr, "low")) : 0;
	a->capped = json_is_true(field(j, "share_capped"));
	a->bottleneck = json_is_true(field(j, "bottleneck"));
	return 0;
}

/* The services' CPU, by name. */
static int read_services(struct reading *r, struct measure_services *s)
{
	const json_t *arr = field(r->j, "services"), *v;
	size_t i;
	int k;

	for (k = 0; k < MEASURE_SERVICES; k++) {
		s->s[k].name = service_names[k];
		s->s[k].cpu_s = NAN;
	}
	if (json_is_null(arr))
		return 0;
	if (!json_is_array(arr))
		return fault(r, "services", "missing, or neither an array nor null");
	json_array_foreach(arr, i, v) {
		const json_t *cpu = field(v, "cpu_s");

		if (!json_is_string(field(v, "name")) || !(json_is_number(cpu) || json_is_null(cpu)))
			return fault(r, "services", "not a list of each service's name and cpu_s");
		k = service_index(json_string_value(field(v, "name")));
		if (k >= 0 && k < MEASURE_SERVICES && json_is_number(cpu))
			s->s[k].cpu_s = json_number_value(cpu);
	}
	s->sampled = 1;
	return 0;
}

static int read_conditions(struct reading *r, struct measure *m)
{
	const json_t *c = field(r->j, "conditions"), *v;
	const char *key;

	if (!json_is_object(c))
		return fault(r, "conditions", "missing or not an object");
	json_object_foreach((json_t *)c, key, v)
		if (json_is_string(v))
			conditions_set(&m->conds, &m->n_conds, key, json_string_value(v));
	return 0;
}

/* The file's head: an execlag measure of this schema_version, with W. */
static int read_head(struct reading *r)
{
	const json_t *v = field(r->j, "schema");

	if (!json_is_string(v) || strcmp(json_string_value(v), "execlag-measure") != 0) {
		snprintf(r->why, r->len, "%s is not an execlag measure", r->path);
		return -1;
	}
	v = field(r->j, "schema_version");
	if (!json_is_integer(v) || json_integer_value(v) != MEASURE_SCHEMA_VERSION) {
		snprintf(r->why, r->len, "%s has schema_version %s; this kit reads %d", r->path,
			 json_is_integer(v) ? "another" : "none", MEASURE_SCHEMA_VERSION);
		return -1;
	}
	if (!json_is_number(field(r->j, "wall_s"))) {
		snprintf(r->why, r->len, "%s has no wall_s", r->path);
		return -1;
	}
	return 0;
}

/* The JSON at WHERE (a folder: its measure.json), or NULL with why. */
static json_t *load(const char *where, char **path, char *why, size_t len)
{
	struct stat st;
	json_error_t err;
	json_t *j;

	*path = NULL;
	if (stat(where, &st) != 0) {
		snprintf(why, len, "no such measure '%s'", where);
		return NULL;
	}
	*path = S_ISDIR(st.st_mode) ? xasprintf("%s/measure.json", where) : xstrdup(where);
	j = json_load_file(*path, 0, &err);
	if (!j && S_ISDIR(st.st_mode) && access(*path, F_OK) != 0)
		snprintf(why, len, "'%s' holds no measure.json (a run? make compare takes two runs or two measures)",
			 where);
	else if (!j)
		snprintf(why, len, "%s is not JSON: %s (line %d)", *path, err.text, err.line);
	return j;
}

int measurejson_read(const char *where, struct measure *m, char *why, size_t len)
{
	struct reading r = { NULL, NULL, "", why, len };
	char *path;
	json_t *j = load(where, &path, why, len);
	int rc = -1;

	measure_init(m);
	r.j = j;
	r.path = path;
	if (j && read_head(&r) == 0 && read_command(&r, &m->cmd) == 0 && read_n(&r, &m->n) == 0 &&
	    read_l(&r, m) == 0 && read_answer(&r, &m->answer) == 0 &&
	    read_services(&r, &m->services) == 0 && read_conditions(&r, m) == 0)
		rc = 0;
	if (rc != 0) {
		measure_free(m);
		measure_init(m);
	}
	json_decref(j);
	free(path);
	return rc;
}
