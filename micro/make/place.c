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
#include "clonefile.h"
#include "made.h"
#include "mkrun.h"
#include "newfile.h"
#include "prelaunch.h"
#include "units.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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

/* Whether a clone call's errno says the file system (or the platform) has
 * no clones, rather than that something failed. */
static int clone_unsupported(int e)
{
	return e == EOPNOTSUPP || e == ENOTSUP || e == EXDEV || e == ENOTTY || e == ENOSYS ||
	       e == EINVAL;
}

/* A clone of src (clonefile.h), made at slot.tmp and renamed into place:
 * a new inode sharing src's blocks.  Where the file system has none, the
 * case cannot be made here: n/a with the call's reason, exit 5. */
void place_clone(const char *src, const char *slot)
{
	char *tmp = xasprintf("%s.tmp", slot);
	const char *call;
	int e;

	newfile_refuse(slot);
	made_track(tmp);
	if (clone_file(src, tmp, &call) != 0) {
		e = errno;
		made_untrack_last();
		errno = e;
		if (clone_unsupported(e))
			die(EXIT_NA, "n/a: %s cannot be made here: %s:", kind_table[mk.kind].name, call);
		die(EXIT_FAIL, "cannot clone %s to %s: %s:", src, tmp, call);
	}
	newfile_publish(tmp, slot);
	free(tmp);
}

/* Nothing yet: launch makes slot a hard link to src just before its first
 * launch (the manifest's link_from line), as a build tool links its output
 * moments before it runs. */
void place_freshlink(const char *src, const char *slot)
{
	(void)src;
	newfile_refuse(slot);
}

/* A copy of src at slot, launched there (not for a simulated run): a file
 * a checker has seen by its inode, its path and its times, which the
 * placements below then change in place. */
static void launched_copy(const char *src, const char *slot)
{
	place_copy(src, slot);
	if (!mk.simulated)
		prelaunch(slot);
}

/* New bytes written into a launched program: the same inode at the same
 * path, as a linker that updates its output in place.  Each slot is a copy
 * of the base, launched, and then each artifact's own program written into
 * it: from memory where there is a template (Linux: units_in_memory, so that
 * no open of the new bytes comes before the launch, as a linker writes them
 * from memory), else compiled first at the slot and moved aside to slot.new,
 * whose bytes are copied in (macOS, where a program is compiled to be
 * signed: docs/remedies.md). */
static void overwrite_slot(void *base, long i, const char *bytes, size_t len)
{
	char *slot = slot_path(i, "");

	launched_copy(base, slot);
	newfile_overwrite(slot, bytes, len);
	free(slot);
}

void make_overwrites(place_fn *place, long count)
{
	char *base = launched_unit(U_EXE, "base");
	long i;

	(void)place;
	if (units_in_memory(count, U_EXE, overwrite_slot, base) == 0) {
		free(base);
		return;
	}
	make_units(count, U_EXE, mk.njob);
	for (i = mk.first; i < mk.first + count; i++) {
		char *slot = slot_path(i, ""), *nw = slot_path(i, ".new");

		stop_if_interrupted();
		made_track(nw);
		if (rename(slot, nw) != 0)
			die(EXIT_FAIL, "cannot rename %s to %s:", slot, nw);
		launched_copy(base, slot);
		newfile_rewrite(slot, nw);
		if (unlink(nw) != 0)
			die(EXIT_FAIL, "cannot remove %s:", nw);
		free(slot);
		free(nw);
	}
	free(base);
}

/* The same bytes written over the launched slot, as a build that rewrites
 * an output that did not change: only its times are new. */
void place_samebytes(const char *src, const char *slot)
{
	launched_copy(src, slot);
	newfile_rewrite(slot, src);
}

/* The launched slot's modification time alone set to now, as touch(1). */
void place_touch(const char *src, const char *slot)
{
	launched_copy(src, slot);
	newfile_touch(slot);
}
