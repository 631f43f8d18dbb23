/* gateout.h - what the calibration gate writes (Linux): its log, one JSON
 * line a decision between a start line (its settings) and a stop line
 * (what it decided, counted); the ready file, there exactly while the
 * marks are in place; the heartbeat, a counter rewritten every 100 ms. */
#ifndef EXECLAG_GATEOUT_H
#define EXECLAG_GATEOUT_H

#include <stdint.h>
#include <sys/types.h>

/* What the gate counts, for the log's stop line. */
enum tally { T_MISS, T_HIT, T_EXEMPT, T_DRAINED, T_WEDGED, T_UNHELD, T_REFUSED, N_TALLY };

void tally_add(enum tally t);
unsigned long tally_get(enum tally t);

/* What an event is: an execution, a library's open, another open (--on
 * open). */
enum obj_kind { OBJ_EXEC, OBJ_LIBRARY, OBJ_OPEN };

/* Open what the gate writes (gs.log, the ready file under its temporary
 * name, gs.heartbeat); self names the temporary; exit 2 where one cannot
 * be. */
void gateout_open(long self);

/* The ready file renamed into place (the marks are there), or removed
 * (stopped, or marking failed). */
void gateout_ready(void);
void gateout_unready(void);

/* Start the heartbeat's thread, where there is one (0, or an errno value). */
int gateout_beat(void);

/* The log's lines: the start (the settings), a decision, the stop (what
 * the gate decided, counted); gateout_close ends the log (exit 1 where it
 * cannot be written). */
void gateout_start(long self);
/* refused: the answer was a refusal (--kill: "answer":"refused" on the
 * line; the caller got EPERM) */
void gateout_decision(uint64_t t, pid_t pid, enum obj_kind kind, const char *path,
		      const char *key, const char *result, int refused, double held_ms,
		      double queued_ms);
void gateout_stop(void);
void gateout_close(void);

#endif
