/* opts.h - a program's command line, read against a table of its options.
 *
 * Every instrument reads its options the same way: -h and --help print
 * the usage and exit 0; a flag sets an int; an option with a value takes
 * the next word, whatever it looks like (a value may start with '-'); the
 * last of a repeated option wins, but for a list (MAX values kept in
 * order); "--" ends the options.  An unknown
 * option, or one without its value, is one line and exit 2:
 *   PROG: unknown option '--frob' (try --help)
 *   PROG: --run needs a value (try --help)
 * A value is checked by the program after the parse, with its own words. */
#ifndef EXECLAG_OPTS_H
#define EXECLAG_OPTS_H

#include <stdio.h>

struct opt {
	const char *name;   /* "--run" */
	const char **value; /* where its value goes; NULL for a flag */
	int *flag;          /* a flag sets it to 1; with a value: NULL, or the
			     * count of values given, VALUE then an array of MAX */
	int max;            /* an option given up to MAX times: each value kept */
};

/* A table's entries: an option with a value into *V; a flag setting *F;
 * a list of up to MAX values into the array A, counted in *N; the end. */
#define OPT_VALUE(name, v)         { (name), (v), NULL, 0 }
#define OPT_FLAG(name, f)          { (name), NULL, (f), 0 }
#define OPT_LIST(name, a, n, max)  { (name), (a), (n), (max) }
#define OPT_END                    { NULL, NULL, NULL, 0 }

/* Whether words that are not options (operands) may follow the options:
 * none; after the options, the first word that does not start with '-'
 * ("-" alone is one) or the word after "--"; only after "--" (a command
 * and its arguments). */
enum opts_operands { OPTS_NONE, OPTS_AFTER, OPTS_AFTER_DASHDASH };

/* opts_parse: argv[1..] against OPTS (ended by { NULL }).  Returns the
 * index of the first operand (argc where there is none). */
int opts_parse(int argc, char **argv, const struct opt *opts, enum opts_operands operands,
	       void (*usage)(FILE *));

#endif
