/* fuzz/samples.c - analyze's samples-file reader (raw/*.samples.tsv) and the
 * statistics of one configuration, for scripts/tool/fuzz:
 *   samples FILE
 * The reader is analyze.c's own (included, its main renamed).  A refusal
 * is exit 2, as in analyze; only a crash or a sanitizer finding is a fault. */
#define main analyze_main
#include "../prog/analyze.c"
#undef main

int main(int argc, char **argv)
{
	static struct config c;

	progname = "analyze";
	if (argc != 2)
		die(EXIT_USAGE, "usage: samples FILE");
	read_samples(argv[1], &c);
	stats_config(&c);
	return EXIT_OK;
}
