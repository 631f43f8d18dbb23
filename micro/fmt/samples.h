/* samples.h - the samples file (docs/formats.md, "Samples"): what launch
 * writes for one configuration, raw/<name>.samples.tsv.  This is its only
 * reader (analyze; micro/fuzz/samples.c); launch.c writes it. */
#ifndef EXECLAG_SAMPLES_H
#define EXECLAG_SAMPLES_H

#include "stats.h"

#define SAMPLES_SUFFIX ".samples.tsv"

/* Read PATH into C (all of it overwritten; c->file is PATH), its samples
 * sorted by pass, then index.  A file that is not a samples file exits 2
 * with "PATH:LINE: WHY"; a read error exits 1.  When *SIM_LAUNCHER is NULL
 * and the file names a simulated launcher ("meta launcher sim:..."), it is
 * set to a copy of the first one. */
void samples_read(const char *path, struct config *c, char **sim_launcher);

#endif
