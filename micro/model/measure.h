/* measure.h - a measure (make measure, docs/measure.md) as plain data: what
 * the command's run left, and the answer computed from it.
 *
 * Filled by the readers of what the run left (micro/fmt/measurein.c: the
 * execwatch result, the log's counts, the sizes, the probe runs, the
 * services, the gate's log (gatelog.c), the conditions) or of a finished
 * measure (micro/fmt/measurejson.c); the answer by micro/stats/measurestats.c;
 * shown by the writers (micro/report/measure_text.c, measure_json.c,
 * measure_compare.c).  Nothing here reads, computes or prints.
 *
 * A number that is not known is NAN (a double) or -1 (a count or a size),
 * unless its comment says otherwise. */
#ifndef EXECLAG_MEASURE_H
#define EXECLAG_MEASURE_H

#include <stddef.h>

struct condition; /* fmt/conditions.h: one key=value of conditions.txt */

/* analyze's verdict on a probe's exe case, as the measure takes it: a
 * slowdown without its interval is inconclusive; none read (no probe, no
 * exe case, another verdict) is unknown */
enum m_verdict { M_UNKNOWN, M_SLOWDOWN, M_NONE, M_INCONCLUSIVE };
/* whether checks queue: analyze's serialisation of the exe case at T=2 */
enum m_queue { M_QUEUE_UNREAD, M_SERIALISED, M_PARALLEL, M_UNDETERMINED };
/* what counted N */
enum m_source { M_SOURCE_NONE, M_FANOTIFY, M_UNIFIED_LOG };
/* how a probe came to be (scripts/measure says): made for this measure,
 * reused (PROBE=0), none (PROBE=0 and no comparable run), failed */
enum m_how { M_HOW_NONE, M_HOW_RAN, M_HOW_REUSED, M_HOW_FAILED };
/* how far a probe run was read */
enum m_probe_state {
	M_PROBE_NO_RUN,     /* no run given */
	M_PROBE_UNREADABLE, /* its run.json could not be read */
	M_PROBE_NO_EXE,     /* read; it has no exe case */
	M_PROBE_READ        /* its exe case read */
};

#define MEASURE_SERVICES 5 /* fmt/services.h's N_SERVICES */

/* The command, and how it ended (execwatch's result) */
struct measure_command {
	char **argv;       /* the words run (not owned) */
	int argc;
	char *line;        /* as a person reads it: sh -c's string, else the words quoted */
	char *dir, *id;    /* where it ran, the measure's id; NULL: not given */
	double wall_s;     /* W */
	double user_s, sys_s;
	int status;        /* 128 + N for signal N; 127 not found, 126 not runnable */
	int signal;        /* 0: none */
	int not_run;
	char not_run_why[200];
	char interrupted[64], interrupted_how[64]; /* "" when nothing interrupted it */
};

/* The first launch of a new program, as fanotify saw it */
struct measure_program {
	double at_ms; /* after the command's release */
	char *new_by; /* btime or ctime */
	char *path;
};

/* N's counts as the exec listener gave them (execwatch's result) */
struct measure_fanotify {
	long fresh_execs, old_execs, outside, unplaced; /* 0 when absent */
	char *tree;           /* how processes were told apart; "unknown" */
	char **fs;            /* the file systems marked (their paths) */
	size_t n_fs;
	struct measure_program *programs; /* the first ones, at most 50 */
	size_t n_programs;
	int have_new_by;      /* the new_by line was there */
	long new_by_btime, new_by_ctime;
};

/* N's counts as the unified log gave them (logcount's result) */
struct measure_logcount {
	long performscan, outside, inside, unplaced;   /* 0 when absent */
	long programs, programs_named;
	int programs_capped;  /* programs is a lower bound */
	long scan_complete, evaluate, process_assessment, xprotect_results;
	double scan_s;        /* the scans' logged time, summed */
	long paired;
	char *start, *end;    /* the window; "" unknown */
	char **others;        /* programs of the checks outside the folders */
	size_t n_others;
};

/* N: the new programs the command launched */
struct measure_n {
	long n;            /* -1 unknown; on macOS the range's high end */
	long n_low;        /* the range's low end (macOS: the checks the log
			    * places in the command's folders); n where exact */
	int n_lower;       /* a lower bound (the queue overflowed) */
	enum m_source source;
	char why[512];     /* why N is unknown */
	int have_counts;   /* the source's own counts below were read */
	struct measure_fanotify fan;
	struct measure_logcount log;
};

/* L from one probe run: its exe case at T=1 */
struct measure_penalty {
	enum m_verdict verdict;
	double median, low, high; /* ms */
	char reason[400];         /* analyze's, "" none */
};

/* The probe: the run whose exe case gives L and whether checks queue */
struct measure_probe {
	enum m_how how;
	char *note;         /* why (the command line's --probe-note, or what
			     * reading the run found), NULL none */
	int note_given;     /* the note came with the command line */
	enum m_probe_state state;
	char *run;          /* its folder, NULL none */
	char *run_id;       /* NULL unknown */
	char *launcher;     /* its conditions' launcher ("spawn" when none) */
	int simulated;
	struct measure_penalty l;
	enum m_queue queue;
	char queue_reason[400];
};

/* The new programs' sizes against the probe's program (the sizes file) */
struct measure_sizes {
	long known;                           /* -1: unknown (why says) */
	long gone;                            /* listed, no longer there */
	unsigned long long median, p90, largest;
	long long probe_bytes;                /* the probe's program; -1 */
	long long reprobe_pad;                /* L again at this padding; -1 none due */
	int reprobe_capped;                   /* the padding stopped at its most */
	char why[300];
};

/* L again at the new programs' median size: a second probe, padded,
 * where the sizes file made one due (reprobe_pad) */
struct measure_at_size {
	int due;
	long long pad;
	int pad_capped;
	enum m_how how;     /* ran or failed */
	char *note;         /* as the probe's */
	int note_given;
	int read;           /* its run.json was read */
	char *run_id;       /* NULL unknown */
	long long program_bytes; /* its padded program; -1 unknown */
	struct measure_penalty l;
};

/* The L that B uses: the one at the programs' size where that probe
 * decided (slowdown or none), else the probe's */
struct measure_used {
	int at_size;
	enum m_verdict verdict;
	double l, low, high;
};

/* One assessment service's CPU over the command */
struct measure_service {
	const char *name;   /* fmt/services.h's service_names */
	double cpu_s;       /* to the hundredth, as reported; NAN unknown */
	long instances;     /* most processes seen in one sample */
	long ended;         /* gone by the after sample */
};

struct measure_services {
	int sampled;        /* both samples read */
	struct measure_service s[MEASURE_SERVICES];
	char why[400];      /* why not */
};

/* What the calibration gate's log says it held (fmt/gatelog.c) */
struct gate_held {
	long decisions;       /* misses, hits and exempt ones (the gate's own count) */
	long held_launches;   /* executions held: misses of exec events */
	double held_launches_ms; /* their hold, summed */
	long unheld_launches; /* new executions that passed unheld */
	double held_ms;       /* everything held (libraries too), summed */
};

/* The calibration gate during the command (conditions gate.*, its log) */
struct measure_gate {
	int active;         /* gate.active=1 and its log given */
	char *latency_ms, *workers, *key; /* as the conditions say them */
	int read;           /* its log read */
	char why[300];      /* why not */
	struct gate_held held;
};

/* The answer: B, its share of W, and the projection without the checks */
struct measure_answer {
	int have_b;
	double b, b_lo, b_hi;   /* seconds: B at N's high end with L's median,
				 * the interval from N's low end x L's low end
				 * to N's high end x L's high end */
	int range;              /* N is a range (macOS): B and the share too */
	double b_r, sh_r;       /* B and the share at N's low end, L's median */
	int k;                  /* checks at once: 1, 2 (at least), 0 unknown */
	int at_most;            /* B and the share are upper bounds */
	int have_share;
	double sh, sh_lo, sh_hi;
	int capped, bottleneck;
	int have_proj;
	double pj, pj_lo, pj_hi; /* W - B: the command without the checks, at least */
};

/* The remedy (issue 42): what the command would spend in checks were its
 * programs, launched again after a rebuild, placed by the best safe
 * placement of the latest make remedies run on this machine (a projection,
 * not measured: N x that placement's first-launch cost / checks at once);
 * programs that are new bytes every time no placement helps. */
struct measure_remedy {
	int have_run;            /* a make remedies run was read */
	char *run_id;            /* its id; NULL none */
	char *placement, *what;  /* the one it says to use; NULL: none safe */
	double cost, low, high;  /* that placement's first launch, ms */
	int have_b;              /* the projection was computed */
	double b, b_lo, b_hi;    /* s: N x cost / k, its interval as B's */
};

/* A new part is a struct here, its reader in fmt/measurein.c, its
 * arithmetic in stats/measurestats.c, and a section in each writer that
 * shows it. */
struct measure {
	struct measure_command cmd;
	struct condition *conds; /* conditions.txt, in its order */
	size_t n_conds;
	struct measure_n n;
	struct measure_probe probe;
	struct measure_sizes sizes;
	struct measure_at_size at_size;
	struct measure_used used;
	struct measure_services services;
	struct measure_gate gate;
	struct measure_answer answer;
	struct measure_remedy remedy;
};

/* ---- the words of the values, as measure.json writes them ------------------ */

static inline const char *m_verdict_word(enum m_verdict v)
{
	return v == M_SLOWDOWN ? "slowdown" : v == M_NONE ? "none" :
	       v == M_INCONCLUSIVE ? "inconclusive" : NULL;
}

static inline const char *m_queue_word(enum m_queue q)
{
	return q == M_SERIALISED ? "serialised" : q == M_PARALLEL ? "parallel" :
	       q == M_UNDETERMINED ? "undetermined" : NULL;
}

static inline const char *m_source_word(enum m_source s)
{
	return s == M_FANOTIFY ? "fanotify" : s == M_UNIFIED_LOG ? "unified log" : NULL;
}

static inline const char *m_how_word(enum m_how h)
{
	return h == M_HOW_RAN ? "ran" : h == M_HOW_REUSED ? "reused" :
	       h == M_HOW_FAILED ? "failed" : "none";
}

#endif
