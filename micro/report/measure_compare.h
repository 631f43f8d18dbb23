/* measure_compare.h - the writer of two measures side by side (make
 * compare A=<measure> B=<measure>, micro/prog/mcompare.c): W, N, L (and L
 * at the programs' size), checks at once, B, the share, the services' CPU,
 * the responsible app and how the command was started, the conditions
 * that differ, and how much the command's time changed.  Over two models
 * (model/measure.h) as micro/fmt/measurejson.c reads them. */
#ifndef EXECLAG_MEASURE_COMPARE_H
#define EXECLAG_MEASURE_COMPARE_H

#include <stdio.h>

#include "measure.h"

void measure_compare_write(FILE *f, const struct measure *a, const struct measure *b);

#endif
