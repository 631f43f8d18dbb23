/* healthfile.h - the checker's health record (execlag-health 1,
 * docs/formats.md), which scripts/probe/health writes before any launch:
 * syspolicyd's and trustd's figures (ps), Calculator's assessment (spctl,
 * bounded) and the last minute of syspolicyd's log (logcount's file inside
 * it, each key under "log.").  The one reader of both, through tabfile;
 * micro/stats/checkerstate.c decides the state from it. */
#ifndef EXECLAG_HEALTHFILE_H
#define EXECLAG_HEALTHFILE_H

#include <stddef.h>
#include <stdio.h>

/* What Calculator's assessment gave (the record's `assess`). */
enum health_assess {
	HEALTH_ASSESS_NONE,     /* not recorded: no such key, or off macOS */
	HEALTH_ASSESS_ACCEPTED, /* "PATH: accepted" */
	HEALTH_ASSESS_REJECTED, /* "PATH: rejected": an answer all the same */
	HEALTH_ASSESS_EMFILE,   /* "PATH: Too many open files" */
	HEALTH_ASSESS_TIMEOUT,  /* no answer within the bound */
	HEALTH_ASSESS_MISSING,  /* no spctl */
	HEALTH_ASSESS_REFUSED,  /* the calibration gate refused the exec (EPERM) */
	HEALTH_ASSESS_OTHER     /* anything else */
};

/* One service as ps showed it: its instances summed.  A figure that was
 * not recorded is -1 (NAN for the decimals). */
struct health_proc {
	long count;     /* instances; -1 when ps was not read */
	double cpu_pct; /* %cpu, summed */
	long rss_kb;    /* resident KiB, summed */
	long etime_s;   /* running time of the longest-running instance */
	double time_s;  /* CPU time, summed */
};

/* Whose checker the record reads (its `checker`). */
enum {
	HEALTH_CHECKER_UNSAID = -1,
	HEALTH_CHECKER_NONE = 0,       /* another system: nothing to read */
	HEALTH_CHECKER_SYSPOLICYD = 1, /* macOS's, or the simulator's model of it */
	HEALTH_CHECKER_GATE = 2        /* Linux: the calibration gate */
};

struct health_record {
	int checker;   /* HEALTH_CHECKER_* */
	char *system;  /* uname -s as recorded, or NULL */
	char *simulated; /* the simulator's settings that made the record, or
			  * NULL: then it was read from a machine */
	int ps_ok;     /* ps was read */
	struct health_proc syspolicyd, trustd;
	enum health_assess assess;
	long assess_exit;    /* -1 when not recorded */
	double assess_bound_s;
	char *assess_line;   /* its first line, or NULL */
	int log_ok;          /* the log's last minute was read */
	char *log_result;    /* ok, refused, skipped, failed, or NULL */
	char *log_message;   /* why not, or NULL */
	double window_s;     /* the window read, seconds (0 when none) */
	long log_lines;      /* syspolicyd's lines in it */
	long own_lines;      /* of those, the kit's (naming its work folder) */
	long emfile_lines;   /* lines of error 24 */
	long asp_lines;      /* the kernel's AppleSystemPolicy denials */
	char *driver;        /* the program the lines name most (not the kit's), or NULL */
	long driver_lines;
	char **quotes;       /* quoted log lines, in order */
	size_t nquotes;
};

/* Reads PATH: 0; -1 when it cannot be read (errno says why), -2 when it is
 * not a health record (H left empty, freeable). */
int healthfile_read(const char *path, struct health_record *h);

void healthfile_free(struct health_record *h);

/* Writes H as a record that healthfile_read reads back (the simulator's,
 * micro/launcher/simhealth.c; the machine's is scripts/probe/health's):
 * each figure that is known, the log's keys under "log.".  Returns 0, or
 * -1 when F failed. */
int healthfile_write(FILE *f, const struct health_record *h);

#endif
