/* makers.h - a kind's maker: how mkfresh makes the artifacts of each kind
 * of cases/kinds (kinds.h), one row a kind in makers.c.
 *
 * A maker makes artifacts mk.first .. mk.first+count-1 of the run
 * (mkrun.h), each a new file directly in WORKDIR.  Most kinds are one of
 * two shapes:
 *   - new files (fresh.c): a script, a compiled program, a library, each
 *     with bytes of its own;
 *   - a placement (place.c): each artifact put in place from one program
 *     launched before (the run's base, /bin/echo) by the row's place
 *     function, as a build tool puts its output in place: a copy, a hard
 *     link, a new file renamed over a launched one.
 * Some placements change a launched file in place (overwrite, samebytes,
 * touch): they write the one file the measurement's rule keeps from
 * writing, because that is what they measure (newfile.h).
 * A new kind is a row of cases/kinds, its case file, a row in makers.c
 * and, where no maker fits, a maker here; a new placement is a place
 * function (place.c) on the row { from_base, place_X }.
 *
 * The measurement's rule holds for every maker: nothing opens, reads or
 * stats an artifact between its last write and its first timed launch
 * (newfile.h; docs/method.md). */
#ifndef EXECLAG_MAKERS_H
#define EXECLAG_MAKERS_H

#include "kinds.h"

/* Put one artifact at slot (which must not exist) from src, a program
 * launched before. */
typedef void place_fn(const char *src, const char *slot);

/* Make count artifacts; place: the row's placement (NULL for new files). */
typedef void make_fn(place_fn *place, long count);

/* How an artifact is launched, as its manifest line says
 * (docs/formats.md): itself, by /bin/sh (it is only read), by the run's
 * host, which opens it (a library), or itself through a hard link to the
 * base that launch makes just before its first launch (the manifest's
 * link_from). */
enum runner { BY_ITSELF, BY_SH, BY_HOST, BY_FRESH_LINK };

struct maker {
	make_fn *make;
	place_fn *place;
	const char *ext;        /* the artifact's name's ending: "", ".sh", LIB_EXT */
	enum runner runner;
};

/* The maker of kind k; exit 1 for a row with none. */
const struct maker *maker_of(enum kind k);

/* New files (fresh.c). */
make_fn make_scripts;           /* #!/bin/sh scripts, each with its nonce */
make_fn make_exes;              /* compiled programs */
make_fn make_quarantined;       /* compiled programs with com.apple.quarantine */
make_fn make_dylibs;            /* the host, launched once, then libraries */
make_fn make_assessed;          /* compiled programs, each assessed before its launch */

/* Placements (place.c): the source, then each artifact placed from it. */
make_fn from_base;              /* PREFIX-base, compiled and launched once */
make_fn from_system;            /* /bin/echo (platform-signed code) */
place_fn place_copy;            /* a copy: a new inode, new path */
place_fn place_hardlink;        /* a hard link: the same inode */
place_fn place_rewrite;         /* launched at its path, then a new file renamed over it */
place_fn place_clone;           /* a clone (clonefile, FICLONE): a new inode, shared blocks */
place_fn place_freshlink;       /* nothing yet: launch links it just before its launch */
place_fn place_samebytes;       /* a launched copy, the same bytes written over it */
place_fn place_touch;           /* a launched copy, its modification time set */
make_fn make_overwrites;        /* launched copies of the base, new bytes written into each */

#endif
