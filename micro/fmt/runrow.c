/* runrow.c - a run.json read as one row of aggregate's table (runrow.h):
 * the machine class and conditions in a table's words, and per case the
 * penalty, its interval, the verdict and the serialisation. */
#define _POSIX_C_SOURCE 200809L
#include "runrow.h"
#include "runjson.h"
#include "launcherspec.h"
#include "util.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Control characters would break a table line; they become spaces. */
static char *clean(const char *s)
{
	char *c = xstrdup(s ? s : "?");
	size_t i;

	for (i = 0; c[i]; i++)
		if ((unsigned char)c[i] < 0x20 || c[i] == 0x7F)
			c[i] = ' ';
	return c;
}

static const char *cond(json_t *conditions, const char *key)
{
	const char *v = json_string_value(json_object_get(conditions, key));

	return v && *v ? v : NULL;
}

static int is_count(const char *s)
{
	long v;

	return s && parse_long(s, 0, 1000000, &v) == 0;
}

static char *clean_printf(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return clean(buf);
}

/* "macOS 14.4.1", "Debian GNU/Linux 12 (bookworm)": the name, with the
 * version where the name does not already carry it. */
static char *os_text(json_t *c)
{
	const char *os = cond(c, "os"), *name = cond(c, "os_name"), *ver = cond(c, "os_version");

	if (!name)
		name = os ? (strcmp(os, "Darwin") == 0 ? "macOS" : os) : "?";
	if (ver && strcmp(ver, "n/a") != 0 && !strstr(name, ver))
		return clean_printf("%s %s", name, ver);
	return clean(name);
}

static char *cores_text(json_t *c)
{
	const char *n = cond(c, "ncpu"), *p = cond(c, "cores_p"), *e = cond(c, "cores_e");

	if (is_count(p) && is_count(e))
		return clean_printf("%s (%sP+%sE)", n ? n : "?", p, e);
	return clean(n);
}

static int gate_on(json_t *c)
{
	const char *a = cond(c, "gate.active");

	return a && strcmp(a, "1") == 0;
}

/* A run of the kit's simulator (launcher sim:...): it launched nothing. */
static int simulated(json_t *c)
{
	return launcher_is_sim(cond(c, "launcher"));
}

/* "simulated: 20 ms, 1 worker, key inode": the model's settings, in the
 * gate's words, where a simulated run's gate would be. */
static char *sim_text(json_t *c)
{
	const char *l = cond(c, "launcher");
	char lat[32], w[32], key[32], ex[8];

	if (!launcher_setting(l, "latency", lat, sizeof lat))
		snprintf(lat, sizeof lat, "?");
	if (!launcher_setting(l, "workers", w, sizeof w))
		snprintf(w, sizeof w, "?");
	if (!launcher_setting(l, "key", key, sizeof key))
		snprintf(key, sizeof key, "?");
	if (!launcher_setting(l, "exempt", ex, sizeof ex))
		ex[0] = '\0';
	return clean_printf("simulated: %s ms, %s worker%s, key %s%s", lat, w,
			 strcmp(w, "1") == 0 ? "" : "s", key, strcmp(ex, "1") == 0 ? ", exempt" : "");
}

static char *gate_text(json_t *c)
{
	const char *w = cond(c, "gate.workers"), *ex = cond(c, "gate.exempt");

	if (simulated(c))
		return sim_text(c);
	if (!gate_on(c))
		return clean("off");
	return clean_printf("%s ms, %s worker%s, key %s%s",
			 cond(c, "gate.latency_ms") ? cond(c, "gate.latency_ms") : "?",
			 w ? w : "?", w && strcmp(w, "1") == 0 ? "" : "s",
			 cond(c, "gate.key") ? cond(c, "gate.key") : "?",
			 ex && strcmp(ex, "1") == 0 ? ", exempt" : "");
}

static char *network_text(json_t *c)
{
	const char *net = cond(c, "network"), *vpn = cond(c, "vpn");

	if (vpn && strcmp(vpn, "yes") == 0)
		return clean_printf("%s (VPN)", net ? net : "?");
	return clean(net);
}

/* The same contexts checks/pattern/lib.bash tells apart. */
static const char *group_of(json_t *c)
{
	const char *os = cond(c, "os"), *dev = cond(c, "devtools"), *sip = cond(c, "sip");
	const char *ex = cond(c, "gate.exempt");

	if (simulated(c))
		return "simulated";
	if (gate_on(c))
		return ex && strcmp(ex, "1") == 0 ? "Linux, gate, exempt" : "Linux, gate";
	if (os && strcmp(os, "Darwin") == 0) {
		if (dev && strcmp(dev, "authorized") == 0)
			return "macOS, Developer Tools";
		if (sip && strcmp(sip, "enabled") == 0)
			return "macOS, SIP on";
		return "macOS, other";
	}
	if (os && strcmp(os, "Linux") == 0)
		return "Linux";
	return "other";
}

/* ---- reading one run.json ---------------------------------------------------- */

/* A number or null; anything else is a reason to skip. */
static int num_or_null(json_t *obj, const char *key, double *out)
{
	json_t *v = json_object_get(obj, key);

	if (json_is_null(v)) {
		*out = NAN;
		return 0;
	}
	if (!json_is_number(v))
		return -1;
	*out = json_number_value(v);
	return 0;
}

void runrow_free(struct row *r)
{
	size_t i;

	for (i = 0; i < r->n_cells; i++) {
		free(r->cells[i].name);
		free(r->cells[i].verdict);
		free(r->cells[i].serialisation);
	}
	free(r->cells);
	free(r->run_id);
	free(r->chip);
	free(r->model);
	free(r->os);
	free(r->arch);
	free(r->cores);
	free(r->sip);
	free(r->assessments);
	free(r->devtools);
	free(r->network);
	free(r->gate);
	free(r->cache_key);
	memset(r, 0, sizeof *r);
}

/* Fill cell from cases[i]; NULL on success, else what is wrong. */
static const char *read_case(json_t *kase, struct cell *cell, char *why, size_t len,
			     size_t i)
{
	json_t *pen = json_object_get(kase, "penalty_ms");
	const char *name = json_string_value(json_object_get(kase, "name"));
	const char *verdict = json_string_value(json_object_get(kase, "verdict"));
	const char *serial = json_string_value(json_object_get(kase, "serialisation"));

	if (!json_is_object(kase))
		snprintf(why, len, "cases[%zu] is not an object", i);
	else if (!name || !*name)
		snprintf(why, len, "cases[%zu].name is missing", i);
	else if (!verdict)
		snprintf(why, len, "cases[%zu].verdict is missing", i);
	else if (!json_is_object(pen))
		snprintf(why, len, "cases[%zu].penalty_ms is not an object", i);
	else if (num_or_null(pen, "median", &cell->median) != 0 ||
		 num_or_null(pen, "ci_low", &cell->low) != 0 ||
		 num_or_null(pen, "ci_high", &cell->high) != 0)
		snprintf(why, len, "cases[%zu].penalty_ms has a value that is not a number", i);
	else {
		cell->name = clean(name);
		cell->verdict = clean(verdict);
		cell->serialisation = clean(serial ? serial : "n/a");
		return NULL;
	}
	return why;
}

/* The file read and checked by the one run.json reader (runjson.c), which
 * passes it over when it cannot be used; a run of the suite alone has no
 * cases and is a row too. */
int runrow_read(const char *path, struct row *row, char *why, size_t len)
{
	struct runjson rj;
	json_t *root, *c, *cases;
	size_t i;

	memset(row, 0, sizeof *row);
	if (runjson_read(&rj, path, RUNJSON_SKIP | RUNJSON_NO_CASES_OK, why, len) != 0)
		return -1;
	root = json_incref(rj.json);
	runjson_free(&rj);
	c = json_object_get(root, "conditions");
	cases = json_object_get(root, "cases");

	row->n_cells = json_array_size(cases);
	row->cells = xmalloc((row->n_cells + 1) * sizeof *row->cells);
	memset(row->cells, 0, (row->n_cells + 1) * sizeof *row->cells);
	for (i = 0; i < row->n_cells; i++)
		if (read_case(json_array_get(cases, i), &row->cells[i], why, len, i)) {
			row->n_cells = i; /* those read so far are freed */
			runrow_free(row);
			json_decref(root);
			return -1;
		}

	row->run_id = clean(json_string_value(json_object_get(root, "run_id")));
	row->chip = clean(cond(c, "cpu"));
	row->model = clean(cond(c, "model"));
	row->os = os_text(c);
	row->arch = clean(cond(c, "arch"));
	row->cores = cores_text(c);
	row->sip = clean(cond(c, "sip"));
	row->assessments = clean(cond(c, "assessments"));
	row->devtools = clean(cond(c, "devtools"));
	row->network = network_text(c);
	row->gate = gate_text(c);
	row->group = group_of(c);
	row->cache_key = clean(json_string_value(
		json_object_get(json_object_get(root, "inferred"), "cache_key")));
	json_decref(root);
	return 0;
}
