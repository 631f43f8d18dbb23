/* coreclass_linux.c - P/E through CPU affinity.  Hybrid Intel CPUs list
 * the two classes in /sys/devices/cpu_core/cpus (P) and
 * /sys/devices/cpu_atom/cpus (E).  Elsewhere (Apple silicon under Asahi,
 * big.LITTLE arm64) each CPU's /sys/devices/system/cpu/cpuN/cpu_capacity
 * tells them: the CPUs of the highest capacity are P, all others E, as
 * scripts/probe/sysinfo counts them.  A child of posix_spawn inherits the calling
 * thread's affinity mask, so the attribute needs nothing.  EXECLAG_SYSROOT,
 * a test knob, puts the sysfs tree elsewhere. */
#define _GNU_SOURCE
#include "coreclass.h"

#include <dirent.h>
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

static void sys_path(char *buf, size_t len, const char *path)
{
	const char *root = getenv("EXECLAG_SYSROOT");

	snprintf(buf, len, "%s%s", root ? root : "", path);
}

/* Parse a kernel CPU list such as "0-7,16,18-19" into set; -1 if empty. */
static int read_cpulist(const char *file, cpu_set_t *set)
{
	char buf[4096], path[4096], *p, *end;
	FILE *f;
	long a, b;
	int n = 0;

	CPU_ZERO(set);
	sys_path(path, sizeof path, file);
	if (!(f = fopen(path, "r")))
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
		for (; a >= 0 && a <= b && a < CPU_SETSIZE; a++, n++)
			CPU_SET((int)a, set);
		p = end;
		if (*p == ',')
			p++;
	}
	return n > 0 ? 0 : -1;
}

/* P = the CPUs of the highest cpu_capacity, E = the others; -1 where no CPU
 * has a capacity or all have the same one. */
static int read_capacity(cpu_set_t *pset, cpu_set_t *eset)
{
	char path[4096];
	long cap[CPU_SETSIZE], max = -1, v;
	int have[CPU_SETSIZE] = { 0 }, cpu, np = 0, ne = 0;
	struct dirent *d;
	DIR *dir;
	FILE *f;

	CPU_ZERO(pset);
	CPU_ZERO(eset);
	sys_path(path, sizeof path, "/sys/devices/system/cpu");
	if (!(dir = opendir(path)))
		return -1;
	while ((d = readdir(dir))) {
		char *end;

		if (strncmp(d->d_name, "cpu", 3) != 0 || d->d_name[3] < '0' || d->d_name[3] > '9')
			continue;
		cpu = (int)strtol(d->d_name + 3, &end, 10);
		if (*end || cpu < 0 || cpu >= CPU_SETSIZE)
			continue;
		sys_path(path, sizeof path, "/sys/devices/system/cpu/");
		if (strlen(path) + strlen(d->d_name) + 16 > sizeof path)
			continue;
		strcat(path, d->d_name);
		strcat(path, "/cpu_capacity");
		if (!(f = fopen(path, "r")))
			continue;
		if (fscanf(f, "%ld", &v) == 1 && v >= 0) {
			cap[cpu] = v;
			have[cpu] = 1;
			if (v > max)
				max = v;
		}
		fclose(f);
	}
	closedir(dir);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!have[cpu])
			continue;
		if (cap[cpu] == max) {
			CPU_SET(cpu, pset);
			np++;
		} else {
			CPU_SET(cpu, eset);
			ne++;
		}
	}
	return np > 0 && ne > 0 ? 0 : -1;
}

/* The CPUs of cls ("P" or "E"); -1 where this machine has no classes. */
static int class_set(const char *cls, cpu_set_t *set)
{
	cpu_set_t p, e;

	if (read_cpulist(class_file("P"), &p) == 0 || read_cpulist(class_file("E"), &e) == 0)
		return read_cpulist(class_file(cls), set);
	if (read_capacity(&p, &e) != 0)
		return -1;
	*set = strcmp(cls, "P") == 0 ? p : e;
	return 0;
}

void coreclass_available(char *buf, size_t len)
{
	cpu_set_t p, e;

	if (class_set("P", &p) == 0 && class_set("E", &e) == 0)
		snprintf(buf, len, "all P E");
	else
		snprintf(buf, len, "all");
}

int coreclass_check(const char *cls, char *why, size_t whylen)
{
	cpu_set_t set;

	if (strcmp(cls, "all") == 0)
		return 0;
	if (!class_file(cls)) {
		snprintf(why, whylen, "unknown core class '%s' (use all, P or E)", cls);
		return -1;
	}
	if (class_set(cls, &set) != 0) {
		snprintf(why, whylen, "core class %s needs two classes of cores (a hybrid Intel CPU's "
			 "%s, or CPUs of different cpu_capacity; this machine has neither)",
			 cls, class_file(cls));
		return -1;
	}
	return 0;
}

int coreclass_enter(const char *cls)
{
	cpu_set_t set;

	if (!class_file(cls))
		return 0;
	if (class_set(cls, &set) != 0)
		return ENOENT;
	return sched_setaffinity(0, sizeof set, &set) == 0 ? 0 : errno;
}

int coreclass_spawnattr(posix_spawnattr_t *attr, const char *cls)
{
	(void)attr;
	(void)cls;
	return 0;
}
