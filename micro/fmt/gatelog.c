/* gatelog.c - the calibration gate's log, read (gatelog.h, docs/formats.md). */
#define _POSIX_C_SOURCE 200809L
#include "gatelog.h"
#include "jsonnum.h"
#include "util.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

struct reading {
	struct gate_held *h;
	long line;
	int started;  /* the start line was seen */
	char *why;
	size_t len;
};

static int one_of(const char *v, const char *const *words)
{
	for (; v && *words; words++)
		if (strcmp(v, *words) == 0)
			return 1;
	return 0;
}

/* A decision: what it was (event), what the gate did (result), how long
 * it held it.  The gate writes miss, hit, exempt, unheld, wedged and
 * refused (--exhausted: a decision, answered at once with a denial). */
static const char *count_decision(const json_t *d, struct gate_held *h)
{
	static const char *const events[] = { "exec", "library", "open", NULL };
	static const char *const results[] = { "miss", "hit", "exempt", "unheld", "wedged", "refused", NULL };
	const char *e = json_string_value(json_object_get(d, "event"));
	const char *r = json_string_value(json_object_get(d, "result"));
	double ms = json_num_at(d, "held_ms");

	if (!one_of(e, events))
		return "no event of exec, library or open";
	if (!one_of(r, results))
		return "no result of miss, hit, exempt, unheld, wedged or refused";
	if (isnan(ms) || ms < 0)
		return "no held_ms";
	if (strcmp(r, "unheld") == 0)
		h->unheld_launches++;
	else if (strcmp(r, "wedged") != 0)
		h->decisions++;
	if (strcmp(r, "miss") == 0 && strcmp(e, "exec") == 0) {
		h->held_launches++;
		h->held_launches_ms += ms;
	}
	/* what it held: an exempt process's file passed at once */
	if (strcmp(r, "exempt") != 0)
		h->held_ms += ms;
	return NULL;
}

static int read_one(char *line, void *ctx)
{
	struct reading *g = ctx;
	json_t *o;
	const char *bad = NULL, *gate;

	g->line++;
	o = json_loads(line, 0, NULL);
	gate = json_string_value(json_object_get(o, "gate"));
	if (!json_is_object(o))
		bad = "not a JSON object";
	else if (gate && strcmp(gate, "start") == 0)
		g->started = 1;
	else if (gate && strcmp(gate, "stop") != 0)
		bad = "a gate line neither start nor stop";
	else if (!gate)
		bad = count_decision(o, g->h);
	json_decref(o);
	if (bad)
		snprintf(g->why, g->len, "line %ld: %s", g->line, bad);
	return bad != NULL;
}

int gatelog_read(const char *path, struct gate_held *h, char *why, size_t len)
{
	struct reading g = { h, 0, 0, why, len };

	memset(h, 0, sizeof *h);
	why[0] = '\0';
	if (each_line(path, read_one, &g) != 0) {
		snprintf(why, len, "%s", strerror(errno));
		return -1;
	}
	if (!why[0] && !g.started)
		snprintf(why, len, "no start line (the gate writes one as it starts)");
	if (why[0]) {
		memset(h, 0, sizeof *h);
		return -2;
	}
	return 0;
}
