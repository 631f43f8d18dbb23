/* opts.c - a program's command line, read against a table (opts.h). */
#include "opts.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static const struct opt *find(const struct opt *opts, const char *name)
{
	for (; opts->name; opts++)
		if (strcmp(opts->name, name) == 0)
			return opts;
	return NULL;
}

int opts_parse(int argc, char **argv, const struct opt *opts, enum opts_operands operands,
	       void (*usage)(FILE *))
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct opt *o;

		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			exit(EXIT_OK);
		}
		if (operands != OPTS_NONE && strcmp(a, "--") == 0)
			return i + 1;
		if (operands == OPTS_AFTER && (a[0] != '-' || a[1] == '\0'))
			return i;
		if (!(o = find(opts, a)))
			die(EXIT_USAGE, "unknown option '%s' (try --help)", a);
		if (!o->value) {
			*o->flag = 1;
			continue;
		}
		if (i + 1 >= argc)
			die(EXIT_USAGE, "%s needs a value (try --help)", a);
		if (!o->flag) {
			*o->value = argv[++i];
			continue;
		}
		if (*o->flag >= o->max)
			die(EXIT_USAGE, "%s: at most %d (try --help)", a, o->max);
		o->value[(*o->flag)++] = argv[++i];
	}
	return i;
}
