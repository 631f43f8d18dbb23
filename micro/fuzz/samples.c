/* fuzz/samples.c - analyze's samples-file reader (raw/<name>.samples.tsv,
 * micro/fmt/samples.c) and the statistics of one configuration, for
 * scripts/tool/fuzz:
 *   samples FILE
 * A refusal is exit 2, as in analyze; only a crash or a sanitizer finding
 * is a fault. */
#define _POSIX_C_SOURCE 200809L
#include "samples.h"
#include "stats.h"
#include "util.h"

int main(int argc, char **argv)
{
	static struct config c;
	char *sim_launcher = NULL;

	progname = "analyze";
	if (argc != 2)
		die(EXIT_USAGE, "usage: samples FILE");
	samples_read(argv[1], &c, &sim_launcher);
	stats_config(&c);
	return EXIT_OK;
}
