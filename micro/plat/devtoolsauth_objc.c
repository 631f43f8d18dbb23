/* devtoolsauth_objc.c - [[EPDeveloperTool new] authorizationStatus] through the
 * Objective-C runtime, loaded with dlopen (docs/macos.md §13).
 *
 * Portable C on purpose: it is built on Linux too, where the tests point
 * EXECLAG_OBJC_LIB and EXECLAG_EP_FRAMEWORK at a stand-in runtime that
 * records the calls (tests/fixtures/devtools/). */
#define _POSIX_C_SOURCE 200809L
#include "devtoolsauth.h"

#include "dlsym.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The runtime entry points, as libobjc declares them. */
struct objc_api {
	Class (*get_class)(const char *name);
	SEL (*register_name)(const char *name);
	void *(*pool_push)(void);
	void (*pool_pop)(void *token);
	void (*msg_send)(void); /* cast to the message's own type at each call */
};

const char *devtools_word(long status)
{
	switch (status) {
	case 0: return "not-determined";
	case 1: return "restricted";
	case 2: return "denied";
	case 3: return "authorized";
	default: return "unknown";
	}
}

static const char *env_or(const char *name, const char *fallback)
{
	const char *v = getenv(name);

	return v && *v ? v : fallback;
}

static int load_api(void *lib, struct objc_api *api, const char **missing)
{
	if (dl_resolve(lib, *missing = "objc_getClass", &api->get_class, sizeof api->get_class) ||
	    dl_resolve(lib, *missing = "sel_registerName", &api->register_name,
		    sizeof api->register_name) ||
	    dl_resolve(lib, *missing = "objc_autoreleasePoolPush", &api->pool_push,
		    sizeof api->pool_push) ||
	    dl_resolve(lib, *missing = "objc_autoreleasePoolPop", &api->pool_pop,
		    sizeof api->pool_pop) ||
	    dl_resolve(lib, *missing = "objc_msgSend", &api->msg_send, sizeof api->msg_send))
		return -1;
	*missing = NULL;
	return 0;
}

/* Inside an autorelease pool: the status, or -1 with why filled in.  The
 * object from +new is owned by the caller and released here. */
static long ask(const struct objc_api *api, char *why, size_t len)
{
	Class cls;
	SEL sel_new, sel_status, sel_release;
	id tool;
	long status;

	cls = api->get_class("EPDeveloperTool");
	if (!cls) {
		dl_unknown(why, len, "the class EPDeveloperTool is not registered");
		return -1;
	}
	sel_new = api->register_name("new");
	sel_status = api->register_name("authorizationStatus");
	sel_release = api->register_name("release");
	if (!sel_new || !sel_status || !sel_release) {
		dl_unknown(why, len, "sel_registerName returned NULL");
		return -1;
	}
	tool = ((devtools_msg_new)api->msg_send)(cls, sel_new);
	if (!tool) {
		dl_unknown(why, len, "+[EPDeveloperTool new] returned nil");
		return -1;
	}
	status = ((devtools_msg_status)api->msg_send)(tool, sel_status);
	((devtools_msg_release)api->msg_send)(tool, sel_release);
	if (status < 0 || status > 3)
		dl_unknown(why, len, "authorizationStatus returned %ld, not one of 0..3", status);
	return status;
}

const char *devtools_objc_read(char *why, size_t len)
{
	const char *objc_path = env_or("EXECLAG_OBJC_LIB", DEVTOOLS_OBJC_LIB);
	const char *ep_path = env_or("EXECLAG_EP_FRAMEWORK", DEVTOOLS_EP_FRAMEWORK);
	const char *missing;
	struct objc_api api;
	void *objc, *ep, *pool;
	long status;

	/* Never dlclose'd: Objective-C images cannot be unloaded. */
	objc = dlopen(objc_path, RTLD_LAZY | RTLD_LOCAL);
	if (!objc)
		return dl_unknown(why, len, "cannot load the Objective-C runtime: %s", dlerror());
	if (load_api(objc, &api, &missing) != 0)
		return dl_unknown(why, len, "%s: no symbol %s", objc_path, missing);
	/* Loading the framework registers its classes with the runtime. */
	ep = dlopen(ep_path, RTLD_LAZY | RTLD_LOCAL);
	if (!ep)
		return dl_unknown(why, len, "cannot load ExecutionPolicy: %s", dlerror());

	pool = api.pool_push();
	status = ask(&api, why, len);
	api.pool_pop(pool);
	return devtools_word(status);
}
