/* report.h - render an analysed run (run.h) as run.json, report.md and a table. */
#ifndef EXECLAG_REPORT_H
#define EXECLAG_REPORT_H

#include <stdio.h>

#include "run.h"

/* Each returns 0, or -1 when writing failed. */
int report_write_json(const struct run *r, FILE *f);
int report_write_markdown(const struct run *r, FILE *f);
int report_print_table(const struct run *r, FILE *f);

#endif
