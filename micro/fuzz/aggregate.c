/* fuzz/aggregate.c - aggregate's run.json reader (micro/fmt/runrow.c; it
 * warns about a bad file and goes on), for scripts/tool/fuzz:
 *   aggregate FILE
 * A file it refuses is exit 2 here; only a crash or a sanitizer finding is
 * a fault. */
#define _POSIX_C_SOURCE 200809L
#include "runrow.h"
#include "util.h"

int main(int argc, char **argv)
{
	struct row row;
	char why[512];

	progname = "aggregate";
	if (argc != 2)
		die(EXIT_USAGE, "usage: aggregate FILE");
	if (runrow_read(argv[1], &row, why, sizeof why) != 0)
		die(EXIT_USAGE, "%s: %s", argv[1], why);
	runrow_free(&row);
	return EXIT_OK;
}
