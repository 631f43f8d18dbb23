/* prelaunch.h - a launch while making, untimed: a base or host is launched
 * once before the artifacts made from it, and exe-rewrite's slot before the
 * new file is renamed over it, so that a checker has seen them. */
#ifndef EXECLAG_PRELAUNCH_H
#define EXECLAG_PRELAUNCH_H

/* Launch path once and wait for it: its exit status does not matter, only
 * that it has been launched.  Untimed, so by fork and exec: the child is
 * on its own at once (posix_spawn on Linux does not return before the
 * child's execve has passed a first-launch check), and one that does not
 * end within EXECLAG_HANG_S seconds (30) is killed, its process group with
 * it: mkfresh then exits 4, a hang (no launch of the kit waits for ever).
 * After a signal it returns at once, the launch killed (the caller sees
 * the signal). */
void prelaunch(const char *path);

/* EXECLAG_HANG_S: how long a launch (or another program run) while making
 * may take, in seconds (30); a bad value is one line and exit 2. */
double prelaunch_bound(void);

#endif
