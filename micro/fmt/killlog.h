/* killlog.h - a line the system logs when it kills a launch before the
 * program ran (docs/remedies.md, "The kill"; the public lines are
 * tests/fixtures/remedies/): read from its message text, whatever the
 * layout around it (Console's TABs, `log show`'s default style, the old
 * syslog, an ndjson eventMessage), so that a run's log excerpt can name
 * what the system said of a killed launch.  The one reader of these lines
 * (analyze --kill-lines). */
#ifndef EXECLAG_KILLLOG_H
#define EXECLAG_KILLLOG_H

#include <stddef.h>

/* Which line it is:
 *   KILL_PAGE_DENIED   CODE SIGNING: cs_invalid_page(0x…): p=PID[NAME] … sending SIGKILL
 *   KILL_PAGE_REJECTED CODE SIGNING: process PID[NAME]: rejecting invalid page … in file "PATH"
 *                      (cs_mtime:A == or != mtime:B): != the file changed after its
 *                      signature was loaded (an in-place overwrite's mark)
 *   KILL_LOAD_SIGNATURE proc PID: load code signature error N for file "NAME"
 *   KILL_POLICY        ASP: Security policy would not allow process[: PID, PATH]
 *   KILL_CRASH_REPORT  a crash report's SIGKILL (Code Signature Invalid) or
 *                      namespace CODESIGNING (no pid or path on the line) */
enum kill_family {
	KILL_PAGE_DENIED,
	KILL_PAGE_REJECTED,
	KILL_LOAD_SIGNATURE,
	KILL_POLICY,
	KILL_CRASH_REPORT,
	KILL_FAMILIES
};

#define KILLLOG_FILE_MAX 1024

struct killline {
	enum kill_family family;
	long pid;                    /* -1: the line names none */
	char file[KILLLOG_FILE_MAX]; /* the path (or the name the line gives); "" none */
	int changed;                 /* page-rejected: 1 !=, 0 ==; else -1 */
};

/* Whether line (one line of a log, any layout) is a kill line: 1 with
 * *k filled in, else 0. */
int killlog_parse(const char *line, struct killline *k);

/* Its family's name: "page-denied", "page-rejected", "load-signature",
 * "policy", "crash-report". */
const char *killlog_family_name(enum kill_family f);

/* Whether k names the launch of pid (> 0) or of the program at path (NULL:
 * none): the pid, or the path, or (a line that gives only a name, cut as
 * the kernel cuts it) path's last part beginning with it. */
int killlog_names(const struct killline *k, long pid, const char *path);

/* The kill lines of a log file: each parsed line and its line number. */
struct killlog {
	struct killline *k;
	long *line;
	size_t n;
	long at; /* lines read */
};

/* Read the kill lines of path: a log in any text layout, or (where it
 * begins with '{') an excerpt's eventMessages (logexcerpt.h).  0, or -1
 * where it cannot be opened (errno says why). */
int killlog_read(const char *path, struct killlog *kl);
void killlog_free(struct killlog *kl);

/* Whether kl's line i is of one of the n programs at paths (n 0: of any):
 * it names one (killlog_names), or gives the pid of a line that does. */
int killlog_of(const struct killlog *kl, size_t i, const char *const *paths, size_t n);

#endif
