/* watch.h - what the assessment services did while each case ran: their
 * CPU time (raw/<config>.services.tsv, scripts/probe/daemons) and the assessments
 * in the unified log (raw/<config>.log.status and .log.ndjson,
 * scripts/probe/logs).  Formats: docs/formats.md.  Nothing here stops analyze: a
 * missing or unreadable file becomes a null with a reason. */
#ifndef EXECLAG_WATCH_H
#define EXECLAG_WATCH_H

#include <jansson.h>
#include <stdio.h>

struct run;
struct watch_result;

/* Read the watch files of every config of r's cases (r->cases must be
 * complete).  Never NULL. */
struct watch_result *watch_read(const char *dir, const struct run *r);

/* Add services, services_reason, assessments and assessments_reason to each
 * case object of the run.json "cases" array (same order as r->cases). */
void watch_json_cases(const struct watch_result *w, json_t *cases);

/* The report.md section, and the terminal lines. */
void watch_markdown(const struct watch_result *w, const struct run *r, FILE *f);
void watch_print(const struct watch_result *w, const struct run *r, FILE *f);

#endif
