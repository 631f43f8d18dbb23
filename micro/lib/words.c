/* words.c - a command line split at blanks, as make splits $CC (util.h). */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <string.h>

char **split_blanks(const char *s, const char *dflt, int extra, int *argc)
{
	char *copy, *tok, *save = NULL, **v;
	int n = 0;

	if (!s)
		s = "";
	copy = xstrdup(s);
	v = xmalloc((strlen(s) / 2 + 2 + (size_t)extra) * sizeof *v);
	for (tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
		v[n++] = tok;
	if (n == 0)
		v[n++] = xstrdup(dflt);
	v[n] = NULL;
	*argc = n;
	return v;
}
