/* kinds.h - the kinds of artifact: the one table every program reads.
 *
 * cases/kinds has a row a kind (docs/formats.md, "Kinds"): its name,
 * whether it is compiled and takes a payload, where it is made, what its
 * artifacts are.  The build generates KIND_ROWS from it into
 * micro/bin/gen/kinds_gen.h (scripts/tool/casegen --kinds); scripts/repro
 * reads the same file with the shell's read.  A kind's code is its maker's
 * (mkfresh's make_kind) and its launch's model (the simulator's,
 * micro/launcher/sim.c), both by the enum below. */
#ifndef EXECLAG_KINDS_H
#define EXECLAG_KINDS_H

#include <stddef.h>
#include <string.h>

#include "kinds_gen.h" /* KIND_ROWS: KIND(ID, NAME, COMPILED, PAYLOAD, PLATFORMS, MEANING) */

/* K_SCRIPT, K_SCRIPT_VIA_SH, ..., in the table's order; N_KINDS of them. */
enum kind {
#define KIND(id, name, compiled, payload, platforms, meaning) K_##id,
	KIND_ROWS
#undef KIND
	N_KINDS
};

struct kind_info {
	const char *name;
	int compiled;          /* made with a C compiler (CC); SIZE pads it */
	int payload;           /* mkfresh --payload kill|fail applies */
	const char *platforms; /* "any", or darwin, linux, other joined by commas */
	const char *meaning;   /* what its artifacts are (feedback.txt) */
};

static const struct kind_info kind_table[N_KINDS] = {
#define KIND(id, name, compiled, payload, platforms, meaning) \
	[K_##id] = { name, compiled, payload, platforms, meaning },
	KIND_ROWS
#undef KIND
};

/* kind_find: the kind named NAME, or -1. */
static inline int kind_find(const char *name)
{
	int k;

	for (k = 0; k < N_KINDS; k++)
		if (strcmp(kind_table[k].name, name) == 0)
			return k;
	return -1;
}

/* The platform this program was built for, in a case file's and the
 * table's words. */
#if defined(__APPLE__)
#define KIND_PLATFORM "darwin"
#elif defined(__linux__)
#define KIND_PLATFORM "linux"
#else
#define KIND_PLATFORM "other"
#endif

/* kind_platforms_have: whether PLATFORMS (a row's: "any", or words
 * joined by commas) names WORD ("darwin"); "any" names none. */
static inline int kind_platforms_have(const char *platforms, const char *word)
{
	const char *p = platforms;
	size_t n = strlen(word);

	for (;;) {
		if (strncmp(p, word, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
		if (!(p = strchr(p, ',')))
			return 0;
		p++;
	}
}

/* kind_made_here: whether mkfresh makes kind K on this platform. */
static inline int kind_made_here(int k)
{
	return strcmp(kind_table[k].platforms, "any") == 0 ||
	       kind_platforms_have(kind_table[k].platforms, KIND_PLATFORM);
}

#endif
