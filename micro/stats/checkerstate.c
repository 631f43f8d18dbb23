/* checkerstate.c - the checker's health state from its record, and the
 * relief for each state (checkerstate.h); the limits are checkerlimits.h's,
 * the sources docs/evidence.md §16's. */
#include "checkerstate.h"
#include "checkerlimits.h"

#include <math.h>
#include <string.h>

static const char *const state_names[] = {
	[CHECKER_UNKNOWN] = "unknown", [CHECKER_WELL] = "well",	    [CHECKER_BUSY] = "busy",
	[CHECKER_STORM] = "storm",     [CHECKER_EXHAUSTED] = "exhausted", [CHECKER_HUNG] = "hung",
};

const char *checker_state_name(enum checker_state s)
{
	return (size_t)s < sizeof state_names / sizeof state_names[0] ? state_names[s] : "unknown";
}

enum checker_state checker_state_of(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof state_names / sizeof state_names[0]; i++)
		if (strcmp(name, state_names[i]) == 0)
			return (enum checker_state)i;
	return CHECKER_UNKNOWN;
}

/* The calibration gate's record (Linux): its assessment is the exec of a
 * new program below the work folder, which the gate refuses (exhausted=1:
 * every check refused, as an exhausted syspolicyd refuses every assessment),
 * leaves unanswered (wedge) or lets pass. */
static void gate_decide(const struct health_record *h, struct checker_verdict *v)
{
	if (h->assess == HEALTH_ASSESS_REFUSED) {
		v->why |= CHECKER_WHY_REFUSED;
		v->state = CHECKER_EXHAUSTED;
	} else if (h->assess == HEALTH_ASSESS_TIMEOUT) {
		v->why |= CHECKER_WHY_TIMEOUT;
		v->state = CHECKER_HUNG;
	} else if (h->assess == HEALTH_ASSESS_ACCEPTED) {
		v->state = CHECKER_WELL;
	}
}

/* The log's figures: the rates and whether they make a storm, error 24. */
static void log_reasons(const struct health_record *h, struct checker_verdict *v)
{
	double own;

	if (!h->log_ok || !(h->window_s > 0) || h->log_lines < 0)
		return;
	own = h->own_lines > 0 ? (double)h->own_lines : 0.0;
	if (own > (double)h->log_lines)
		own = (double)h->log_lines;
	v->own_rate = own / h->window_s;
	v->rate = ((double)h->log_lines - own) / h->window_s;
	v->baseline = fmax(v->own_rate, CHECKER_BASELINE_FLOOR);
	v->driver = h->driver;
	if (v->rate >= CHECKER_STORM_RATE && v->rate >= CHECKER_STORM_FACTOR * v->baseline)
		v->why |= CHECKER_WHY_RATE;
	if (h->emfile_lines >= CHECKER_EMFILE_LINES_MIN)
		v->why |= CHECKER_WHY_LOG_EMFILE;
}

void checker_decide(const struct health_record *h, struct checker_verdict *v)
{
	int answered;

	memset(v, 0, sizeof *v);
	v->rate = v->own_rate = v->baseline = NAN;
	v->state = CHECKER_UNKNOWN;
	if (h->checker == HEALTH_CHECKER_GATE)
		gate_decide(h, v);
	if (h->checker != HEALTH_CHECKER_SYSPOLICYD)
		return;
	log_reasons(h, v);
	if (h->assess == HEALTH_ASSESS_EMFILE)
		v->why |= CHECKER_WHY_ASSESS_EMFILE;
	if (h->assess == HEALTH_ASSESS_TIMEOUT)
		v->why |= CHECKER_WHY_TIMEOUT;
	if (h->ps_ok && h->syspolicyd.count > 0) {
		if (h->syspolicyd.cpu_pct >= CHECKER_BUSY_CPU_PCT)
			v->why |= CHECKER_WHY_CPU;
		if (h->syspolicyd.rss_kb >= CHECKER_BUSY_RSS_KB)
			v->why |= CHECKER_WHY_RSS;
	}
	/* the most specific first: each later one is often there too */
	answered = h->assess == HEALTH_ASSESS_ACCEPTED || h->assess == HEALTH_ASSESS_REJECTED;
	if (v->why & (CHECKER_WHY_ASSESS_EMFILE | CHECKER_WHY_LOG_EMFILE))
		v->state = CHECKER_EXHAUSTED;
	else if (v->why & CHECKER_WHY_TIMEOUT)
		v->state = CHECKER_HUNG;
	else if (v->why & CHECKER_WHY_RATE)
		v->state = CHECKER_STORM;
	else if (v->why & (CHECKER_WHY_CPU | CHECKER_WHY_RSS))
		v->state = CHECKER_BUSY;
	else if (answered || (h->ps_ok && h->log_ok))
		v->state = CHECKER_WELL;
}

/* The steps, each with its sources (docs/evidence.md §16). */
#define QUIT_DRIVER                                                                             \
	{ "quit the program driving the checker, and any helper it leaves running (quitting the " \
	  "app alone can leave one)",                                                             \
	  "openai/codex#25243 (quitting Codex and restarting syspolicyd restored spctl), "        \
	  "#27662 (an orphaned app-server kept syspolicyd busy until it was killed)",             \
	  0, 0, 1 }
#define RESTART_SERVICES                                                                  \
	{ "restart the checker's services: sudo killall syspolicyd trustd (launchd starts " \
	  "them again at once)",                                                            \
	  "openai/codex#25882, #25243", 1, 0, 0 }
#define REBOOT                                                                                  \
	{ "restart the Mac", "openai/codex#34768 (\"Rebooting macOS immediately resolves it\"), " \
	  "#26341, #28071", 0, 1, 0 }
#define GKTOOL_SCAN                                                                             \
	{ "soon after a restart, where /usr/bin/gktool exists: gktool scan the driver's app, so "  \
	  "that the new syspolicyd does not fill up again",                                       \
	  "openai/codex#27662 (scanned 15 s after the restart: 58 MB, 86 MB after 4.5 hours, no "  \
	  "error 24; not scanned: 2.6-3.4 GB); MacPaw/binaries-issues#10 (gktool pre-warms the " \
	  "cache)",                                                                               \
	  -1, 0, 1 }
#define STOP_LOAD                                                                              \
	{ "stop the load that makes the checks (let a parallel build finish, or run fewer jobs): " \
	  "removing it is normally enough",                                                      \
	  "rjwalters/loom PR #4152 (its troubleshooting page)", 0, 0, 0 }
#define KILL_SYSPOLICYD                                                                  \
	{ "sudo killall syspolicyd (launchd restarts it): the manual unwedge",             \
	  "rjwalters/loom PR #4152; golang/go#37885 (\"Killing syspolicyd fixes it\")", 1, \
	  0, 0 }

/* exhausted and storm: the driver, then the services, then the Mac */
static const struct checker_step relief_driven[] = { QUIT_DRIVER, RESTART_SERVICES, REBOOT, GKTOOL_SCAN };
static const struct checker_step relief_busy[] = { QUIT_DRIVER, STOP_LOAD, KILL_SYSPOLICYD, REBOOT };
static const struct checker_step relief_hung[] = { KILL_SYSPOLICYD, REBOOT };

const struct checker_step *checker_relief(enum checker_state s, size_t *n)
{
	switch (s) {
	case CHECKER_EXHAUSTED:
	case CHECKER_STORM:
		*n = sizeof relief_driven / sizeof relief_driven[0];
		return relief_driven;
	case CHECKER_BUSY:
		*n = sizeof relief_busy / sizeof relief_busy[0];
		return relief_busy;
	case CHECKER_HUNG:
		*n = sizeof relief_hung / sizeof relief_hung[0];
		return relief_hung;
	default:
		*n = 0;
		return NULL;
	}
}
