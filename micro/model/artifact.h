/* artifact.h - one new file launch runs, as the manifest lists it
 * (docs/formats.md, "Manifest"; manifest.c reads it): the file, and the
 * argv that launches it.  A type only. */
#ifndef EXECLAG_ARTIFACT_H
#define EXECLAG_ARTIFACT_H

struct artifact {
	char *object;
	char **argv;
	/* NULL, or the file launch makes object a hard link to just before
	 * its first launch (the manifest's link_from: exe-freshlink); the
	 * manifest owns it */
	const char *link_from;
};

#endif
