/* coreclass_darwin.c - P/E on Apple silicon through QoS classes.
 * Background QoS runs on E cores only; user-interactive prefers P cores
 * (docs/macos.md §10).  The class is set on the launching thread and on
 * the child through its spawn attributes. */
#define _DARWIN_C_SOURCE
#include "coreclass.h"

#include <errno.h>
#include <pthread.h>
#include <pthread/qos.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysctl.h>
#include <sys/types.h>

/* Declared in <spawn.h> by Apple's SDK but missing from some header sets;
 * the symbol is in libSystem on every supported release. */
extern int posix_spawnattr_set_qos_class_np(posix_spawnattr_t *attr, qos_class_t qos);

static int nperflevels(void)
{
	int n = 0;
	size_t len = sizeof n;

	if (sysctlbyname("hw.nperflevels", &n, &len, NULL, 0) != 0)
		return 1;
	return n;
}

static int class_qos(const char *cls, qos_class_t *qos)
{
	if (strcmp(cls, "P") == 0)
		*qos = QOS_CLASS_USER_INTERACTIVE;
	else if (strcmp(cls, "E") == 0)
		*qos = QOS_CLASS_BACKGROUND;
	else
		return -1;
	return 0;
}

void coreclass_available(char *buf, size_t len)
{
	snprintf(buf, len, nperflevels() >= 2 ? "all P E" : "all");
}

int coreclass_check(const char *cls, char *why, size_t whylen)
{
	qos_class_t qos;

	if (strcmp(cls, "all") == 0)
		return 0;
	if (class_qos(cls, &qos) != 0) {
		snprintf(why, whylen, "unknown core class '%s' (use all, P or E)", cls);
		return -1;
	}
	if (nperflevels() < 2) {
		snprintf(why, whylen, "core class %s needs two performance levels (hw.nperflevels < 2)", cls);
		return -1;
	}
	return 0;
}

int coreclass_enter(const char *cls)
{
	qos_class_t qos;

	if (class_qos(cls, &qos) != 0)
		return 0;
	return pthread_set_qos_class_self_np(qos, 0);
}

int coreclass_spawnattr(posix_spawnattr_t *attr, const char *cls)
{
	qos_class_t qos;

	if (class_qos(cls, &qos) != 0)
		return 0;
	return posix_spawnattr_set_qos_class_np(attr, qos);
}
