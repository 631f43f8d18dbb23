/* remediesjson.c - run.json's remedies read back (remediesjson.h). */
#define _POSIX_C_SOURCE 200809L
#include "remediesjson.h"
#include "jsonnum.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *str_at(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* an interval object, or null: NAN for each */
static void ms_at(const json_t *o, const char *key, double *v, double *lo, double *hi)
{
	const json_t *x = json_object_get(o, key);

	*v = json_num_at(x, "median");
	*lo = json_num_at(x, "ci_low");
	*hi = json_num_at(x, "ci_high");
}

static int row_read(const json_t *o, struct remedy_row *r, char *why, size_t len, size_t i)
{
	const json_t *k = json_object_get(o, "kills");
	const char *mark = str_at(o, "mark");
	json_int_t killed = json_integer_value(json_object_get(k, "killed"));
	json_int_t of = json_integer_value(json_object_get(k, "of"));

	memset(r, 0, sizeof *r);
	r->name = str_at(o, "placement");
	r->what = str_at(o, "what");
	r->tools = str_at(o, "tools");
	r->verdict = str_at(o, "verdict");
	if (!json_is_object(o) || !r->name || !*r->name || !r->what || !r->verdict || !mark ||
	    !json_is_object(k) || !json_is_integer(json_object_get(k, "killed")) ||
	    !json_is_integer(json_object_get(k, "of")) || killed < 0 || of < killed) {
		snprintf(why, len, "remedies.rows[%zu] is not a placement's row (placement, what, "
			 "verdict, kills, mark)", i);
		return -1;
	}
	ms_at(o, "cost_ms", &r->cost_ms, &r->cost_low, &r->cost_high);
	ms_at(o, "saves_ms", &r->saves_ms, &r->saves_low, &r->saves_high);
	r->kills.killed = (size_t)killed;
	r->kills.of = (size_t)of;
	r->kills.estimate = json_num_at(k, "estimate");
	r->kills.low = json_num_at(k, "ci_low");
	r->kills.high = json_num_at(k, "ci_high");
	r->kills.one_sided = json_is_true(json_object_get(k, "one_sided"));
	r->unchecked = json_is_true(json_object_get(o, "unchecked"));
	r->mark = strcmp(mark, "use") == 0 ? REMEDY_USE
		  : strcmp(mark, "avoid") == 0 ? REMEDY_AVOID : REMEDY_PLAIN;
	return 0;
}

int remediesjson_read(const json_t *run, struct remedies *t, char *why, size_t len)
{
	const json_t *o = json_object_get(run, "remedies"), *rows;
	size_t i;

	memset(t, 0, sizeof *t);
	if (!o || json_is_null(o))
		return 0;
	rows = json_object_get(o, "rows");
	if (!json_is_object(o) || !json_is_array(rows) || json_array_size(rows) == 0) {
		snprintf(why, len, "remedies is not make remedies' table (no rows)");
		return -1;
	}
	t->rows = xmalloc(json_array_size(rows) * sizeof *t->rows);
	for (i = 0; i < json_array_size(rows); i++) {
		if (row_read(json_array_get(rows, i), &t->rows[i], why, len, i) != 0) {
			remediesjson_free(t);
			return -1;
		}
		t->n_rows++;
		if (json_is_true(json_object_get(json_array_get(rows, i), "baseline")))
			t->baseline = &t->rows[i];
		if (t->rows[i].mark == REMEDY_USE)
			t->use = &t->rows[i];
	}
	t->nothing_pays = json_is_true(json_object_get(o, "nothing_pays"));
	return 1;
}

void remediesjson_free(struct remedies *t)
{
	free(t->rows);
	memset(t, 0, sizeof *t);
}
