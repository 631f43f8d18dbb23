/* mcompare - two measures side by side (make compare A=<measure> B=<measure>):
 * W, N (a range where the log names no program for some checks), L (and L
 * at the programs' size where the measure took it), B with their intervals,
 * the share, the services' CPU, the responsible app and how the command was
 * started, the conditions that differ, and how much the command's time
 * changed.
 *
 *   mcompare [--] A B      (each a measure folder or its measure.json)
 *
 * Each is read through measure.json's one reader (micro/fmt/measurejson.c)
 * and shown by micro/report/measure_compare.c.  Any problem with either
 * file is one line on stderr and exit 2. */
#define _POSIX_C_SOURCE 200809L
#include "measure_compare.h"
#include "measurein.h"
#include "measurejson.h"
#include "opts.h"
#include "util.h"

#include <stdio.h>

static void usage(FILE *f)
{
	fputs("usage: mcompare [--] A B\n"
	      "Compare two measures (make measure), each a measure folder or its\n"
	      "measure.json: wall time W, new programs N, one check's price L, the\n"
	      "checker's busy time B and its share, the services' CPU, the conditions\n"
	      "that differ, and how much the command's time changed from A to B.\n"
	      "Exit: 0 done, 1 cannot write, 2 bad usage or a file that is not a measure.\n", f);
}

/* The two measures' places in argv: A's index. */
static int parse_args(int argc, char **argv)
{
	const struct opt opts[] = { OPT_END };
	int i = opts_parse(argc, argv, opts, OPTS_AFTER, usage);

	if (argc - i != 2 || !argv[i][0] || !argv[i + 1][0])
		die(EXIT_USAGE, "give two measures: make compare A=<measure> B=<measure> (see --help)");
	return i;
}

/* LABEL's measure at WHERE, or exit 2 saying why it is not one. */
static void read_measure(struct measure *m, const char *label, const char *where)
{
	char why[1024];

	if (measurejson_read(where, m, why, sizeof why) != 0)
		die(EXIT_USAGE, "%s: %s", label, why);
}

int main(int argc, char **argv)
{
	struct measure a, b;
	int i;

	progname = "mcompare";
	i = parse_args(argc, argv);
	read_measure(&a, "A", argv[i]);
	read_measure(&b, "B", argv[i + 1]);
	measure_compare_write(stdout, &a, &b);
	if (fflush(stdout) != 0)
		die(EXIT_FAIL, "cannot write to stdout:");
	measure_free(&a);
	measure_free(&b);
	return EXIT_OK;
}
