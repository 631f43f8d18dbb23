/* casestats.h - the steps of stats_case (stats.h) that are units of their
 * own; for micro/stats alone. */
#ifndef EXECLAG_CASESTATS_H
#define EXECLAG_CASESTATS_H

#include "caseresult.h"

/* The config of the case's base size at this class and thread count, or
 * NULL (casestats.c). */
struct config *stats_find_config(const struct case_result *cr, const char *class_name,
				 long threads);
/* Serialisation at the largest T; the headline and the scaling rows made
 * (serial.c). */
void stats_serialisation(struct case_result *cr);
/* The slopes of the penalty against size (slopes.c). */
void stats_slopes(struct case_result *cr);

#endif
