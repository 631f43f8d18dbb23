/* responsible.h - the process macOS holds responsible for this one: the
 * app whose Developer Tools grant applies to what it starts (Terminal,
 * iTerm2, an IDE), sshd-keygen-wrapper over ssh, or the process itself
 * (docs/evidence.md, "How the kit was started").
 *
 * libSystem exports responsibility_get_pid_responsible_for_pid(pid_t),
 * without a header; public code takes it with dlsym (research: exelban
 * Stats' ProcessReader, and a probe run from iTerm2 that got iTerm2's pid).
 * The path of that pid comes from proc_pidpath (libproc), taken the same
 * way, so the reader links against libSystem alone and cross-compiles. */
#ifndef EXECLAG_RESPONSIBLE_H
#define EXECLAG_RESPONSIBLE_H

#include <stddef.h>
#include <sys/types.h>

typedef pid_t (*responsible_fn)(pid_t);            /* responsibility_get_pid_responsible_for_pid */
typedef int (*responsible_pidpath_fn)(int, void *, unsigned int); /* proc_pidpath */

/* proc_pidpath's PROC_PIDPATHINFO_MAXSIZE (4 * MAXPATHLEN). */
#define RESPONSIBLE_PATH_MAX 4096

/* Ask libSystem through dlsym: the global symbols of the process
 * (dlopen(NULL)), or the library EXECLAG_LIBSYSTEM names (tests load a
 * stand-in).  Returns "path" with path filled, "self" (this process is its
 * own responsible process), or "unknown" with why filled. */
const char *responsible_dl_read(char *path, size_t len, char *why, size_t wlen);

/* This platform's answer: responsible_dl_read on macOS, "n/a" elsewhere
 * (responsible_darwin.c, responsible_other.c). */
const char *responsible_platform(char *path, size_t len, char *why, size_t wlen);

#endif
