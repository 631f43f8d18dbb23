/* procfs.h - Linux's /proc, read where two programs need the same thing
 * (the calibration gate's exemption, make measure's process tree). */
#ifndef EXECLAG_PROCFS_H
#define EXECLAG_PROCFS_H

/* The parent of process pid, from /proc/PID/stat; -1 when it is gone or
 * the line cannot be read. */
long proc_parent(long pid);
/* The path an open file descriptor refers to, from /proc/self/fd (a new
 * string); "?" when it cannot be read. */
char *proc_fd_path(int fd);

#endif
