/* responsible_darwin.c - on macOS the responsible process comes from
 * libSystem through dlsym (responsible_dl.c). */
#include "responsible.h"

const char *responsible_platform(char *path, size_t len, char *why, size_t wlen)
{
	return responsible_dl_read(path, len, why, wlen);
}
