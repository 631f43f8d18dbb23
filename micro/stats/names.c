/* names.c - the words for what stats decides, as run.json and the report
 * write them: verdicts, serialisation, the cache key, passes and signals
 * (stats.h). */
#define _POSIX_C_SOURCE 200809L
#include "stats.h"
#include "samples.h"

#include <signal.h>
#include <stdio.h>

/* Host numbering: analyze runs where launch ran, and the numbers differ
 * between Linux and macOS (SIGBUS is 7 on one, 10 on the other). */
const char *stats_signal_name(long sig, char *buf, size_t len)
{
	static const struct {
		int number;
		const char *name;
	} table[] = {
		{ SIGHUP, "SIGHUP" },   { SIGINT, "SIGINT" },
		{ SIGQUIT, "SIGQUIT" }, { SIGILL, "SIGILL" },
		{ SIGABRT, "SIGABRT" }, { SIGFPE, "SIGFPE" },
		{ SIGKILL, "SIGKILL" }, { SIGSEGV, "SIGSEGV" },
		{ SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" },
		{ SIGTERM, "SIGTERM" }, { SIGUSR1, "SIGUSR1" },
		{ SIGUSR2, "SIGUSR2" },
#ifdef SIGBUS
		{ SIGBUS, "SIGBUS" },
#endif
#ifdef SIGTRAP
		{ SIGTRAP, "SIGTRAP" },
#endif
#ifdef SIGSYS
		{ SIGSYS, "SIGSYS" },
#endif
#ifdef SIGXCPU
		{ SIGXCPU, "SIGXCPU" },
#endif
	};
	size_t i;

	for (i = 0; i < sizeof table / sizeof table[0]; i++)
		if (table[i].number == sig)
			return table[i].name;
	snprintf(buf, len, "SIG%ld", sig);
	return buf;
}

/* The samples file's words (samples.h), "reference" for any other. */
const char *stats_pass_name(enum pass p)
{
	return samples_pass_words[p == PASS_FIRST || p == PASS_REPEAT ? p : PASS_REFERENCE];
}

const char *stats_verdict_name(enum verdict v)
{
	switch (v) {
	case VERDICT_SLOWDOWN: return "slowdown";
	case VERDICT_NONE: return "none";
	case VERDICT_HANG: return "hang";
	default: return "inconclusive";
	}
}

const char *stats_serialisation_name(enum serialisation s)
{
	switch (s) {
	case SERIAL_SERIALISED: return "serialised";
	case SERIAL_PARALLEL: return "parallel";
	case SERIAL_UNDETERMINED: return "undetermined";
	default: return "n/a";
	}
}

const char *stats_cache_key_name(enum cache_key k)
{
	switch (k) {
	case KEY_INODE: return "inode";
	case KEY_PATH: return "path";
	case KEY_CONTENT: return "content";
	default: return "undetermined";
	}
}
