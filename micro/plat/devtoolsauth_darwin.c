/* devtoolsauth_darwin.c - on macOS the answer comes from ExecutionPolicy
 * through the Objective-C runtime (devtoolsauth_objc.c, docs/macos.md §13). */
#include "devtoolsauth.h"

const char *devtools_platform(char *why, size_t len)
{
	return devtools_objc_read(why, len);
}
