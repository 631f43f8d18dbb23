/* suitefile.h - the suite's results files (docs/formats.md, "Suite"):
 * what micro/prog/suite writes, raw/<name>.suite.tsv, one per job count.
 * This is their only reader: it fills in the suite's model
 * (suiteresult.h) as the file gives it; suitestats.c derives the rest. */
#ifndef EXECLAG_SUITEFILE_H
#define EXECLAG_SUITEFILE_H

#include <stddef.h>

#include "suiteresult.h"

#define SUITE_SUFFIX ".suite.tsv"

/* The passes' names as the files write them, by enum suite_pass. */
extern const char *const suite_pass_names[SP_COUNT];

/* The results files' names in RAWDIR, sorted; NULL and 0 when none. */
char **suitefile_list(const char *rawdir, size_t *count);
/* 1 when RAWDIR holds a suite results file. */
int suite_present(const char *rawdir);
/* Read PATH into C (all of it overwritten; c->file is PATH): its meta and
 * pass lines, and its samples in the file's order.  Bad input: one line on
 * stderr naming file and line, exit 2; a read error exits 1. */
void suitefile_read(const char *path, struct suite_config *c);

#endif
