/* launcherspec.h - the launcher a run used, as its `launcher` condition and
 * its samples' "meta launcher" record it (docs/formats.md): "spawn", or
 * the simulator, "sim" or "sim:SETTINGS", SETTINGS being NAME=VALUE words
 * apart by blanks ("sim:latency=20 workers=1 key=inode ...").  The one
 * parser of that string: the simulator takes its settings word by word
 * from launcher_next_setting (sim_parse checks each value), the readers
 * of a run ask launcher_setting for one. */
#ifndef EXECLAG_LAUNCHERSPEC_H
#define EXECLAG_LAUNCHERSPEC_H

#include <stddef.h>

/* 1 when LAUNCHER names the simulator ("sim" or "sim:SETTINGS"): such a
 * run launched nothing, so every tool that names it says "simulated" and
 * none offers it as evidence.  NULL (a run from before the key) and
 * "spawn" are real launches. */
int launcher_is_sim(const char *launcher);

/* One word of SETTINGS: LEN chars at AT, of which the first NAME_LEN are
 * its name (those before its first '='; LEN when it has none). */
struct launcher_word {
	const char *at;
	size_t len;
	size_t name_len;
};

/* The next word of SETTINGS (the part after "sim:") at *CURSOR, blanks
 * (spaces and tabs) skipped, into *W, *CURSOR moved past it: 1, or 0 when
 * no word is left. */
int launcher_next_setting(const char **cursor, struct launcher_word *w);

/* The value of setting NAME in a "sim:NAME=VALUE ..." launcher, copied
 * into buf; NULL where the launcher does not set it. */
const char *launcher_setting(const char *launcher, const char *name, char *buf, size_t len);

#endif
