/* outcome.c - a launched child's exit status or signal (outcome.h). */
#define _POSIX_C_SOURCE 200809L
#include "outcome.h"

#include <sys/wait.h>

void spawn_outcome(int err, int st, int *exit_status, int *sig)
{
	*exit_status = -1;
	*sig = 0;
	if (err == 0 && WIFEXITED(st))
		*exit_status = WEXITSTATUS(st);
	else if (err == 0 && WIFSIGNALED(st))
		*sig = WTERMSIG(st);
}
