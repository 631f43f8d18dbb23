/* responsible_dl.c - the responsible process and its path, through dlsym
 * (responsible.h).  Portable C on purpose: built on Linux too, where
 * tests/devtools.bats points EXECLAG_LIBSYSTEM at a stand-in
 * (tests/fixtures/devtools/fake_responsibility.c). */
#define _POSIX_C_SOURCE 200809L
#include "responsible.h"

#include "dlsym.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *responsible_dl_read(char *path, size_t len, char *why, size_t wlen)
{
	const char *lib_path = getenv("EXECLAG_LIBSYSTEM");
	responsible_fn responsible;
	responsible_pidpath_fn pidpath;
	char buf[RESPONSIBLE_PATH_MAX];
	pid_t me = getpid(), r;
	void *lib;
	int n;

	if (lib_path && !*lib_path)
		lib_path = NULL;
	/* Never dlclose'd: the process's own symbols, or a library kept. */
	lib = dlopen(lib_path, RTLD_LAZY | RTLD_LOCAL);
	if (!lib)
		return dl_unknown(why, wlen, "cannot open %s: %s", lib_path ? lib_path : "the process's symbols",
			       dlerror());
	if (dl_resolve(lib, "responsibility_get_pid_responsible_for_pid", &responsible, sizeof responsible))
		return dl_unknown(why, wlen, "no symbol responsibility_get_pid_responsible_for_pid");
	if (dl_resolve(lib, "proc_pidpath", &pidpath, sizeof pidpath))
		return dl_unknown(why, wlen, "no symbol proc_pidpath");
	r = responsible(me);
	if (r <= 0)
		return dl_unknown(why, wlen, "responsibility_get_pid_responsible_for_pid returned %ld", (long)r);
	if (r == me)
		return "self";
	n = pidpath((int)r, buf, sizeof buf);
	if (n <= 0 || (size_t)n >= sizeof buf || memchr(buf, '\0', (size_t)n) != NULL)
		return dl_unknown(why, wlen, "proc_pidpath gave no path for pid %ld", (long)r);
	buf[n] = '\0';
	if (strpbrk(buf, "\t\n\r") || buf[0] != '/')
		return dl_unknown(why, wlen, "proc_pidpath gave an unusable path for pid %ld", (long)r);
	if (!path || len <= (size_t)n)
		return dl_unknown(why, wlen, "the path of pid %ld is too long", (long)r);
	memcpy(path, buf, (size_t)n + 1);
	return "path";
}
