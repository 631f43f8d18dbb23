/* logexcerpt.h - the unified log's excerpts of a window (docs/formats.md,
 * docs/macos.md §4): raw/<config>.log.status (execlag-log 1: result,
 * message) and raw/<config>.log.ndjson (log show's JSON lines), which
 * scripts/probe/logs writes.  The one reader of both (analyze's
 * services_log.c, advise's hang lines). */
#ifndef EXECLAG_LOGEXCERPT_H
#define EXECLAG_LOGEXCERPT_H

#include <stddef.h>

/* Read a status file: 0 with its result and message (either may be
 * empty), 1 when there is none (ENOENT), -1 when it cannot be opened
 * (errno says why), -2 when it is not a log status file. */
int logex_status(const char *path, char *result, size_t rlen, char *message, size_t mlen);

/* One event of an excerpt; a field absent or not a string is NULL. */
struct logex_event {
	const char *message;   /* eventMessage */
	const char *image;     /* processImagePath */
	const char *timestamp; /* timestamp, as log show writes it */
};

/* What logex_each read: every line, the events, and the lines that are
 * not blank and not a JSON object. */
struct logex_counts {
	long lines, events, unreadable;
};

/* Call FN for each event of the excerpt at PATH, in order; 0, or -1 when
 * the file cannot be opened (errno says why). */
int logex_each(const char *path, void (*fn)(const struct logex_event *ev, void *ctx), void *ctx,
	       struct logex_counts *counts);

/* "2024-01-15 10:30:00.100001-0800" (log show's timestamp): seconds since
 * 1970 in UTC in *s; -1 when it is not that. */
int logex_time(const char *t, double *s);

/* The path an assessment step's message carries, newly allocated, or NULL:
 * "GK process assessment: PATH <-- (…)"; "PST: (path: PATH), (team: …" (a
 * path, or on newer releases a hash of one, docs/macos.md §4); "…,file://URL"
 * (GK Xprotect results), percent-decoded, without a trailing "/".  A path
 * logged as <private> is none. */
char *logex_path(const char *msg);

#endif
