/* mkmanifest.h - the manifest mkfresh writes (docs/formats.md; its reader
 * is micro/fmt/manifest.c): what was made and how launch runs it, written
 * atomically once everything is made, or not at all. */
#ifndef EXECLAG_MKMANIFEST_H
#define EXECLAG_MKMANIFEST_H

#include "makers.h"

/* Open the manifest's temporary file beside path (exit 2 where it cannot
 * be written). */
void mkmanifest_open(const char *path);

/* The manifest of artifacts 0 .. n-1 of case case_name made by maker m,
 * committed to its path (exit 1 where it cannot be). */
void mkmanifest_write(const char *case_name, const struct maker *m, long n);

/* The path of a file beside the manifest: its path followed by suffix
 * (malloc'd). */
char *mkmanifest_beside(const char *suffix);

/* Remove the temporary file of a manifest not written (the exit handler). */
void mkmanifest_abort(void);

#endif
