/* made.c - every file mkfresh's run may have created, and the interrupt
 * that removes them (made.h). */
#define _POSIX_C_SOURCE 200809L
#include "made.h"
#include "util.h"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

static char **made;
static size_t nmade, capmade;
static volatile sig_atomic_t got_signal;

void made_track(const char *path)
{
	if (nmade == capmade) {
		capmade = capmade ? capmade * 2 : 64;
		made = xrealloc(made, capmade * sizeof *made);
	}
	made[nmade++] = xstrdup(path);
}

void made_untrack_last(void)
{
	if (nmade > 0)
		free(made[--nmade]);
}

void made_undo(void)
{
	size_t i;

	for (i = nmade; i-- > 0;)
		unlink(made[i]);
}

static void on_signal(int sig)
{
	got_signal = sig;
}

void made_catch_signals(void)
{
	catch_signals(on_signal);
}

int made_signal(void)
{
	return (int)got_signal;
}

void stop_if_interrupted(void)
{
	if (got_signal) {
		warnx_("interrupted by signal %d; removing what was made",
		       (int)got_signal);
		exit(130);
	}
}
