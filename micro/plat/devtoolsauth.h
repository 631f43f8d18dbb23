/* devtoolsauth.h - the Developer Tools authorisation of the responsible app.
 *
 * macOS answers through ExecutionPolicy.framework: [[EPDeveloperTool new]
 * authorizationStatus] (docs/macos.md §13), for the process's responsible
 * app, the terminal.  The kit reaches it with dlopen/dlsym only, so it links
 * against libSystem alone and says "unknown" where the framework is missing. */
#ifndef EXECLAG_DEVTOOLSAUTH_H
#define EXECLAG_DEVTOOLSAUTH_H

#include <stddef.h>

/* The Objective-C runtime's own spellings (objc/objc.h has the same
 * typedefs, so a file that includes it as well still compiles). */
typedef struct objc_class *Class;
typedef struct objc_object *id;
typedef struct objc_selector *SEL;

/* objc_msgSend is called through the exact type of each message, never as a
 * variadic function (wrong on arm64): */
typedef id (*devtools_msg_new)(Class, SEL);          /* +[EPDeveloperTool new] */
typedef long (*devtools_msg_status)(id, SEL);        /* -authorizationStatus (NSInteger) */
typedef void (*devtools_msg_release)(id, SEL);       /* -release */

#define DEVTOOLS_OBJC_LIB "/usr/lib/libobjc.A.dylib"
#define DEVTOOLS_EP_FRAMEWORK \
	"/System/Library/Frameworks/ExecutionPolicy.framework/ExecutionPolicy"

/* The word for an EPDeveloperToolStatus: 0 not-determined, 1 restricted,
 * 2 denied, 3 authorized, anything else unknown. */
const char *devtools_word(long status);

/* Ask ExecutionPolicy through the Objective-C runtime.  The two libraries
 * are DEVTOOLS_OBJC_LIB and DEVTOOLS_EP_FRAMEWORK unless EXECLAG_OBJC_LIB or
 * EXECLAG_EP_FRAMEWORK name others (tests load a stand-in runtime).  Returns
 * the word; on "unknown" why holds the reason. */
const char *devtools_objc_read(char *why, size_t len);

/* This platform's answer: devtools_objc_read on macOS, "n/a" elsewhere
 * (devtoolsauth_darwin.c, devtoolsauth_other.c). */
const char *devtools_platform(char *why, size_t len);

#endif
