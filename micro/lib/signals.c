/* signals.c - a handler for the signals that ask a program to leave
 * (util.h). */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <signal.h>
#include <string.h>

void catch_signals(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}
