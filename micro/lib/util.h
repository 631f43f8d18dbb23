/* util.h - the few helpers every execlag instrument shares, one small file
 * each (as suckless sbase's libutil): die.c (errors), xalloc.c (memory),
 * parse.c (numbers), numtext.c (numbers as text), clock.c, lines.c (text
 * files a line at a time), words.c, paths.c, fsfull.c (a full disk),
 * atomic.c (a file written whole), signals.c.  Nothing here computes
 * statistics or knows a format of the kit's. */
#ifndef EXECLAG_UTIL_H
#define EXECLAG_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The longest time a reader of samples takes: 1e15 ns (11.6 days), 1e9 ms
 * (JSON_NUM_MAX, the largest number a run.json may hold).  Beyond it a
 * number is a corrupt file, not a measurement. */
#define MAX_TIME_NS 1000000000000000L
#define MAX_TIME_US (MAX_TIME_NS / 1000)

/* Exit statuses used by every instrument. */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

extern const char *progname;

/* Print "progname: message" (and ": strerror(errno)" if fmt ends in ':')
 * on stderr and exit with status. */
void die(int status, const char *fmt, ...);
/* Same, without exiting. */
void warnx_(const char *fmt, ...);

void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* Parse a decimal integer in [min, max]; returns 0 and sets *out, or -1. */
int parse_long(const char *s, long min, long max, long *out);
/* Parse a decimal number (e.g. "2.5") in [min, max]; 0 on success, else -1. */
int parse_double(const char *s, double min, double max, double *out);

/* A new string, formatted like printf. */
char *xasprintf(const char *fmt, ...);

/* v with two decimals ("1.25"), or "-" when v is NAN; returns buf. */
const char *num2(double v, char *buf, size_t len);
/* 16384 -> "16 KiB", 1048576 -> "1 MiB", 1572864 -> "1.5 MiB". */
const char *size_text(long bytes, char *buf, size_t len);
/* n with its thousands separated by commas: 3840 -> "3,840"; returns buf. */
const char *count_text(size_t n, char *buf, size_t len);

/* Monotonic clock in nanoseconds. */
uint64_t now_ns(void);

/* Split line (modified in place) at tabs into at most max fields; returns
 * the number of fields.  A trailing newline is removed first. */
int split_tabs(char *line, char **fields, int max);

/* Remove a line's trailing newline and carriage returns, in place. */
void strip_eol(char *line);

/* Calls FN with each line of PATH, its end of line removed, in order, until
 * FN returns non-zero; 0, or -1 when PATH cannot be opened (errno set). */
int each_line(const char *path, int (*fn)(char *line, void *ctx), void *ctx);

/* Read one whole line of any length; returns NULL at EOF.  The buffer is
 * reused between calls: pass the same buf and cap. */
char *read_line(FILE *f, char **buf, size_t *cap);

/* The folder holding path ("." for a bare name); a new string. */
char *parent_dir(const char *path);
/* 1 when the file system holding dir has (almost) no space or no inodes
 * left, so a write or a compile that failed there most likely failed for
 * want of it. */
int fs_full(const char *dir);
/* After a failed write in folder dir (errno as the failure left it): when
 * it failed for want of space, exit with status and "no space left in
 * DIR"; else return with errno unchanged. */
void die_if_full(int status, const char *dir);
/* After a failed compile into folder workdir: a full disk fails a compiler
 * in its own words (ld, collect2), so when workdir's file system, or that
 * of the compiler's temporaries ($TMPDIR, else /tmp), is full, exit with
 * status saying which; else return. */
void die_if_compile_full(int status, const char *workdir);

/* Atomic output: open a temporary file beside path, and on commit fsync,
 * close and rename it over path.  On abort the temporary is removed. */
struct atomic_file {
	FILE *fp;
	char *path;
	char *tmp;
};
int atomic_open(struct atomic_file *af, const char *path);
int atomic_commit(struct atomic_file *af);
void atomic_abort(struct atomic_file *af);

/* 1 when path is a regular file this process may execute. */
int is_exec_file(const char *path);
/* 1 when prog, a path or a name looked up in $PATH ("/usr/bin:/bin" when
 * PATH is unset or empty; an empty entry is the current folder), is an
 * executable file. */
int find_in_path(const char *prog);
/* s split at blanks (spaces and tabs, no quoting), as make splits $CC: a
 * NULL-terminated vector with room for extra more words, its count in
 * *argc; dflt alone when s is NULL or holds no word.  The words live as
 * long as the program. */
char **split_blanks(const char *s, const char *dflt, int extra, int *argc);
/* Run handler on SIGINT, SIGTERM and SIGHUP (a closed terminal), without
 * SA_RESTART, so a blocked waitpid or read returns EINTR and the program
 * can clean up and leave. */
void catch_signals(void (*handler)(int));

#endif
