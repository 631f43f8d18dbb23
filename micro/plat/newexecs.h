/* newexecs.h - the platform part of execwatch: which programs that did not
 * exist before the command started did the command's processes execute?
 *
 * Linux (newexecs_linux.c): a fanotify *notification* group (FAN_OPEN_EXEC,
 * FAN_CLASS_NOTIF: the kernel queues an event and the exec goes on, nothing
 * waits for the reader) marked on the file systems of the given paths; the
 * command's process tree from the proc connector's fork events (falling back
 * to /proc's parent links); "new" by statx birth time, else ctime, against
 * the time the command was released.  Needs root.  Elsewhere
 * (newexecs_other.c) there is no such listener: newexecs_start says why. */
#ifndef EXECLAG_NEWEXECS_H
#define EXECLAG_NEWEXECS_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Set up before the command exists.  0: watching; -1: not, with one line
 * in why (the command still runs and is still timed). */
int newexecs_start(const char *const *paths, int npaths, char *why, size_t len);
/* Descriptors to poll while the command runs (at most max); 0 when none. */
int newexecs_pollfds(struct pollfd *pfd, int max);
/* The command's first process, forked but not yet released: its tree is
 * what counts; the start of the window is now. */
void newexecs_root(pid_t pid);
/* Read what the descriptors have ready. */
void newexecs_read(void);
/* The command has ended: read what is still queued, then stop watching. */
void newexecs_finish(void);

/* What the listener saw, for the result lines execwatch writes
 * (docs/formats.md, "execwatch"). */
struct newexecs_fs {
	const char *path;
	int mount_only;      /* 1: only its mount could be marked (Linux < 4.20) */
};
struct newexecs_program {
	double ms;           /* its first launch, after the command's release */
	long pid;
	const char *how;     /* "btime" or "ctime": how it was told new */
	char *path;
};
struct newexecs_counts {
	long fresh_launches, fresh_execs, old_execs, outside, unplaced;
	long by_btime, by_ctime;
	int overflow;        /* the queue overflowed: the counts are lower bounds */
};
struct newexecs_seen {
	const struct newexecs_fs *fs;
	int n_fs;
	const char *tree;    /* how the command's processes were told, in words */
	struct newexecs_counts count;
	const uint64_t *sizes; /* each new program's size at its first launch */
	size_t n_sizes;
	const struct newexecs_program *programs; /* the first 10,000 of them */
	size_t n_programs;
};
/* Once newexecs_finish has run; the parts live as long as the program. */
void newexecs_result(struct newexecs_seen *out);

#endif
