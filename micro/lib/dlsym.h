/* dlsym.h - what the two readers that load code at run time share
 * (devtoolsauth_objc.c: the Objective-C runtime; responsible_dl.c: libsystem's
 * responsibility calls). */
#ifndef EXECLAG_DLSYM_H
#define EXECLAG_DLSYM_H

#include <stddef.h>

/* Write why (printf-style, when why is not NULL and len > 0) and return
 * "unknown", the word a reader gives when it cannot read its state. */
const char *dl_unknown(char *why, size_t len, const char *fmt, ...);
/* Look name up in lib and store it in the function pointer at fn (of
 * fn_size bytes); 0, or -1 when it is missing. */
int dl_resolve(void *lib, const char *name, void *fn, size_t fn_size);

#endif
