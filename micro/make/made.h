/* made.h - every file mkfresh's run may have created, removed again when
 * the run fails or is interrupted (SIGINT, SIGTERM, SIGHUP): a run leaves
 * all it made, with its manifest, or nothing.
 *
 * A path is recorded before the call that may create it, and dropped
 * (made_untrack_last) when that call fails, so a file that was not the
 * run's is never removed. */
#ifndef EXECLAG_MADE_H
#define EXECLAG_MADE_H

void made_track(const char *path);
void made_untrack_last(void);

/* Remove every recorded file, the last made first. */
void made_undo(void);

/* From now on SIGINT, SIGTERM and SIGHUP only set a flag, which
 * stop_if_interrupted reads between steps. */
void made_catch_signals(void);

/* The signal that arrived (0: none). */
int made_signal(void);

/* After a signal: "interrupted by signal N; removing what was made" and
 * exit 130 (the program's exit handler removes what was made). */
void stop_if_interrupted(void);

#endif
