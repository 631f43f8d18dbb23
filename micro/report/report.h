/* report.h - the writers of an analysed run: one a format, each over the
 * models (run.h and the parts it points to: suitestats.h, hfcompare.h,
 * services_log.h), which know no format.
 *
 *   report_json.c      run.json (docs/run.schema.json): what machines read
 *   report_md.c        report.md: what people attach to a bug report (its
 *                      sections of the run's other parts: report_md_parts.c)
 *   report_terminal.c  the terminal: the results table and its lines
 *   report_svg.c       the SVG plots: a run's (plot-launch.svg,
 *                      plot-scaling.svg) and aggregate's
 *
 * A writer of a run has one signature, report_writer: the whole output of
 * that format to f, 0, or -1 when writing failed.  Each has a section per
 * model it shows (the run's cases, the hangs, the services, the suite, the
 * hyperfine cross-check).  A new result is a model plus a section in each
 * writer that shows it; a new format is one more writer. */
#ifndef EXECLAG_REPORT_H
#define EXECLAG_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "run.h"

typedef int report_writer(const struct run *r, FILE *f);

/* run.json; report_json_tree is its document, for the writers that read
 * their words from it as it is written (report.md's plain lines). */
report_writer report_write_json;
json_t *report_json_tree(const struct run *r);

/* report.md */
report_writer report_write_markdown;

/* the terminal: the table and its lines (analyze without --quiet) */
report_writer report_print_table;

/* The run's plots, each one SVG document. */
#define PLOT_LAUNCH_SVG "plot-launch.svg"
#define PLOT_SCALING_SVG "plot-scaling.svg"
report_writer report_svg_launch;  /* first vs repeat launch times per case */
report_writer report_svg_scaling; /* launches per second against threads */

/* Both plots into dir, each atomically (temporary + rename).  On failure
 * nothing half-written is left; the cause is on stderr, exit 1.  A run
 * without cases (the suite case alone) gets neither plot. */
void report_write_plots(const char *dir, const struct run *r);

/* aggregate.svg: the penalty per case and machine (aggtable.h). */
struct agg_table;
int report_svg_aggregate(const struct agg_table *t, FILE *f);

#endif
