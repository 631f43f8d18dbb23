/* runjson.h - read a run.json written by analyze (docs/run.schema.json),
 * for the programs that work on finished runs (compare, fbtext, runfield,
 * aggregate, advise, measure): the one place run.json is read and checked;
 * advice.c reads the run's JSON through its lookups. */
#ifndef EXECLAG_RUNJSON_H
#define EXECLAG_RUNJSON_H

#include <jansson.h>
#include <stdio.h>

#define RUNJSON_SCHEMA_VERSION 1

/* A loaded run.  Pointers into json stay valid while json is alive. */
struct runjson {
	json_t *json;
	char *path;        /* the run.json that was read */
	const char *run_id;
	json_t *conditions; /* object of strings */
	json_t *cases;      /* array, at least one case, each checked */
};

/* Load WHERE: a run folder holding run.json, a run.json itself, or a run
 * id under RESULTS (may be NULL).  Any problem - nothing there, not JSON,
 * another schema or schema_version, a field missing or of the wrong type -
 * is one line on stderr prefixed with LABEL ("A: ", "" ...) and exit 2. */
void runjson_load(struct runjson *r, const char *label, const char *where,
		  const char *results);

/* How runjson_read meets a run.json it cannot use (flags, or'ed): */
#define RUNJSON_DIE 0u         /* one line "PATH: why" on stderr, exit 2 */
#define RUNJSON_SKIP 1u        /* return -1 with why, for the caller to pass over */
#define RUNJSON_NO_CASES_OK 2u /* an empty cases array (a run of the suite alone) */
/* Read and check the run.json at PATH: 0, or (RUNJSON_SKIP) -1 with why
 * set and nothing left to free. */
int runjson_read(struct runjson *r, const char *path, unsigned flags, char *why, size_t len);
void runjson_free(struct runjson *r);

/* The string value of conditions[KEY], or NULL when absent. */
const char *runjson_condition(const struct runjson *r, const char *key);

/* Typed reads of fields that runjson_load has checked. */
const char *rj_str(const json_t *obj, const char *key);    /* NULL if not a string */
double rj_penalty(const json_t *obj, const char *which);   /* penalty_ms.WHICH or NAN */
long rj_long(const json_t *obj, const char *key);          /* -1 if not an integer */

/* The config of CASE whose threads and class are the headline's, or NULL. */
const json_t *rj_headline_config(const json_t *kase);
/* The config of CASE at THREADS, CLASS and padding PAD, or NULL. */
const json_t *rj_config(const json_t *kase, long threads, const char *class_name, long pad);
/* pad_bytes of a config or headline; 0 when absent (runs before SIZE). */
long rj_pad(const json_t *o);
/* The case named NAME, or NULL. */
const json_t *rj_case(const struct runjson *r, const char *name);
/* The case named NAME of a run object (a loaded run.json, or the one
 * report_json.c builds); none such: the first case when OR_FIRST, else NULL. */
const json_t *rj_run_case(const json_t *run, const char *name, int or_first);

/* "12.34", or "-" for NAN. */
const char *rj_num2(double v, char *buf, size_t len);
/* "12.34 [10.00, 15.00]", "12.34 [no interval]" or "-". */
const char *rj_penalty_text(const json_t *obj, char *buf, size_t len);

#endif
