/* fuzz/aggregate.c - aggregate's run.json reader (it warns about a bad
 * file and goes on), for scripts/tool/fuzz:
 *   aggregate FILE
 * The reader is aggregate.c's own (included, its main renamed).  A file it
 * refuses is exit 2 here; only a crash or a sanitizer finding is a fault. */
#define main aggregate_main
#include "../prog/aggregate.c"
#undef main

int main(int argc, char **argv)
{
	struct row row;
	char why[512];

	progname = "aggregate";
	if (argc != 2)
		die(EXIT_USAGE, "usage: aggregate FILE");
	if (read_run(argv[1], &row, why, sizeof why) != 0)
		die(EXIT_USAGE, "%s: %s", argv[1], why);
	free_row(&row);
	return EXIT_OK;
}
