/* cpuidle.h - the machine's idle and total CPU time so far, in ticks, so a
 * pass can tell whether any core was idle while it ran: where none was, a
 * pass that does not scale says nothing about a serialised checker.  One
 * implementation file per platform. */
#ifndef EXECLAG_CPUIDLE_H
#define EXECLAG_CPUIDLE_H

#include <stdint.h>

/* 0 with *idle and *total (all CPUs, in the clock ticks of the platform,
 * 10 ms on Linux), or -1 where unknown. */
int cpuidle_read(uint64_t *idle, uint64_t *total);

/* The CPUs online, for turning the idle fraction into idle cores. */
long cpuidle_cpus(void);

/* Fewest ticks in a pass for its idle fraction to mean something: a tick is
 * 10 ms of one CPU, and each reading is off by up to one. */
#define CPUIDLE_MIN_TICKS 20

#endif
