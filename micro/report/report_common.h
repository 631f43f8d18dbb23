/* report_common.h - what the writers (report.h) share: the run's conditions
 * read as facts, and the cells and words report.md and the terminal both
 * write, so that the two say a thing the same way. */
#ifndef EXECLAG_REPORT_COMMON_H
#define EXECLAG_REPORT_COMMON_H

#include <stddef.h>
#include <stdio.h>

#include "hfcompare.h"
#include "run.h"
#include "services.h"
#include "services_log.h"
#include "suitestats.h"

/* ---- a text writer: its sections, in order ---- */

/* One section of report.md or of the terminal's output: what it shows of
 * the run (nothing where it has nothing to show). */
typedef void report_section(const struct run *r, FILE *f);

/* Each of the n sections in turn; 0, or -1 when writing failed. */
int report_sections(report_section *const *sections, size_t n, const struct run *r, FILE *f);

/* ---- the run's facts (every writer) ---- */

/* The launcher of a simulated run ("sim:latency=20 ..."), else NULL: such a
 * run launched nothing, and says so wherever it is named. */
const char *report_simulated(const struct run *r);
/* 1 when the calibration gate held the run's launches. */
int report_gate_active(const struct run *r);
/* The emulated kit's note: NULL where the kit ran natively. */
const char *report_emulated(const struct run *r);
/* The fanotify listeners (Linux): on-access scanners and endpoint agents
 * that can hold every exec and open; NULL where none or not read. */
const char *report_listeners(const struct run *r);
/* launch ran a reference pass for this config (launch --reference) */
int report_has_reference(const struct config *c);
/* "killed K of N first launches" with N's thousands separated by commas
 * ("killed 5 of 3,840 first launches"), into buf; returns buf. */
const char *report_kills_text(size_t killed, size_t of, char *buf, size_t len);
/* What case cr's assessments before its launch cost (exe-assessed), a tool
 * a part: "spctl ran 12 of 12 (12 ended 0), median 372.1 ms (max 410.0
 * ms); gktool absent (12 not run)"; a status other than 0 counted, and of
 * those the steps killed at the bound ("(11 ended 0, 1 with another
 * status, 1 of them killed at the bound)"); on Linux "read whole ran 20 of
 * 20 (20 ended 0), median 0.1 ms (max 0.3 ms)".  Into buf; returns buf (""
 * where none was read). */
const char *report_assessed_text(const struct case_result *cr, char *buf, size_t len);
/* The services and log of the run's case i (services_log.h), NULL where
 * not read; of that case's config j, the services over its hang (state 1
 * where it did not hang or nothing was read). */
const struct services_log_case *report_services_of(const struct run *r, size_t i);
const struct services_log_hang *report_hang_services(const struct services_log_case *sc, size_t j);

/* ---- the results table: a row a config (report.md and the terminal) ---- */

#define CELL_MAX 96

enum { COL_CASE, COL_T, COL_CLASS, COL_FIRST, COL_REPEAT, COL_PENALTY,
       COL_RELATIVE, COL_VERDICT, N_COLS };

void report_header_cells(char cells[N_COLS][CELL_MAX]);
void report_result_cells(const struct case_result *cr, const struct config *c,
			 char cells[N_COLS][CELL_MAX]);

/* "2.10 [1.90, 2.40]", "2.10 [no interval]" or "-" */
const char *report_penalty_text(const struct penalty *p, char *buf, size_t len);

/* ---- words a model's sections share ---- */

/* hyperfine: "agree", "DISAGREE (repeats only)", "not compared", … */
const char *report_agree_word(const struct hf_case *c);

/* the suite: milliseconds as seconds ("12.34", "-"), a share as a
 * percentage ("42%", "-"), and the projection sentence for one J, without
 * a trailing period */
const char *report_seconds(double ms, char *buf, size_t len);
const char *report_percent(double frac, char *buf, size_t len);
void report_projection(const struct suite_result *s, const struct suite_config *c, FILE *f);

/* the services: "1.50 s" or "an unknown amount"; one or many */
const char *report_cpu_text(const struct svc_total *t, char *buf, size_t len);
const char *report_plural(long n, const char *one, const char *many);

#endif
