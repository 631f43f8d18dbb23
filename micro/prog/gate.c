/* gate.c - the calibration gate, Linux alone: a reference "assessment service".
 *
 * Marks the folders below its roots with fanotify permission events
 * (micro/plat/gatetree_linux.c: the tree, and which files are new) and
 * holds every first launch (exec) or library open of a file made after it
 * started that it has not seen before, for a fixed latency, the way macOS
 * assesses new executables; a file that existed before, and anything
 * outside the roots, pass at once.  What the
 * cache remembers (inode, path or content) and how many workers answer
 * (1 = serialised) are configurable; every decision is logged as JSON.
 *
 * Its steps: the settings (micro/plat/gateset.h, a table of them), the
 * fanotify group and the files it writes (gateout.h: the log, the ready
 * file, the heartbeat), the marks, the threads, the event loop until a
 * stop signal, the log's last line.
 *
 * Threads: main (setup, ready file, join), one reader (gatefan.h: poll on
 * the fanotify fd and a self-pipe; answers what needs no assessment at
 * once), W workers (gatecheck.h: FIFO queue; cache lookup; the decision;
 * hold on a miss), and with --heartbeat one more that rewrites a counter
 * in a file every 100 ms, so that a watchdog sees when the gate stops
 * running (SIGSTOP, a freezer).
 */
#define _GNU_SOURCE
#include "gatecache.h"
#include "gatecheck.h"
#include "gatefan.h"
#include "gateout.h"
#include "gateset.h"
#include "gatetree.h"
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

/* ---- --help ---- */

static void usage(FILE *f)
{
	fprintf(f,
	    "usage: gate --dir DIR [--dir DIR]... --latency-ms MS --workers W\n"
	    "            --key inode|path|content|inode-mtime [--on exec|open]\n"
	    "            [--every-ms MS] [--per-mb-ms MS] [--exempt-pid PID] [--wedge K]\n"
	    "            [--exhausted 0|1] [--kill R] [--log FILE]\n"
	    "            [--ready-file FILE] [--heartbeat FILE]\n"
	    "\n"
	    "Calibration gate (Linux, needs root): holds the first exec of every\n"
	    "file made after it started anywhere below a DIR, and the first open of\n"
	    "every such non-empty library (*.so, *.so.N, *.dylib), for MS\n"
	    "milliseconds per object not seen before, then allows it; later launches\n"
	    "of the same object pass at once, and so do files that existed before\n"
	    "it started and everything outside the DIRs.\n"
	    "\n"
	    "  --dir DIR          a root: every folder below it is marked, also the\n"
	    "                     ones made later (up to 8 roots)\n"
	    "  --latency-ms MS    hold per unseen object, 0..60000 (fractions allowed)\n"
	    "  --workers W        threads answering, 1..64 (1 = serialised)\n"
	    "  --key K            what the cache remembers: inode (dev:ino:birth),\n"
	    "                     path, content (FNV-1a 64 of the bytes), or\n"
	    "                     inode-mtime (dev:ino:birth:mtime: a write or a\n"
	    "                     touch makes the file new, a hard link does not)\n"
	    "  --on exec|open     exec (default): hold executions and library\n"
	    "                     opens; open: hold every open of a non-empty\n"
	    "                     file too, as a scan-on-open scanner does\n"
	    "  --every-ms MS      hold every decision this long too, seen or not\n"
	    "                     (an agent that costs every launch), 0..60000\n"
	    "  --per-mb-ms MS     hold an unseen object MS more per MiB of its\n"
	    "                     size (a scan that reads it all), 0..60000\n"
	    "  --exempt-pid PID   PID and its descendants pass unheld (logged \"exempt\")\n"
	    "  --wedge K          after K held checks (misses), answer nothing more\n"
	    "                     until stopped, as a wedged checker leaves a process\n"
	    "                     in execve; the stop allows them (logged \"wedged\")\n"
	    "  --exhausted 1      refuse every check at once (FAN_DENY: the exec or\n"
	    "                     open fails with EPERM), as an exhausted checker\n"
	    "                     refuses every assessment (logged \"refused\")\n"
	    "  --kill R           answer a share R (0..1) of held checks by a refusal\n"
	    "                     (FAN_DENY: the exec fails with EPERM), the n-th when\n"
	    "                     floor(n R) grows (logged \"answer\":\"refused\")\n"
	    "  --log FILE         one JSON line per decision\n"
	    "  --ready-file FILE  exists exactly while the marks are in place\n"
	    "                     (removed at start and on a clean stop)\n"
	    "  --heartbeat FILE   a counter rewritten every 100 ms while the gate\n"
	    "                     runs: a watchdog sees a stopped gate by it\n"
	    "\n"
	    "Prints \"gate: ready\" when marking is done.  SIGTERM/SIGINT: stop,\n"
	    "allow what is queued, write the \"stop\" line, exit 0.\n"
	    "Exit status: 0 stopped cleanly, 1 runtime failure, 2 bad usage or\n"
	    "cannot run here.\n");
}

/* The workers and the heartbeat, which never take the stop signals, then
 * the reader. */
static void start_threads(pthread_t *workers, pthread_t *reader)
{
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	if ((errno = checks_start(workers)) != 0 || (errno = gateout_beat()) != 0)
		die(EXIT_FAIL, "pthread_create:");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if ((errno = fan_reader_start(reader)) != 0)
		die(EXIT_FAIL, "pthread_create:");
}

int main(int argc, char **argv)
{
	pthread_t reader, workers[64];
	long self;

	progname = "gate";
	gateset_parse(argc, argv, usage);
	self = (long)getpid();

	fan_open();
	gateout_open(self);
	fan_catch_stop();
	cache_init();
	tree_start_clock();
	fan_mark_tree();
	start_threads(workers, &reader);
	tree_follow(check_unheld);
	gateout_start(self);

	fputs("gate: ready\n", stdout);
	fflush(stdout);
	gateout_ready();

	/* The event loop: the reader returns once a stop signal arrived. */
	pthread_join(reader, NULL);
	checks_stop(workers);
	/* Events not yet read are allowed by the kernel when the group closes. */
	fan_close();
	gateout_unready(); /* the marks are gone */

	gateout_stop();
	gateout_close();
	return EXIT_OK;
}
