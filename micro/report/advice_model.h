/* advice_model.h - what a run means for the person at the machine, as
 * plain data, the way hyperfine keeps a benchmark's result apart from its
 * exporters: the setting the run's conditions describe, what the probe
 * measured (a hang's evidence with it), the cause found, the steps to take
 * and a hang's fixes, each with its public sources (docs/evidence.md) and
 * whether it needs an administrator or a reboot, and how the kit was
 * started.  Read and decided in one place, advice_model.c; no output code:
 * the writers word it (advice.h).
 *
 * A new result is a struct of its own filled in one place, plus a section
 * in each writer that shows it: the checker's health (issue 43) a state
 * with its figures and a list of relief steps (struct advice_step: a kind,
 * the program it names, its sources, ADVICE_NEEDS_ADMIN or _REBOOT), as a
 * hang's fixes are here; the remedies (issue 42) a table of placements with
 * the one to use and the one to avoid as steps. */
#ifndef EXECLAG_ADVICE_MODEL_H
#define EXECLAG_ADVICE_MODEL_H

#include "checkerstate.h"

#include <jansson.h>

#define ADVICE_SOURCES 4        /* the most public sources one finding or step cites */
#define ADVICE_STEPS 4          /* the most do: steps, fixes and relief steps */
#define ADVICE_FACTS 16         /* the most facts of how the kit was started */
#define ADVICE_HANG_LAUNCHES 8  /* the hung launches kept (the doctor shows 3) */
#define ADVICE_SERVICES 32      /* the services whose CPU over a hang is kept (the kit samples 5) */
#define ADVICE_LOG_LINES 10     /* the log lines kept: 5 naming the program, 5 ASP */

/* The value of a conditions key (scripts/probe/sysinfo, docs/formats.md), or
 * NULL when the run has none. */
typedef const char *(*advice_get)(const void *ctx, const char *key);

/* Public sources as the words cite them (docs/evidence.md), NULL-ended. */
typedef const char *const *advice_sources;

enum advice_verdict {
	ADVICE_PENALTY, /* the case's verdict is slowdown */
	ADVICE_NONE,    /* none */
	ADVICE_UNCLEAR, /* inconclusive, or no such case */
	ADVICE_HANG     /* hang: a launch passed its bound and was killed */
};

/* The Developer Tools state of the responsible app (conditions' devtools). */
enum advice_grant {
	ADVICE_GRANT_ABSENT, /* the run has no devtools key */
	ADVICE_GRANT_YES,    /* authorized */
	ADVICE_GRANT_NO,     /* denied, not-determined or restricted */
	ADVICE_GRANT_UNREAD  /* another word: it could not be read */
};

/* The network, as the cause counts it. */
enum advice_net {
	ADVICE_NET_PLAIN,
	ADVICE_NET_VPN,    /* a Mac over a VPN */
	ADVICE_NET_OFFLINE /* network=offline */
};

/* The run's setting: its conditions, read once.  Each value is as the run
 * recorded it, NULL where it is absent or empty. */
struct advice_setting {
	const char *os, *os_name, *sip, *devtools, *responsible_app, *responsible_path;
	const char *xprotect_version, *xprotect_scans, *listeners, *agents;
	const char *started_via, *ssh, *multiplexer, *launchd_job, *network, *interface;
	const char *gate_latency_ms, *gate_workers, *gate_key, *gate_wedge, *gate_exhausted;
	const char *copy, *copy_ms, *copy_s; /* hang.copy: a hung program's copy */
	const char *launcher; /* the simulator's settings (sim:...); NULL for a real run */
	/* The app a Developer Tools grant would have to name: the responsible
	 * app where it was read, else the terminal the environment names,
	 * else "your terminal". */
	const char *app;
	/* The multiplexer that is itself the responsible program (its server
	 * started outside a terminal's tree, or granted in its own right):
	 * "tmux" or "zellij"; else NULL. */
	const char *mux;
	int darwin;         /* os=Darwin */
	int gate;           /* gate.active=1: the calibration gate held the launches */
	int over_ssh;       /* ssh=yes */
	int launchd;        /* launchd_job=yes */
	int maybe_launchd;  /* tty=no and ssh=no: no terminal, no launchd label */
	int tmux, screen, zellij; /* inside each (multiplexer, a comma list) */
	int vscode;         /* VS Code's integrated terminal */
	int sip_off;        /* sip=disabled */
	int scans_off;      /* XProtect's launch scans are off */
	int listeners_unread; /* the fanotify listeners were not read (no root) */
	int macos_major;    /* 0 when unknown */
	enum advice_grant grant;
	enum advice_net net;
	advice_sources net_source;
};

/* What a copy of a hung program at a new path did (hang.copy). */
enum advice_copy {
	ADVICE_COPY_NOT_TRIED,
	ADVICE_COPY_STARTED, /* at once: the verdict is on the file, not its bytes */
	ADVICE_COPY_HUNG,    /* hung too: the checker answers nothing at all */
	ADVICE_COPY_OTHER    /* what hang.copy says */
};

/* A launch that did not end within its bound, as it was before the kill. */
struct advice_launch {
	const char *pass;  /* first, repeat, reference */
	const char *state; /* ps's state, or NULL */
	const char *wchan; /* its wait channel; NULL or "-" where none is shown */
	long long index, pid;
	double cpu_s;      /* NAN when unknown */
	int simulated;     /* the simulator's: no process to read */
	int unkillable;    /* it did not die from SIGKILL */
};

struct advice_service {
	const char *name;
	double cpu_s; /* NAN when unknown */
};

/* The headline configuration's hang (run.json's "hang" object). */
struct advice_hang {
	int present;
	double bound_s;                   /* NAN when unknown */
	long long hung[3], made[3];       /* first, repeat, reference */
	struct advice_launch launch[ADVICE_HANG_LAUNCHES];
	int n_launches;
	int sampled;                      /* the services' CPU was sampled */
	struct advice_service service[ADVICE_SERVICES];
	int n_services;
	const char *services_reason;      /* why not, or NULL */
	long long threads;                /* the configuration: its log excerpt's name */
	const char *class_name;
	enum advice_copy copy;
	advice_sources copy_source;
};

/* What the probe (the case the advice is of) measured. */
struct advice_probe {
	enum advice_verdict verdict;
	const char *kase;       /* the case the verdict is of ("exe"); NULL: the run has none */
	double penalty_ms;      /* median paired difference; NAN when unknown */
	double low_ms, high_ms; /* its interval; NAN when there is none */
	const char *reason;     /* analyze's reason for the verdict, or NULL */
	long pairs;             /* first launches with their repeat; -1 unknown */
	double first_ms, repeat_ms; /* the case's medians; NAN when unknown */
	struct advice_hang hang;
};

/* What the plain lines' cost: line gives beside the probe. */
struct advice_cost {
	double floor_ms;   /* the least the kit calls a cost: the case's floor, else the run's */
	double confidence; /* of the interval, 0.95 where the run gives none */
};

/* Whether the checks queue (the plain lines' queue: line), from the
 * headline's class and padding at the most threads. */
enum advice_queue_kind {
	ADVICE_QUEUE_SERIAL,       /* serialised: one at a time */
	ADVICE_QUEUE_PARALLEL,     /* side by side */
	ADVICE_QUEUE_UNDETERMINED, /* more than one thread, no answer */
	ADVICE_QUEUE_NOT_MEASURED  /* one program at a time only */
};

struct advice_queue {
	enum advice_queue_kind kind;
	const char *reason;           /* serialisation_reason, or NULL */
	long threads;                 /* the most threads launched together */
	double penalty_ms, low_ms, high_ms; /* a first launch's wait there */
};

/* The suite case's projection at the most jobs it has one for. */
struct advice_projection {
	int present;
	long programs, jobs;
	double minutes;
};

/* The checker's health before any launch (conditions' checker.*, which
 * advise --health wrote from scripts/probe/health's record, the
 * simulator's or the gate's; issue 43).  Each figure as the conditions
 * give it; NULL where the run has none. */
struct advice_checker {
	int read;                 /* the run has checker.state */
	enum checker_state state;
	int sick;                 /* busy, storm, exhausted or hung */
	const char *record;       /* machine, simulated, gate or none */
	const char *why;          /* the reasons, a comma list */
	const char *cpu_pct, *rss_kb, *etime_s; /* syspolicyd's (ps) */
	const char *trustd_cpu_pct;
	const char *assess, *bound_s; /* Calculator's assessment, its bound */
	const char *log;          /* the log's result where it was not read */
	const char *window_s, *log_lines, *rate, *baseline, *emfile_lines;
	const char *driver, *driver_lines; /* the program the log names most */
	advice_sources source;    /* the reports the state rests on */
	/* the relief, in the order to try it (checker_relief's, with a step
	 * about the driver left out where the log names none) */
	const struct checker_step *relief[ADVICE_STEPS];
	int n_relief;
};

/* The cause the conditions and the verdict point to. */
enum advice_cause {
	ADVICE_CAUSE_SIMULATED,  /* the simulator's settings made the numbers */
	ADVICE_CAUSE_GATE,       /* the calibration gate held the launches */
	ADVICE_CAUSE_HANG,       /* a checker that does not answer held a new program */
	ADVICE_CAUSE_UNCLEAR,    /* the probe could not tell */
	ADVICE_CAUSE_CONTROL,    /* none off macOS: no first-launch assessment */
	ADVICE_CAUSE_GRANTED,    /* none on a Mac: the app is a Developer Tool */
	ADVICE_CAUSE_SIP_OFF,    /* none on a Mac: SIP is off */
	ADVICE_CAUSE_NOT_SEEN,   /* none on a Mac where public reports see a cost */
	/* a penalty on a Mac, by who macOS holds responsible and its grant */
	ADVICE_CAUSE_SSH,          /* started over ssh */
	ADVICE_CAUSE_LAUNCHD,      /* started by a launchd job */
	ADVICE_CAUSE_MUX_GRANTED,  /* the multiplexer is responsible, granted, and pays */
	ADVICE_CAUSE_MUX,          /* the multiplexer is responsible, not granted */
	ADVICE_CAUSE_TMUX_GRANTED, /* a granted app, inside a tmux session that pays */
	ADVICE_CAUSE_GRANTED_PAYS, /* a Developer Tool that pays all the same */
	ADVICE_CAUSE_SIP_OFF_PAYS, /* a penalty with SIP off */
	ADVICE_CAUSE_VSCODE,       /* not granted, in VS Code's terminal */
	ADVICE_CAUSE_TMUX,         /* not granted, inside tmux */
	ADVICE_CAUSE_NOT_GRANTED,  /* the app is not a Developer Tool */
	ADVICE_CAUSE_GRANT_UNREAD, /* its Developer Tools state could not be read */
	ADVICE_CAUSE_WATCHER,      /* a penalty off macOS: what watches exec */
	ADVICE_CAUSE_CHECKER       /* the checker itself is sick (struct advice_checker),
				    * whatever the probe measured on it */
};

/* A step to take: do: lines, and the fixes for a hang. */
enum advice_do {
	ADVICE_DO_NOTHING,        /* nothing needs doing */
	ADVICE_DO_NOTHING_SIM,    /* nothing here: measure without the simulator */
	ADVICE_DO_NOTHING_GATE,   /* nothing: measure without the gate */
	ADVICE_DO_MEASURE_MORE,   /* measure again, with more launches */
	ADVICE_DO_HANG_FIXES,     /* try the fixes in order */
	ADVICE_DO_FIND_HOLDER,    /* find what holds a launch, exclude the folder */
	ADVICE_DO_TERMINAL,       /* run in a terminal on the Mac itself */
	ADVICE_DO_GRANT,          /* make app a Developer Tool */
	ADVICE_DO_REGRANT,        /* remove app from Developer Tools, add it again */
	ADVICE_DO_RESTART_MUX,    /* restart app's server from a granted terminal */
	ADVICE_DO_NEW_TMUX,       /* a new tmux session from a window of app */
	ADVICE_DO_KILL_TMUX,      /* then end the tmux server and start it anew */
	ADVICE_DO_TRY_TERMINAL,   /* where VS Code's terminal still pays: Terminal */
	ADVICE_DO_REPORT,         /* measure, and make feedback for a report */
	ADVICE_DO_AS_ROOT,        /* name the fanotify listeners as root */
	ADVICE_DO_EXCLUDE,        /* exclude the build folder in that scanner */
	ADVICE_DO_RELIEF,         /* the checker's relief, then make doctor again */
	ADVICE_FIX_NONE,          /* none needed: it wedged on purpose */
	ADVICE_FIX_SCANNER,       /* off macOS: a scanner holds it */
	ADVICE_FIX_COPY,          /* run a copy at a new path */
	ADVICE_FIX_LOAD,          /* stop the load that floods syspolicyd */
	ADVICE_FIX_KILL,          /* sudo killall syspolicyd */
	ADVICE_FIX_REBOOT         /* restart the Mac */
};

#define ADVICE_NEEDS_ADMIN 1u  /* an administrator's password */
#define ADVICE_NEEDS_REBOOT 2u /* a restart of the machine */

struct advice_step {
	enum advice_do what;
	const char *app;       /* the app or program it names, or NULL */
	advice_sources source; /* its public sources */
	unsigned needs;        /* ADVICE_NEEDS_*; 0: neither */
};

/* What the way the kit was started means for the verdicts (report.md's
 * "How the kit was started"). */
enum advice_fact_kind {
	ADVICE_FACT_OFF_MAC,        /* not macOS: it does not matter */
	ADVICE_FACT_SSH,
	ADVICE_FACT_LAUNCHD,
	ADVICE_FACT_MAYBE_LAUNCHD,  /* no terminal and no label: maybe a job */
	ADVICE_FACT_TMUX,
	ADVICE_FACT_SCREEN,
	ADVICE_FACT_ZELLIJ,
	ADVICE_FACT_MUX_RESPONSIBLE,
	ADVICE_FACT_VSCODE,
	ADVICE_FACT_TERMINAL,       /* a plain terminal */
	ADVICE_FACT_NOT_GRANTED,
	ADVICE_FACT_GRANTED,
	ADVICE_FACT_ALACRITTY,      /* granted, and still paid on 26.x */
	ADVICE_FACT_GRANT_UNREAD,
	ADVICE_FACT_SIP_OFF
};

struct advice_fact {
	enum advice_fact_kind what;
	advice_sources source;
};

/* The unified log's lines of a hung configuration's window: those that
 * name the hung program and the kernel's ASP lines, at most 5 of each, in
 * their order. */
struct advice_log {
	int looked;     /* there was a hung launch to look for */
	int read;       /* the excerpt could be read */
	char *prog;     /* the hung program's name */
	long lines;     /* the excerpt's lines */
	int named, asp; /* of the lines kept */
	struct {
		char *image, *message; /* image NULL when the line names none */
	} line[ADVICE_LOG_LINES];
	int n_lines;
};

/* The whole advice of a run. */
struct advice {
	struct advice_setting where;
	struct advice_checker checker;
	struct advice_probe probe;
	const char *run_id; /* the run make compare takes as A */
	struct advice_cost cost;
	struct advice_queue queue;
	struct advice_projection projection;
	enum advice_cause cause;
	advice_sources cause_source;
	/* on a Mac, SIP on and the app not a Developer Tool: where public
	 * reports see a new program pay */
	int cost_expected;
	struct advice_step step[ADVICE_STEPS]; /* what to do, in order */
	int n_steps;
	struct advice_step fix[ADVICE_STEPS];  /* a hang's fixes, in order */
	int n_fixes;
	struct advice_fact fact[ADVICE_FACTS]; /* how the kit was started */
	int n_facts;
	struct advice_log log;
};

/* ---- filling it (advice_model.c) --------------------------------------------------- */

/* The conditions of a run.json object, for advice_get: pass it with the
 * object json_object_get(run, "conditions"). */
const char *advice_json_get(const void *conditions, const char *key);

/* The setting from conditions read through GET, and how the kit was
 * started; the rest of *a empty (an unclear probe of no case). */
void advice_of_setting(struct advice *a, advice_get get, const void *ctx);

/* The case NAME of a run.json (NULL: exe, else the run's first case) and
 * its verdict, penalty, pairs and hang into *p; returns the case, or NULL
 * when the run has none (then p says unclear, "the run has no such case"). */
const json_t *advice_probe_of_run(const json_t *run, const char *name, struct advice_probe *p);

/* The whole advice of a run.json, of the case NAME as advice_probe_of_run
 * takes it; returns that case, or NULL. */
const json_t *advice_of_run(struct advice *a, const json_t *run, const char *name);

/* The advice of a probe given by hand (make measure's) under conditions
 * read through GET. */
void advice_of_probe(struct advice *a, advice_get get, const void *ctx, const struct advice_probe *p);

/* The log lines of a hang in run folder DIR (raw/CONFIG.log.ndjson),
 * into a->log; nothing where there is no hung launch. */
void advice_read_log(struct advice *a, const char *dir);

/* What advice_read_log kept. */
void advice_free(struct advice *a);

/* The suite case's projection of a run.json at the most jobs it has one
 * for; with JOBS_KNOWN only runs of 1 job or more count. */
struct advice_projection advice_projection_of(const json_t *run, int jobs_known);

/* make doctor's exit status for a verdict: 0 none, 1 penalty, 3 unclear,
 * 4 hang. */
int advice_exit_status(enum advice_verdict v);

/* make doctor's exit status for the whole advice: the checker's state
 * first (5 exhausted, 6 storm, 4 hung), else the verdict's. */
int advice_doctor_status(const struct advice *a);

#endif
