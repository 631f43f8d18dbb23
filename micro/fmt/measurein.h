/* measurein.h - what a measured command's run left, read into the measure
 * (model/measure.h), each file through its one reader (docs/formats.md):
 * conditions.txt (conditions.c); execwatch's result, logcount's counts and
 * the sizes file (tabfile.c); the probe runs' run.json (runjson.c) and
 * their exe manifests (manifest.c); the services (services.c); the gate's
 * log (gatelog.c); logcount's list of programs.  Nothing here computes
 * the answer (micro/stats/measurestats.c) or prints. */
#ifndef EXECLAG_MEASUREIN_H
#define EXECLAG_MEASUREIN_H

#include <stddef.h>
#include <stdint.h>

#include "measure.h"
#include "runjson.h"

/* Everything unknown: no N, no L, no sizes. */
void measure_init(struct measure *m);
/* Free what the readers gave m (not cmd.argv). */
void measure_free(struct measure *m);

/* conditions.txt into m: 0, or -1 when it cannot be read (errno says). */
int measure_read_conditions(struct measure *m, const char *path);
/* A condition's value, "" when the measure has none. */
const char *measure_condition(const struct measure *m, const char *key);

/* N from the unified log's counts (macOS), read before the result. */
void measure_read_logcount(struct measure *m, const char *path);
/* W, the exit, the CPU and, unless the log gave it, N (execwatch's
 * result).  Not an execwatch result, or no status line: exit 1. */
void measure_read_watch(struct measure *m, const char *path);
/* The probe run RUN (a folder; NULL none): L and whether checks queue. */
void measure_read_probe(struct measure *m, const char *run, enum m_how how, const char *note);
/* The sizes file (measure --program-sizes; NULL: not read). */
void measure_read_sizes(struct measure *m, const char *path);
/* L at the programs' size: the second probe RUN (NULL none), where the
 * sizes made one due; HOW "ran", "failed" or NULL (ran when RUN is given). */
void measure_read_size_probe(struct measure *m, const char *run, const char *how, const char *note);
/* The services' CPU over the command (NULL: not sampled). */
void measure_read_services(struct measure *m, const char *path);
/* What the calibration gate held (LOG: its log, NULL when none ran). */
void measure_read_gate(struct measure *m, const char *log);
/* The remedies table of RUN (a run folder), where RUN is make remedies'
 * run: 1 read into m->remedy, 0 not such a run. */
int measure_read_remedy(struct measure *m, const char *run);

/* A run folder's run.json (runjson.c reads and checks it): 0, or -1 when
 * it is not an execlag run's (nothing then to free). */
int measure_load_run(const char *run, struct runjson *r);

/* ---- for measure --program-sizes ------------------------------------------------ */

/* The size of the program of RUN's exe case at T=1 (its manifest's bytes
 * line), unpadded or PADDED; -1 when no manifest says. */
long measure_probe_bytes(const char *run, int padded);
/* The sizes of the programs listed in LIST (one path a line, logcount
 * --programs) that still exist, into *V (n of them); *GONE those that do
 * not. */
size_t measure_listed_sizes(const char *list, uint64_t **v, long *gone);
/* The new programs' sizes from execwatch's result (its sizes line): 0, or
 * -1 with why (*known -1). */
int measure_watch_sizes(const char *path, long *known, unsigned long long *median,
			unsigned long long *p90, unsigned long long *largest, char *why, size_t len);

#endif
