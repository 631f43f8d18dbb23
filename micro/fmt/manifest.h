/* manifest.h - the manifest (docs/formats.md): what mkfresh made and how
 * launch runs it.  This is its only reader (launch, simrate; measure reads
 * the probe's program size through manifest_sizes). */
#ifndef EXECLAG_MANIFEST_H
#define EXECLAG_MANIFEST_H

#include "artifact.h"

struct manifest {
	char *kase, *kind;
	long n;
	long pad;   /* bytes of padding in each artifact (mkfresh --size) */
	char *link_from; /* NULL, or every object's hard link's target, made at its launch */
	int payload_kill; /* 1: the artifacts kill themselves (mkfresh --payload kill) */
	struct artifact *art;
};

/* Read path into m; a file that is not a manifest exits 2 with
 * "PATH:LINE: corrupt manifest: WHY". */
void manifest_read(const char *path, struct manifest *m);

/* The sizes a manifest's head gives (before its first artifact): the
 * padding in each artifact (0 when none) and the size of artifact 0's new
 * file (-1 when the head has no bytes line: older manifests).  0, or -1
 * when PATH cannot be read or is not a manifest (make measure's probe
 * compares its command's programs with this; nothing dies). */
int manifest_sizes(const char *path, long *pad, long *bytes);
void manifest_free(struct manifest *m);

#endif
