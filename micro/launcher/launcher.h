/* launcher.h - how launch (and suite) get their times: one small interface,
 * two backends.
 *
 *   spawn  posix_spawn + waitpid on the monotonic clock, child output to
 *          /dev/null: the only backend a real run uses (launcher_spawn.c)
 *   sim    a seeded model of a first-launch checker that launches nothing
 *          and writes the same samples (launcher_sim.c, sim.h)
 *
 * A backend runs one pass over a block: T threads start together and
 * thread t launches the block's artifacts lo + t, lo + t + T, ... in
 * order, each once. */
#ifndef EXECLAG_LAUNCHER_H
#define EXECLAG_LAUNCHER_H

#include <signal.h>
#include <stdint.h>

#include "artifact.h"

struct launch_sample {
	uint64_t start_ns; /* when the launch started, from launch's start */
	uint64_t dur_ns;
	int exit_status;   /* -1 when signalled or not spawned */
	int signal;
	int spawn_errno;
	int thread;
	int done;
	/* hang: the launch passed the launcher's bound (hang_s) and was
	 * killed; the evidence was read just before the kill (procstate.h) */
	int hang;
	int unkillable;     /* the killed child was not reaped in HANG_REAP_S */
	long pid;
	char state[16];     /* "?" unknown; "sim" on the simulator */
	double cpu_s;       /* -1 unknown */
	char wchan[64];     /* "-" where the system shows none */
};

/* After a hung launch is killed, how long the launcher waits for it to go
 * before it gives up on it (a child stuck in the kernel may not die from
 * SIGKILL): the kit says so, keeps its pid, and goes on. */
#define HANG_REAP_S 2

/* One pass's outcome: its wall time, from the threads' release to the end
 * of its last launch, and the machine's idle and total CPU time meanwhile
 * (in cpuidle.h's ticks; total 0 when unknown). */
struct pass_time_ns {
	uint64_t wall_ns;
	double idle_ticks, total_ticks;
};

struct launcher;

struct launcher_ops {
	/* Launch arts[lo .. hi) (or, with only, that one artifact in each
	 * slot: the reference pass, outside the work folder) with the
	 * launcher's T threads, into out[lo .. hi). */
	struct pass_time_ns (*pass)(struct launcher *l, const struct artifact *arts,
				    const struct artifact *only, struct launch_sample *out,
				    long lo, long hi);
	/* One untimed launch (the reference's warm-up); its sample in out. */
	void (*warm)(struct launcher *l, const struct artifact *a, struct launch_sample *out);
	void (*close)(struct launcher *l);
};

struct launcher {
	const struct launcher_ops *ops;
	int threads;
	long cpus;            /* the CPUs the launches share (samples' meta cpus) */
	const char *cls;      /* core class of the threads and children */
	uint64_t t_base;      /* launch's start, for start_ns */
	volatile sig_atomic_t *interrupted; /* set by a signal: stop between launches */
	/* the bound of one timed launch in seconds (0: none); a launch past it
	 * is a hang: killed, with its evidence */
	double hang_s;
	/* spawn: the command that samples the checking services
	 * (scripts/probe/services), run as CMD record FILE before at half the
	 * bound of the first launch that passes it and CMD record FILE after
	 * just before its kill; NULL: none */
	const char *services_cmd, *services_out;
	int hangs;            /* launches killed at the bound so far */
	int unkillable;       /* of them, not reaped */
};

/* The spawn backend with T threads on core class cls (checked before),
 * each launch bounded by hang_s seconds (> 0); the services command may be
 * set in the result before its first pass. */
struct launcher *launcher_spawn(int threads, const char *cls, uint64_t t_base,
				volatile sig_atomic_t *interrupted, double hang_s);

/* The sim backend: spec is the part after "sim:" (sim.h); kind the
 * manifest's kind, stream a name that makes this configuration's draws its
 * own.  Exits 2 with one line on a bad spec or a kind it has no model of. */
struct launcher *launcher_sim(const char *spec, const char *kind, const char *stream,
			      int threads, double size_mib);

/* launcher_sim of settings sim_parse has read (sim.h's struct sim_params). */
struct sim_params;
struct launcher *launcher_sim_params(const struct sim_params *p, const char *kind,
				     const char *stream, int threads, double size_mib);

/* "spawn", or "sim:SETTINGS" with every setting (what conditions record). */
const char *launcher_describe(const struct launcher *l);

#endif
