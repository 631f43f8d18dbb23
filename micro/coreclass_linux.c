/* coreclass_linux.c - P/E on hybrid Intel CPUs through CPU affinity.
 * The kernel lists the two classes in /sys/devices/cpu_core/cpus (P) and
 * /sys/devices/cpu_atom/cpus (E); a child of posix_spawn inherits the
 * calling thread's affinity mask, so the attribute needs nothing. */
#define _GNU_SOURCE
#include "coreclass.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *class_file(const char *cls)
{
	if (strcmp(cls, "P") == 0)
		return "/sys/devices/cpu_core/cpus";
	if (strcmp(cls, "E") == 0)
		return "/sys/devices/cpu_atom/cpus";
	return NULL;
}

/* Parse a kernel CPU list such as "0-7,16,18-19" into set; -1 if empty. */
static int read_cpulist(const char *path, cpu_set_t *set)
{
	char buf[4096], *p, *end;
	FILE *f = fopen(path, "r");
	long a, b;
	int n = 0;

	CPU_ZERO(set);
	if (!f)
		return -1;
	if (!fgets(buf, sizeof buf, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	for (p = buf; *p && *p != '\n';) {
		a = strtol(p, &end, 10);
		if (end == p)
			return -1;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p)
				return -1;
		}
		for (; a <= b && a < CPU_SETSIZE; a++, n++)
			CPU_SET((int)a, set);
		p = end;
		if (*p == ',')
			p++;
	}
	return n > 0 ? 0 : -1;
}

void coreclass_available(char *buf, size_t len)
{
	cpu_set_t p, e;

	if (read_cpulist(class_file("P"), &p) == 0 && read_cpulist(class_file("E"), &e) == 0)
		snprintf(buf, len, "all P E");
	else
		snprintf(buf, len, "all");
}

int coreclass_check(const char *cls, char *why, size_t whylen)
{
	cpu_set_t set;
	const char *file;

	if (strcmp(cls, "all") == 0)
		return 0;
	file = class_file(cls);
	if (!file) {
		snprintf(why, whylen, "unknown core class '%s' (use all, P or E)", cls);
		return -1;
	}
	if (read_cpulist(file, &set) != 0) {
		snprintf(why, whylen, "core class %s needs a hybrid CPU (%s is missing)", cls, file);
		return -1;
	}
	return 0;
}

int coreclass_enter(const char *cls)
{
	cpu_set_t set;
	const char *file = class_file(cls);

	if (!file)
		return 0;
	if (read_cpulist(file, &set) != 0)
		return ENOENT;
	return sched_setaffinity(0, sizeof set, &set) == 0 ? 0 : errno;
}

int coreclass_spawnattr(posix_spawnattr_t *attr, const char *cls)
{
	(void)attr;
	(void)cls;
	return 0;
}
