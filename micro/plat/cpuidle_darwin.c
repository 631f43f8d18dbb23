/* cpuidle_darwin.c - host_statistics(HOST_CPU_LOAD_INFO): the ticks of all
 * CPUs in the user, system, idle and nice states. */
#include "cpuidle.h"

#include <mach/mach.h>
#include <mach/mach_host.h>
#include <sys/sysctl.h>

int cpuidle_read(uint64_t *idle, uint64_t *total)
{
	host_cpu_load_info_data_t info;
	mach_msg_type_number_t count = HOST_CPU_LOAD_INFO_COUNT;
	mach_port_t host = mach_host_self();
	kern_return_t kr;

	kr = host_statistics(host, HOST_CPU_LOAD_INFO, (host_info_t)&info, &count);
	mach_port_deallocate(mach_task_self(), host);
	if (kr != KERN_SUCCESS)
		return -1;
	*idle = info.cpu_ticks[CPU_STATE_IDLE];
	*total = (uint64_t)info.cpu_ticks[CPU_STATE_USER] + info.cpu_ticks[CPU_STATE_SYSTEM] +
		 info.cpu_ticks[CPU_STATE_IDLE] + info.cpu_ticks[CPU_STATE_NICE];
	return 0;
}

long cpuidle_cpus(void)
{
	int n = 0;
	size_t len = sizeof n;

	if (sysctlbyname("hw.logicalcpu", &n, &len, NULL, 0) != 0 || n < 1)
		return -1;
	return n;
}
