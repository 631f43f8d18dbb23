/* dlsym.c - the helpers of dlsym.h. */
#define _POSIX_C_SOURCE 200809L
#include "dlsym.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *dl_unknown(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return "unknown";
}

/* dlsym gives a data pointer; POSIX guarantees it converts to a function
 * pointer, and memcpy says so without a cast the compiler could warn about. */
int dl_resolve(void *lib, const char *name, void *fn, size_t fn_size)
{
	void *p = dlsym(lib, name);

	if (!p || fn_size != sizeof p)
		return -1;
	memcpy(fn, &p, fn_size);
	return 0;
}
