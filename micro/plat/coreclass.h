/* coreclass.h - run the launching thread, and its children, on one class of
 * cores.  "all" leaves scheduling alone; "P" and "E" exist where the machine
 * has two classes (Apple silicon through QoS, Linux hybrid CPUs through
 * affinity).  One implementation file per platform. */
#ifndef EXECLAG_CORECLASS_H
#define EXECLAG_CORECLASS_H

#include <spawn.h>
#include <stddef.h>

/* Write the space-separated classes this machine offers ("all" or
 * "all P E") into buf. */
void coreclass_available(char *buf, size_t len);

/* 0 if cls can be used here, else -1 with a reason in why. */
int coreclass_check(const char *cls, char *why, size_t whylen);

/* Put the calling thread on cls; 0 or an errno value. */
int coreclass_enter(const char *cls);

/* Ask, through attr, for the child to run on cls; 0 or an errno value. */
int coreclass_spawnattr(posix_spawnattr_t *attr, const char *cls);

#endif
