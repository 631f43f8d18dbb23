/* manifest.h - the manifest (docs/formats.md): what mkfresh made and how
 * launch runs it.  This is its only reader. */
#ifndef EXECLAG_MANIFEST_H
#define EXECLAG_MANIFEST_H

#include "artifact.h"

struct manifest {
	char *kase, *kind;
	long n;
	long pad;   /* bytes of padding in each artifact (mkfresh --size) */
	struct artifact *art;
};

/* Read path into m; a file that is not a manifest exits 2 with
 * "PATH:LINE: corrupt manifest: WHY". */
void manifest_read(const char *path, struct manifest *m);
void manifest_free(struct manifest *m);

#endif
