/* plot.h - the pictures of a run, as SVG files next to report.md.
 *
 *   plot-launch.svg   first vs repeat launch times per case (log time axis)
 *   plot-scaling.svg  launches per second against threads, both passes
 *
 * Drawn from the same numbers as run.json, with the medians and throughputs
 * written on the plot as labels. */
#ifndef EXECLAG_PLOT_H
#define EXECLAG_PLOT_H

#include <stdio.h>

#include "run.h"

#define PLOT_LAUNCH_SVG "plot-launch.svg"
#define PLOT_SCALING_SVG "plot-scaling.svg"

/* Write both SVGs into dir, each atomically (temporary + rename).  On
 * failure nothing half-written is left; the cause is on stderr, exit 1.
 * A run without cases (the suite case alone) gets neither plot. */
void plot_write(const char *dir, const struct run *r);

/* The "## Plots" section of report.md, linking both files. */
void plot_markdown(const struct run *r, FILE *f);

/* Each writes one whole SVG document to f; 0, or -1 if writing failed. */
int plot_launch_svg(const struct run *r, FILE *f);
int plot_scaling_svg(const struct run *r, FILE *f);

#endif
