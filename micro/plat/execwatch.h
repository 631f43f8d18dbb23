/* execwatch.h - the platform part of execwatch: which programs that did not
 * exist before the command started did the command's processes execute?
 *
 * Linux (execwatch_linux.c): a fanotify *notification* group (FAN_OPEN_EXEC,
 * FAN_CLASS_NOTIF: the kernel queues an event and the exec goes on, nothing
 * waits for the reader) marked on the file systems of the given paths; the
 * command's process tree from the proc connector's fork events (falling back
 * to /proc's parent links); "new" by statx birth time, else ctime, against
 * the time the command was released.  Needs root.  Elsewhere
 * (execwatch_other.c) there is no such listener: xw_start says why. */
#ifndef EXECLAG_EXECWATCH_H
#define EXECLAG_EXECWATCH_H

#include <poll.h>
#include <stdio.h>
#include <sys/types.h>

/* Set up before the command exists.  0: watching; -1: not, with one line
 * in why (the command still runs and is still timed). */
int xw_start(const char *const *paths, int npaths, char *why, size_t len);
/* Descriptors to poll while the command runs (at most max); 0 when none. */
int xw_pollfds(struct pollfd *pfd, int max);
/* The command's first process, forked but not yet released: its tree is
 * what counts; the start of the window is now. */
void xw_root(pid_t pid);
/* Read what the descriptors have ready. */
void xw_read(void);
/* The command has ended: read what is still queued, then stop watching. */
void xw_finish(void);
/* The result lines (docs/formats.md, "execwatch"). */
void xw_write(FILE *f);

#endif
