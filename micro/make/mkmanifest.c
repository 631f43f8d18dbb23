/* mkmanifest.c - the manifest mkfresh writes (mkmanifest.h). */
#define _POSIX_C_SOURCE 200809L
#include "mkmanifest.h"
#include "made.h"
#include "mkrun.h"
#include "units.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static struct atomic_file manifest;
static int manifest_open;
static const char *manifest_path; /* --manifest, for messages */

void mkmanifest_open(const char *path)
{
	manifest_path = path;
	if (atomic_open(&manifest, path) != 0) {
		char *dir = parent_dir(path);

		die_if_full(EXIT_FAIL, dir);
		die(EXIT_USAGE, "cannot write manifest %s:", path);
	}
	manifest_open = 1;
}

char *mkmanifest_beside(const char *suffix)
{
	return xasprintf("%s%s", manifest_path, suffix);
}

void mkmanifest_abort(void)
{
	if (manifest_open) {
		manifest_open = 0;
		atomic_abort(&manifest);
	}
}

/* The size of an artifact's new file (make measure compares its command's
 * programs with it); stat reads no byte of it. */
static void bytes_line(FILE *f, const struct maker *m)
{
	char *obj0 = slot_path(0, m->ext);
	struct stat st;

	if (stat(obj0, &st) == 0 && S_ISREG(st.st_mode))
		fprintf(f, "bytes\t%lld\n", (long long)st.st_size);
	free(obj0);
}

/* Artifact i's line: its index, its path, what is launched and its
 * arguments (the artifact itself, /bin/sh, the host). */
static void artifact_line(FILE *f, const struct maker *m, long i, const char *host)
{
	char *obj = slot_path(i, m->ext);

	switch (m->runner) {
	case BY_SH:
		fprintf(f, "artifact\t%ld\t%s\t/bin/sh\t%s\n", i, obj, obj);
		break;
	case BY_HOST:
		fprintf(f, "artifact\t%ld\t%s\t%s\t%s\n", i, obj, host, obj);
		break;
	case BY_FRESH_LINK:
	case BY_ITSELF:
	default:
		fprintf(f, "artifact\t%ld\t%s\t%s\n", i, obj, obj);
		break;
	}
	free(obj);
}

void mkmanifest_write(const char *case_name, const struct maker *m, long n)
{
	FILE *f = manifest.fp;
	char *host = run_path("host");
	long i;

	fprintf(f, "execlag-manifest\t1\ncase\t%s\nkind\t%s\nn\t%ld\n"
		"workdir\t%s\n", case_name, kind_table[mk.kind].name, n, mk.workdir);
	if (mk.pad_bytes > 0)
		fprintf(f, "pad\t%ld\n", mk.pad_bytes);
	if (mk.payload != P_OK)
		fprintf(f, "payload\t%s\n", mk.payload == P_KILL ? "kill" : "fail");
	if (m->runner == BY_FRESH_LINK) {
		char *base = launched_unit_path("base");

		fprintf(f, "link_from\t%s\n", base);
		free(base);
	}
	bytes_line(f, m);
	for (i = 0; i < n; i++)
		artifact_line(f, m, i, host);
	free(host);
	stop_if_interrupted();
	manifest_open = 0;
	if (atomic_commit(&manifest) != 0) {
		char *dir = parent_dir(manifest_path);

		die_if_full(EXIT_FAIL, dir);
		die(EXIT_FAIL, "cannot write the manifest %s:", manifest_path);
	}
}
