/* report_md.h - report.md's sections that live beside report_md.c, one a
 * part of the run (report_md_parts.c): each writes nothing where the run
 * has no such part. */
#ifndef EXECLAG_REPORT_MD_H
#define EXECLAG_REPORT_MD_H

#include "report_common.h"

report_section md_services_log; /* ## Assessment services, ## Assessments in the unified log */
report_section md_suite;        /* ## Test suite */
report_section md_hyperfine;    /* ## hyperfine cross-check */
report_section md_kills;        /* ## Killed launches (where any was) */
report_section md_not_here;     /* ## Not applicable here (where a case was n/a) */
report_section md_remedies;     /* ## Remedies: make remedies' table */

#endif
