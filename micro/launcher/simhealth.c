/* simhealth.c - the checker's health as the simulator has it (sim.h,
 * sim_health): the record scripts/probe/health would write on a Mac whose
 * syspolicyd is the model's, before any launch, said to be simulated.
 * Its figures are the settings' (exhausted, storm), not a machine's. */
#define _POSIX_C_SOURCE 200809L
#include "healthfile.h"
#include "sim.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#define CALCULATOR "/System/Applications/Calculator.app"
#define WINDOW_S 60 /* the minute scripts/probe/health reads */

void sim_health(const struct sim_params *p, const char *described, struct health_record *h)
{
	struct utsname u;

	memset(h, 0, sizeof *h);
	h->checker = HEALTH_CHECKER_SYSPOLICYD;
	h->system = xstrdup(uname(&u) == 0 ? u.sysname : "unknown");
	h->simulated = xasprintf("sim:%s", described);
	/* no process to read: the model has no CPU, memory or age */
	h->syspolicyd.count = h->trustd.count = -1;
	h->assess_bound_s = 3;
	h->assess = p->exhausted ? HEALTH_ASSESS_EMFILE : HEALTH_ASSESS_ACCEPTED;
	h->assess_exit = p->exhausted ? 1 : 0;
	h->assess_line = xasprintf("%s: %s", CALCULATOR, p->exhausted ? "Too many open files" : "accepted");
	h->log_result = xstrdup("ok");
	h->log_ok = 1;
	h->window_s = WINDOW_S;
	h->log_lines = p->storm * WINDOW_S;
	h->own_lines = h->emfile_lines = h->asp_lines = 0;
	h->driver_lines = -1;
	if (p->storm > 0) {
		h->driver = xstrdup(SIM_STORM_DRIVER);
		h->driver_lines = h->log_lines;
	}
}
