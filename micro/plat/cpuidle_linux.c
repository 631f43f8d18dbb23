/* cpuidle_linux.c - the "cpu" line of /proc/stat: user nice system idle
 * iowait irq softirq steal (guest time is already counted in user); idle
 * is idle + iowait. */
#include "cpuidle.h"

#include <stdio.h>
#include <unistd.h>

int cpuidle_read(uint64_t *idle, uint64_t *total)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 4)
		return -1;
	*idle = v[3] + v[4];
	*total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
	return 0;
}

long cpuidle_cpus(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN);
}
