/* paths.c - a path's folder, and whether a program is there to run, by
 * path or through $PATH (util.h). */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *parent_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *d;

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	d = xstrdup(path);
	d[slash - path] = '\0';
	return d;
}

int is_exec_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int find_in_path(const char *prog)
{
	const char *path = getenv("PATH"), *p, *end;
	int found = 0;

	if (strchr(prog, '/'))
		return is_exec_file(prog);
	if (!path || !*path)
		path = "/usr/bin:/bin";
	for (p = path;; p = end + 1) {
		size_t len;
		char *cand;

		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		len = (size_t)(end - p);
		cand = len ? xasprintf("%.*s/%s", (int)len, p, prog) : xasprintf("./%s", prog);
		found = is_exec_file(cand);
		free(cand);
		if (found || !*end)
			break;
	}
	return found;
}
