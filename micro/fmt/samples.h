/* samples.h - the samples file (docs/formats.md, "Samples"): what launch
 * writes for one configuration, raw/<name>.samples.tsv.  This is its only
 * reader (analyze; micro/fuzz/samples.c): it fills in the model of a
 * configuration (config.h) as the file gives it; launch.c writes it. */
#ifndef EXECLAG_SAMPLES_H
#define EXECLAG_SAMPLES_H

#include "config.h"

#define SAMPLES_SUFFIX ".samples.tsv"

/* The passes' words in a samples file, by enum pass: "first", "repeat",
 * "reference" (launch writes them, stats_pass_name names them). */
extern const char *const samples_pass_words[PASS_ALL];

/* Read PATH into C (all of it overwritten; c->file is PATH), its samples
 * sorted by pass, then index.  A file that is not a samples file exits 2
 * with "PATH:LINE: WHY"; a read error exits 1.  When *SIM_LAUNCHER is NULL
 * and the file names a simulated launcher ("meta launcher sim:..."), it is
 * set to a copy of the first one. */
void samples_read(const char *path, struct config *c, char **sim_launcher);

#endif
