/* remedies_text.h - the remedies table (model/remedies.h) in words, the
 * same in every writer that shows it: analyze's terminal, report.md,
 * feedback.txt.  A table, a row a placement (the cells below), then the
 * plain lines: one a placement (its cost, what it saves against a new
 * file, its kills, who does it with the source), ending with "use here:"
 * and "avoid:". */
#ifndef EXECLAG_REMEDIES_TEXT_H
#define EXECLAG_REMEDIES_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "remedies.h"

#define REMEDY_CELL 96
enum { RCOL_PLACEMENT, RCOL_COST, RCOL_SAVES, RCOL_KILLS, RCOL_RATE, RCOL_VERDICT, RCOL_MARK,
       N_RCOLS };

/* The header's cells, and ROW's (ROW NULL: the header). */
void remedies_cells(const struct remedy_row *row, char cells[N_RCOLS][REMEDY_CELL]);
/* "K of N" with thousands' commas: "5 of 3,840" */
const char *remedies_kills_text(const struct kill_rate *k, char *buf, size_t len);

/* The table, its columns aligned (the terminal, feedback.txt). */
void remedies_print_table(const struct remedies *t, FILE *f);
/* The plain lines, PREFIX before each ("" or "- "): a line a placement,
 * then "use here: ..." and "avoid: ...". */
void remedies_print_lines(const struct remedies *t, const char *prefix, FILE *f);

#endif
