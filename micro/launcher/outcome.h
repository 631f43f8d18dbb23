/* outcome.h - how a launched child ended, from what posix_spawn and
 * waitpid said (the spawn launcher, suite). */
#ifndef EXECLAG_OUTCOME_H
#define EXECLAG_OUTCOME_H

/* A child's fate from posix_spawn's error err and waitpid's status st: its
 * exit status (-1 when it was not spawned or did not exit) and the signal
 * that ended it (0 when none). */
void spawn_outcome(int err, int st, int *exit_status, int *sig);

#endif
