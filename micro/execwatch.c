/* execwatch - run one command, its arguments as given (never through a
 * shell), and say how long it took, how it ended and, where the platform
 * can tell (Linux, root), which programs that did not exist before it
 * started its processes executed.
 *
 *   execwatch --out FILE [--watch PATH]... [--no-watch] -- COMMAND [ARG...]
 *
 * The command inherits the terminal: its input, output and errors pass
 * through untouched; execwatch itself writes only FILE (docs/formats.md,
 * "execwatch"), whole, through a temporary file and a rename.  Its exit
 * status is the command's (128 + N when a signal N ended it, 127 when it
 * could not be found, 126 when it could not be run).  TERM and HUP, and
 * INT or QUIT sent by a process, are passed on to the command; INT and QUIT
 * from the terminal already reached it.  A second such signal kills it. */
#define _POSIX_C_SOURCE 200809L
#include "execwatch.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>

#define MAX_WATCH 8
#define MAX_POLL 8

static int sig_pipe[2] = { -1, -1 };

static void usage(FILE *f)
{
	fputs("usage: execwatch --out FILE [--watch PATH]... [--no-watch] -- COMMAND [ARG...]\n"
	      "Run COMMAND with its arguments as given (no shell), in this folder, with\n"
	      "this terminal, and write to FILE how long it took, how it ended and, on\n"
	      "Linux as root, the programs that did not exist before it started which\n"
	      "its processes executed (a fanotify notification group: nothing waits).\n"
	      "  --out FILE    the result (docs/formats.md, \"execwatch\"), written whole\n"
	      "  --watch PATH  watch the file system PATH is on (repeatable; default:\n"
	      "                the current folder)\n"
	      "  --no-watch    only time the command\n"
	      "Exit: the command's status (128+N: ended by signal N; 127: not found;\n"
	      "126: could not be run); 1 FILE cannot be written, 2 bad usage.\n", f);
}

/* A signal, as one byte pair through the self-pipe: its number and whether
 * a process sent it (si_pid != 0), not the kernel (a terminal's ^C). */
static void on_signal(int sig, siginfo_t *si, void *ctx)
{
	unsigned char b[2];
	int saved = errno;

	(void)ctx;
	b[0] = (unsigned char)sig;
	b[1] = si && si->si_pid != 0;
	if (write(sig_pipe[1], b, sizeof b) < 0) {
		/* full pipe: the loop has plenty to read already */
	}
	errno = saved;
}

static const char *sig_name(int sig)
{
	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	case SIGQUIT: return "SIGQUIT";
	case SIGKILL: return "SIGKILL";
	default: return "a signal";
	}
}

static void utc_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL || strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, len, "unknown");
}

int main(int argc, char **argv)
{
	const char *out = NULL, *watch[MAX_WATCH];
	int nwatch = 0, no_watch = 0, i, watching = 0;
	char why[512] = "", started[32];
	int release[2], errpipe[2];
	struct sigaction sa;
	pid_t pid;
	uint64_t t0, t1;
	int status = 0, ended = 0, exec_errno = 0, first_sig = 0, first_forwarded = 0, kills = 0;
	struct rusage ru;
	struct atomic_file af;

	progname = "execwatch";
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return EXIT_OK;
		} else if (strcmp(argv[i], "--out") == 0 || strcmp(argv[i], "--watch") == 0) {
			if (i + 1 >= argc)
				die(EXIT_USAGE, "%s needs a value (see --help)", argv[i]);
			if (strcmp(argv[i], "--out") == 0) {
				out = argv[++i];
			} else {
				if (nwatch == MAX_WATCH)
					die(EXIT_USAGE, "at most %d --watch paths", MAX_WATCH);
				watch[nwatch++] = argv[++i];
			}
		} else if (strcmp(argv[i], "--no-watch") == 0) {
			no_watch = 1;
		} else {
			die(EXIT_USAGE, "unknown option '%s' (see --help)", argv[i]);
		}
	}
	if (!out || !out[0])
		die(EXIT_USAGE, "--out FILE is required (see --help)");
	if (i >= argc || !argv[i][0])
		die(EXIT_USAGE, "no command after -- (see --help)");
	if (nwatch == 0)
		watch[nwatch++] = ".";
	/* the result's folder must take it before anything runs */
	if (atomic_open(&af, out) != 0)
		die(EXIT_FAIL, "cannot write %s:", out);

	if (pipe(sig_pipe) != 0 || pipe(release) != 0 || pipe(errpipe) != 0)
		die(EXIT_FAIL, "pipe:");
	for (int k = 0; k < 2; k++) {
		fcntl(sig_pipe[k], F_SETFD, FD_CLOEXEC);
		fcntl(sig_pipe[k], F_SETFL, O_NONBLOCK);
		fcntl(release[k], F_SETFD, FD_CLOEXEC);
		fcntl(errpipe[k], F_SETFD, FD_CLOEXEC);
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);

	if (no_watch)
		snprintf(why, sizeof why, "not asked to (--no-watch)");
	else
		watching = xw_start(watch, nwatch, why, sizeof why) == 0;

	pid = fork();
	if (pid < 0)
		die(EXIT_FAIL, "fork:");
	if (pid == 0) {
		char b;
		int e;
		struct sigaction dfl;
		sigset_t none;

		/* the command gets the dispositions a shell in the foreground
		 * gives it: INT and QUIT act (a shell's asynchronous list ignores
		 * them, and that is how the measure starts this) */
		memset(&dfl, 0, sizeof dfl);
		dfl.sa_handler = SIG_DFL;
		sigemptyset(&dfl.sa_mask);
		sigaction(SIGINT, &dfl, NULL);
		sigaction(SIGQUIT, &dfl, NULL);
		sigaction(SIGTERM, &dfl, NULL);
		sigaction(SIGHUP, &dfl, NULL);
		sigaction(SIGCHLD, &dfl, NULL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		close(release[1]);
		close(errpipe[0]);
		while (read(release[0], &b, 1) < 0 && errno == EINTR)
			;
		close(release[0]);
		execvp(argv[i], argv + i);
		e = errno;
		if (write(errpipe[1], &e, sizeof e) < 0) {
			/* the parent then sees only the status */
		}
		fprintf(stderr, "execwatch: %s: %s\n", argv[i],
			e == ENOENT ? "command not found" : strerror(e));
		_exit(e == ENOENT ? 127 : 126);
	}
	close(release[0]);
	close(errpipe[1]);
	if (watching)
		xw_root(pid);
	utc_now(started, sizeof started);
	t0 = now_ns();
	if (write(release[1], "g", 1) != 1)
		die(EXIT_FAIL, "cannot release the command:");
	close(release[1]);

	while (!ended) {
		struct pollfd pfd[MAX_POLL];
		int n = 1, r;

		pfd[0].fd = sig_pipe[0];
		pfd[0].events = POLLIN;
		if (watching)
			n += xw_pollfds(pfd + 1, MAX_POLL - 1);
		r = poll(pfd, (nfds_t)n, -1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			die(EXIT_FAIL, "poll:");
		}
		if (n > 1)
			xw_read();
		if (pfd[0].revents & POLLIN) {
			unsigned char b[2];

			while (read(sig_pipe[0], b, sizeof b) == (ssize_t)sizeof b) {
				int sig = b[0], forward;

				if (sig == SIGCHLD)
					continue;
				/* a terminal's INT or QUIT reached the command too */
				forward = (sig != SIGINT && sig != SIGQUIT) || b[1];
				if (!first_sig) {
					first_sig = sig;
					first_forwarded = forward;
					if (forward)
						kill(pid, sig == SIGHUP ? SIGHUP : sig);
				} else if (forward || sig == first_sig) {
					kills++;
					kill(pid, SIGKILL);
				}
			}
		}
		for (;;) {
			pid_t w = waitpid(pid, &status, WNOHANG);

			if (w == pid) {
				ended = 1;
				break;
			}
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				die(EXIT_FAIL, "wait:");
			break;
		}
	}
	t1 = now_ns();
	/* A signal to the whole job (a terminal's ^C) can reach this process
	 * only after the command it also ended has been reaped: it still
	 * interrupted the command. */
	if (!first_sig) {
		unsigned char b[2];

		while (read(sig_pipe[0], b, sizeof b) == (ssize_t)sizeof b)
			if (b[0] != SIGCHLD && !first_sig) {
				first_sig = b[0];
				first_forwarded = -1;
			}
	}
	/* the command is the only child waited for: its tree's CPU time */
	if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
		memset(&ru, 0, sizeof ru);
	if (read(errpipe[0], &exec_errno, sizeof exec_errno) != (ssize_t)sizeof exec_errno)
		exec_errno = 0;
	close(errpipe[0]);
	if (watching)
		xw_finish();

	fprintf(af.fp, "execlag-execwatch\t1\n");
	fprintf(af.fp, "started_utc\t%s\n", started);
	fprintf(af.fp, "wall_ns\t%llu\n", (unsigned long long)(t1 - t0));
	if (exec_errno)
		fprintf(af.fp, "status\tnot-run\t%s\n",
			exec_errno == ENOENT ? "command not found" : strerror(exec_errno));
	else if (WIFSIGNALED(status))
		fprintf(af.fp, "status\tsignal\t%d\n", WTERMSIG(status));
	else
		fprintf(af.fp, "status\texit\t%d\n", WEXITSTATUS(status));
	fprintf(af.fp, "user_us\t%lld\n",
		(long long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec);
	fprintf(af.fp, "sys_us\t%lld\n",
		(long long)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec);
	if (first_sig)
		fprintf(af.fp, "interrupted\t%s\t%s\n", sig_name(first_sig),
			kills ? "killed" : first_forwarded < 0 ? "as it ended" :
			first_forwarded ? "passed on" : "from the terminal");
	if (watching)
		xw_write(af.fp);
	else
		fprintf(af.fp, "watch\toff\t%s\n", why);
	if (atomic_commit(&af) != 0) {
		warnx_("cannot write %s:", out);
		/* the command's status still wins: it ran */
	}
	if (exec_errno)
		return exec_errno == ENOENT ? 127 : 126;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
