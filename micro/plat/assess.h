/* assess.h - a program assessed before its launch, apart from it (the
 * exe-assessed case, docs/remedies.md "Assessed first"): on macOS
 * `spctl -a -t exec PATH`, then `gktool scan PATH` where /usr/bin/gktool
 * exists (assess_darwin.c); elsewhere the whole file read (assess_other.c),
 * which on Linux tells a checker of opens from one of execs.  Each step
 * timed on its own; none of them is a launch the kit times. */
#ifndef EXECLAG_ASSESS_H
#define EXECLAG_ASSESS_H

/* One step: its name ("spctl", "gktool", "read"), how long it took in ms,
 * and its status: the tool's exit status (128 + a signal; 124 when it
 * passed its bound and was killed), an errno value for the read, or -1
 * when the tool is absent (not run). */
struct assess_step {
	const char *tool;
	double ms;
	int status;
};

#define ASSESS_MAX_STEPS 2

/* Assess path, each step bounded by bound_s seconds: the steps into out;
 * returns how many. */
int assess_file(const char *path, double bound_s, struct assess_step out[ASSESS_MAX_STEPS]);

#endif
