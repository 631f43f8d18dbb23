/* launcherspec.c - the one parser of a run's launcher, "spawn" or
 * "sim:NAME=VALUE ..." (launcherspec.h). */
#include "launcherspec.h"

#include <string.h>

#define BLANKS " \t"

int launcher_is_sim(const char *launcher)
{
	return launcher && strncmp(launcher, "sim", 3) == 0 &&
	       (launcher[3] == ':' || launcher[3] == '\0');
}

int launcher_next_setting(const char **cursor, struct launcher_word *w)
{
	const char *p = *cursor + strspn(*cursor, BLANKS);
	const char *eq;

	if (!*p)
		return 0;
	w->at = p;
	w->len = strcspn(p, BLANKS);
	eq = memchr(p, '=', w->len);
	w->name_len = eq ? (size_t)(eq - p) : w->len;
	*cursor = p + w->len;
	return 1;
}

const char *launcher_setting(const char *launcher, const char *name, char *buf, size_t len)
{
	size_t n = strlen(name);
	const char *at;
	struct launcher_word w;

	if (!launcher_is_sim(launcher) || len == 0)
		return NULL;
	at = launcher[3] == ':' ? launcher + 4 : launcher + 3;
	while (launcher_next_setting(&at, &w)) {
		if (w.name_len == n && w.len > n && strncmp(w.at, name, n) == 0) {
			size_t v = w.len - n - 1;

			if (v >= len)
				v = len - 1;
			memcpy(buf, w.at + n + 1, v);
			buf[v] = '\0';
			return buf;
		}
	}
	return NULL;
}
