/* quarantine.h - com.apple.quarantine as a download leaves it (docs/macos.md
 * §6): the value's form (quarantine.c, every platform) and the
 * setting of it (quarantine_darwin.c; elsewhere quarantine_other.c). */
#ifndef EXECLAG_QUARANTINE_H
#define EXECLAG_QUARANTINE_H

#include <stddef.h>
#include <time.h>

#define QUARANTINE_XATTR "com.apple.quarantine"

/* The value "FLAGS;HEXTIME;AGENT;UUID" with flags 0081, the time T in
 * lower-case hex, the agent execlag and no UUID, into BUF of LEN bytes;
 * returns its length (snprintf's: LEN or more when it did not fit). */
int quarantine_value(char *buf, size_t len, time_t t);

/* Sets it on PATH, stamped with the current time: 0, or -1 with errno
 * (ENOTSUP where there is no such attribute: not macOS). */
int quarantine_set(const char *path);

#endif
