/* fuzz/manifest.c - the manifest reader (micro/fmt/manifest.c), the one launch
 * runs, for scripts/tool/fuzz:
 *   manifest FILE
 * A refusal is exit 2, as in launch; only a crash or a sanitizer finding
 * is a fault. */
#define _POSIX_C_SOURCE 200809L
#include "manifest.h"
#include "util.h"

#include <string.h>

int main(int argc, char **argv)
{
	struct manifest m;
	size_t len = 0;
	long i;
	char **a;

	progname = "launch";
	if (argc != 2)
		die(EXIT_USAGE, "usage: manifest FILE");
	manifest_read(argv[1], &m);
	/* what launch does with it: every argv read to its end */
	for (i = 0; i < m.n; i++)
		for (a = m.art[i].argv; *a; a++)
			len += strlen(*a);
	manifest_free(&m);
	return len > 0 ? EXIT_OK : EXIT_FAIL;
}
