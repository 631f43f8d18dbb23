/* checkercond.h - the checker's health as conditions lines (docs/formats.md,
 * conditions.txt's checker.* keys): the state checkerstate.c decided from
 * the record, why, and the figures it rests on, for make repro's and make
 * measure's conditions (advise --health), which the advice, compare and
 * feedback read back. */
#ifndef EXECLAG_CHECKERCOND_H
#define EXECLAG_CHECKERCOND_H

#include "checkerstate.h"

#include <stdio.h>

/* checker.KEY=VALUE lines of record H and its verdict V; a figure the
 * record does not have is left out. */
void checker_conditions(FILE *f, const struct health_record *h, const struct checker_verdict *v);

#endif
