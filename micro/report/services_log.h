/* services_log.h - what the assessment services did while each case ran: their
 * CPU time (raw/<config>.services.tsv, scripts/probe/services) and the assessments
 * in the unified log (raw/<config>.log.status and .log.ndjson,
 * scripts/probe/logs).  Formats: docs/formats.md.  Nothing here stops analyze: a
 * missing or unreadable file becomes a null with a reason. */
#ifndef EXECLAG_SERVICES_LOG_H
#define EXECLAG_SERVICES_LOG_H

#include <jansson.h>
#include <stdio.h>

struct run;
struct services_log;

/* Read the watch files of every config of r's cases (r->cases must be
 * complete).  Never NULL. */
struct services_log *services_log_read(const char *dir, const struct run *r);

/* Add services, services_reason, assessments and assessments_reason to each
 * case object of the run.json "cases" array (same order as r->cases). */
void services_log_json_cases(const struct services_log *w, json_t *cases);

/* The report.md section, and the terminal lines. */
void services_log_markdown(const struct services_log *w, const struct run *r, FILE *f);
void services_log_print(const struct services_log *w, const struct run *r, FILE *f);

#endif
