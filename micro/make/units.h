/* units.h - the compiled kinds' units (an artifact's program, a library, a
 * base, a host): each compiled (compile.h), or made from a template.
 *
 * --simulated: the artifacts are for a simulated run (launch --launcher
 * sim:...), which launches none of them, so none waits for a compiler of
 * its own: each compiled kind's program (or library) is compiled once, as
 * a template whose nonce is a placeholder, and every artifact is the
 * template's bytes with its own nonce written over the placeholder (and
 * its own padding over the template's): about the same size, unique
 * bytes, no compiler per artifact; with EXECLAG_TEMPLATES (a folder) the
 * templates are kept there for the next mkfresh of the same shape
 * (tmplstore.h).
 *
 * --template: a real run's compiled artifacts (exe, the dylib's libraries)
 * made from a template as --simulated makes them, so that make doctor's
 * probe spends its seconds launching, not compiling (docs/method.md, "make
 * doctor's probe").  Each artifact is a new file with bytes of its own
 * (nonce, padding, GNU build ID), written and renamed into place as a
 * compiler's output is.  A base or a host is still compiled as without it.
 *
 * Neither on macOS, where the linker signs what it builds and a program
 * whose bytes changed after is killed at its launch (docs/macos.md §7):
 * there each is compiled. */
#ifndef EXECLAG_UNITS_H
#define EXECLAG_UNITS_H

#include <stddef.h>

#include "mkrun.h"

/* Units of kind u for artifacts mk.first .. mk.first+n-1, at most njob
 * compilers at once: compiled one by one, or for a simulated run or with
 * --template from a template. */
void make_units(long n, enum unit u, long njob);

/* Linux: the units of kind u for artifacts mk.first .. mk.first+n-1 made
 * in memory from one template, each handed to put (its index, its bytes),
 * never a file of its own: exe-overwrite writes them into launched files,
 * and no open of the new bytes comes before their launch (a checker of
 * opens, as ClamAV's clamonacc, would check them there and pass them at the
 * launch).  0, or -1 where there is no template (macOS: never), having
 * made none. */
typedef void unit_put(void *ctx, long i, const char *bytes, size_t len);
int units_in_memory(long n, enum unit u, unit_put *put, void *ctx);

/* One unit of kind u named stem (a base, a host): compiled, or for a
 * simulated run from a template as the artifacts are. */
void make_unit(enum unit u, const char *stem);

/* The run's unit of kind u named PREFIX-what (a base, a host), made and
 * launched once (prelaunch.h; not for a simulated run), or the one the run
 * before made (--first); its path (malloc'd). */
char *launched_unit(enum unit u, const char *what);

/* Where that unit is or will be: the run's shared base where its placements
 * share one (EXECLAG_SHARED_BASE=1), else this run's own (malloc'd). */
char *launched_unit_path(const char *what);

#endif
