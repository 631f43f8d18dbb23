/* fuzz/manifest.c - launch's manifest reader alone, for scripts/fuzz:
 *   manifest FILE
 * The reader is launch.c's own (included, its main renamed), so what is
 * fuzzed is what launch runs.  A refusal is exit 2, as in launch; only a
 * crash or a sanitizer finding is a fault. */
#define main launch_main
#include "../launch.c"
#undef main

int main(int argc, char **argv)
{
	struct manifest m;
	size_t len = 0;
	long i;
	char **a;

	progname = "launch";
	if (argc != 2)
		die(EXIT_USAGE, "usage: manifest FILE");
	read_manifest(argv[1], &m);
	/* what launch does with it: every argv read to its end */
	for (i = 0; i < m.n; i++)
		for (a = m.art[i].argv; *a; a++)
			len += strlen(*a);
	return len > 0 ? EXIT_OK : EXIT_FAIL;
}
