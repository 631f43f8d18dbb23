/* procstate.h - what a process is doing, read without root: the evidence
 * launch keeps of a launch that passed its bound (docs/method.md, "When the
 * checker hangs").  Linux reads /proc/PID/stat and /proc/PID/wchan;
 * elsewhere (macOS) `ps -o stat=,time=,wchan= -p PID`, with a bound of
 * its own so that the reading never waits for ever. */
#ifndef EXECLAG_PROCSTATE_H
#define EXECLAG_PROCSTATE_H

#include <stdio.h>

struct procstate {
	char state[16];  /* "D", "S", "R", "U"...; "?" when unknown */
	double cpu_s;    /* user + system time; -1 when unknown */
	char wchan[64];  /* where it waits in the kernel; "-" when the system shows none */
	char how[16];    /* "proc" or "ps": where the reading came from */
};

/* out with every field unknown, read by how ("proc" or "ps"): where
 * procstate_read starts, on every platform. */
static inline void procstate_unknown(struct procstate *out, const char *how)
{
	out->state[0] = '?';
	out->state[1] = '\0';
	out->wchan[0] = '-';
	out->wchan[1] = '\0';
	snprintf(out->how, sizeof out->how, "%s", how);
	out->cpu_s = -1;
}

/* Read process pid into out (every field filled, unknowns marked);
 * 0, or -1 when nothing could be read (gone, or no ps). */
int procstate_read(long pid, struct procstate *out);

/* The calling thread's id as procstate_child takes it (Linux: its tid;
 * elsewhere 0). */
long procstate_thread(void);

/* A child of this process that thread (procstate_thread's) is still
 * starting: posix_spawn on Linux (vfork) does not return before the
 * child's execve has passed the checks, so a child held in execve has no
 * pid for its launcher yet.  Linux: /proc/self/task/TID/children, else
 * any child of this process not in known[0..n); elsewhere `ps -A -o
 * pid=,ppid=` (bounded).  Returns the pid, or -1 when none is found. */
long procstate_child(long thread, const long *known, int n);

#endif
