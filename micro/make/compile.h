/* compile.h - the compiled kinds' units, each built by the C compiler
 * (CC) from its own source (csource.h) in WORKDIR, at most --jobs at once,
 * written to STEM.tmp and renamed into place as STEM (STEM.so/.dylib for a
 * library).  The compiler's output is never opened or statted: chmod tells
 * whether it is there (docs/method.md). */
#ifndef EXECLAG_COMPILE_H
#define EXECLAG_COMPILE_H

#include "mkrun.h"

/* The compiler: cc (--cc, else $CC, else "cc") split at blanks into
 * mk.cc_argv, found on PATH; else exit 2. */
void compile_setup(const char *cc);

/* Compile n units of kind u, at most njob at once.  stem_one names a
 * single unit (a base, a host, a template); otherwise unit i is artifact
 * mk.first + i.  nonce: the one every unit carries (a template's
 * placeholder), or NULL for a nonce of each unit's own. */
void compile_units(long n, enum unit u, long njob, const char *stem_one, const char *nonce);

/* Stop the running compilers before their files are removed (the exit
 * handler): a compiler of these tiny sources is let finish (5 s, 1 s once
 * interrupted); one that hangs is ended, SIGTERM to its process group,
 * then SIGKILL. */
void compile_stop(void);

#endif
