/* mkrun.h - the run mkfresh makes: what every maker is told, set once by
 * mkfresh's main from its command line before any artifact is made, and
 * the names of the run's files.
 *
 * Every artifact is a file directly in WORKDIR named PREFIX-NNNN (+ its
 * kind's ending: ".sh", LIB_EXT); a base or host is PREFIX-base,
 * PREFIX-host.  Artifacts that carry a nonce differ in their bytes. */
#ifndef EXECLAG_MKRUN_H
#define EXECLAG_MKRUN_H

#include "kinds.h"

#if defined(__APPLE__)
#define LIB_EXT ".dylib"
#else
#define LIB_EXT ".so"
#endif

/* mkfresh's exit status for a kind this machine cannot make (exe-clone
 * where the file system has no clones): "n/a", with the reason. */
#define EXIT_NA 5

/* --payload: what a payload kind's artifact does when it runs. */
enum payload { P_OK, P_KILL, P_FAIL };

/* What a compiled unit is: an artifact's program, a library (the dylib
 * kind's artifacts), the host program that opens the libraries. */
enum unit { U_EXE, U_LIB, U_HOST };

struct mkrun {
	enum kind kind;         /* --kind */
	enum payload payload;   /* --payload */
	const char *prefix;     /* --prefix: 1-200 of A-Z a-z 0-9 . _ - */
	char *workdir;          /* the real path of --dir */
	char **cc_argv;         /* the compiler, $CC split at blanks (compiled kinds) */
	int cc_argc;
	int quarantine;         /* set com.apple.quarantine on each program */
	long pad_bytes;         /* --size: random bytes in each compiled program */
	long first;             /* --first: the index of the first artifact made */
	long njob;              /* --jobs: compilers at once */
	int simulated;          /* --simulated: for a run that launches nothing */
	int from_template;      /* --template: a real run's artifacts from a template */
};

extern struct mkrun mk;

/* PREFIX-NNNN, artifact i's name without its ending (malloc'd). */
char *slot_stem(long i);

/* WORKDIR/PREFIX-NNNN followed by ext (malloc'd). */
char *slot_path(long i, const char *ext);

/* WORKDIR/PREFIX-what: the base or host of the run (malloc'd). */
char *run_path(const char *what);

/* A string unique to this artifact: its stem, pid, wall and monotonic
 * clock, and a counter (malloc'd).  The prefix is restricted to
 * [A-Za-z0-9._-], so the nonce can be put in a C string literal or a shell
 * comment as it is. */
char *make_nonce(const char *stem);

/* The base or host a run before this one (--first) made: there, or exit 2
 * (the artifacts that follow cannot be made like the ones before). */
void made_before(const char *path);

/* Sleep ms milliseconds (a wait's poll step). */
void mk_sleep_ms(long ms);

#endif
