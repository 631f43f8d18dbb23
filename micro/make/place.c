/* place.c - the placements (makers.h): each artifact put in place from one
 * program launched before, as a build tool puts its output in place.
 *
 * A placement is a place_fn: it puts one artifact at slot (which must not
 * exist yet) from src, with newfile.h's calls, so that the run removes it
 * on failure and nothing reads the artifact after its last write.  One
 * that must launch the artifact before changing it (as a build that
 * relinks a program that ran) does so with prelaunch(slot), never for a
 * simulated run (mk.simulated), which launches nothing while making. */
#define _POSIX_C_SOURCE 200809L
#include "makers.h"
#include "made.h"
#include "mkrun.h"
#include "newfile.h"
#include "prelaunch.h"
#include "units.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>

/* Each artifact of the run placed from src. */
static void place_each(place_fn *place, const char *src, long count)
{
	long i;

	for (i = mk.first; i < mk.first + count; i++) {
		char *slot = slot_path(i, "");

		stop_if_interrupted();
		place(src, slot);
		free(slot);
	}
}

/* From PREFIX-base, one program compiled and launched once (with --first
 * the run before made and launched it: it is used as it is). */
void from_base(place_fn *place, long count)
{
	char *base = launched_unit(U_EXE, "base");

	place_each(place, base, count);
	free(base);
}

/* From /bin/echo (or /usr/bin/echo): platform-signed code. */
void from_system(place_fn *place, long count)
{
	static const char *const cand[] = { "/bin/echo", "/usr/bin/echo" };
	size_t i;

	for (i = 0; i < sizeof cand / sizeof cand[0]; i++)
		if (is_exec_file(cand[i])) {
			place_each(place, cand[i], count);
			return;
		}
	die(EXIT_FAIL, "no /bin/echo or /usr/bin/echo to copy");
}

/* A copy, written to slot.tmp and renamed into place: a new inode. */
void place_copy(const char *src, const char *slot)
{
	char *tmp = xasprintf("%s.tmp", slot);

	newfile_refuse(slot);
	newfile_copy(src, tmp, 0755);
	newfile_publish(tmp, slot);
	free(tmp);
}

/* A hard link to src: the same inode, a new path. */
void place_hardlink(const char *src, const char *slot)
{
	newfile_link(src, slot);
}

/* A hard link to src (launched before, so a cache keyed by inode or
 * content knows it and only a path-keyed one checks it again), launched at
 * the slot's path, then replaced by a new file with the same bytes (rename
 * over it: new inode, same path).  The launched inode stays linked as src
 * until WORKDIR goes, so its inode number cannot be given to a later file
 * of the run (Linux reuses them).  Linking instead of copying spares a
 * penalty per slot while it is made: N checks of L each on a machine that
 * pays L per new inode. */
void place_rewrite(const char *src, const char *slot)
{
	char *nw = xasprintf("%s.new", slot);

	newfile_link(src, slot);
	if (!mk.simulated)
		prelaunch(slot);
	newfile_copy(src, nw, 0755);
	if (rename(nw, slot) != 0)
		die(EXIT_FAIL, "cannot rename %s to %s:", nw, slot);
	free(nw);
}
