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
#include "newexecs.h"
#include "opts.h"
#include "sizesummary.h"
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

/* The command line, as given. */
struct xw_opts {
	const char *out, *watch[MAX_WATCH];
	int nwatch, no_watch;
	char **cmd;
};

/* What became of the command. */
struct outcome {
	pid_t pid;
	int status, exec_errno, first_sig, first_forwarded, kills;
	uint64_t t0, t1;
	char started[32];
	struct rusage ru;
};

static void parse_args(int argc, char **argv, struct xw_opts *o)
{
	const struct opt opts[] = {
		OPT_VALUE("--out", &o->out), OPT_LIST("--watch", o->watch, &o->nwatch, MAX_WATCH),
		OPT_FLAG("--no-watch", &o->no_watch), OPT_END
	};
	int i;

	memset(o, 0, sizeof *o);
	i = opts_parse(argc, argv, opts, OPTS_AFTER_DASHDASH, usage);
	if (!o->out || !o->out[0])
		die(EXIT_USAGE, "--out FILE is required (see --help)");
	if (i >= argc || !argv[i][0])
		die(EXIT_USAGE, "no command after -- (see --help)");
	if (o->nwatch == 0)
		o->watch[o->nwatch++] = ".";
	o->cmd = argv + i;
}

/* The pipes (close-on-exec; the signal pipe never blocks) and the
 * handler that writes every signal into sig_pipe. */
static void open_pipes(int release[2], int errpipe[2])
{
	struct sigaction sa;
	int k;

	if (pipe(sig_pipe) != 0 || pipe(release) != 0 || pipe(errpipe) != 0)
		die(EXIT_FAIL, "pipe:");
	for (k = 0; k < 2; k++) {
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
}

/* In the child: wait to be released, then become the command; an exec
 * that fails sends its errno up errpipe. */
static void run_command(char **cmd, int release[2], int errpipe[2])
{
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
	execvp(cmd[0], cmd);
	e = errno;
	if (write(errpipe[1], &e, sizeof e) < 0) {
		/* the parent then sees only the status */
	}
	fprintf(stderr, "execwatch: %s: %s\n", cmd[0],
		e == ENOENT ? "command not found" : strerror(e));
	_exit(e == ENOENT ? 127 : 126);
}

/* The signals that arrived: the first is passed on (a terminal's INT or
 * QUIT reached the command already), a second kills the command. */
static void take_signals(struct outcome *r)
{
	unsigned char b[2];

	while (read(sig_pipe[0], b, sizeof b) == (ssize_t)sizeof b) {
		int sig = b[0], forward;

		if (sig == SIGCHLD)
			continue;
		forward = (sig != SIGINT && sig != SIGQUIT) || b[1];
		if (!r->first_sig) {
			r->first_sig = sig;
			r->first_forwarded = forward;
			if (forward)
				kill(r->pid, sig == SIGHUP ? SIGHUP : sig);
		} else if (forward || sig == r->first_sig) {
			r->kills++;
			kill(r->pid, SIGKILL);
		}
	}
}

/* Until the command ends: signals, the watcher's events, the reaping. */
static void wait_command(struct outcome *r, int watching)
{
	int ended = 0;

	while (!ended) {
		struct pollfd pfd[MAX_POLL];
		int n = 1;

		pfd[0].fd = sig_pipe[0];
		pfd[0].events = POLLIN;
		if (watching)
			n += newexecs_pollfds(pfd + 1, MAX_POLL - 1);
		if (poll(pfd, (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			die(EXIT_FAIL, "poll:");
		}
		if (n > 1)
			newexecs_read();
		if (pfd[0].revents & POLLIN)
			take_signals(r);
		for (;;) {
			pid_t w = waitpid(r->pid, &r->status, WNOHANG);

			if (w == r->pid) {
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
	r->t1 = now_ns();
}

/* A signal to the whole job (a terminal's ^C) can reach this process only
 * after the command it also ended has been reaped: it still interrupted
 * the command. */
static void late_signal(struct outcome *r)
{
	unsigned char b[2];

	if (r->first_sig)
		return;
	while (read(sig_pipe[0], b, sizeof b) == (ssize_t)sizeof b)
		if (b[0] != SIGCHLD && !r->first_sig) {
			r->first_sig = b[0];
			r->first_forwarded = -1;
		}
}

/* This process's own peak resident memory, the listener's (not the
 * command's), in KiB; -1 where it is not read: ru_maxrss is no POSIX
 * field (macOS hides it under _POSIX_C_SOURCE), and only Linux has a
 * listener to weigh. */
static long self_maxrss_kb(void)
{
#ifdef __linux__
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return -1;
	return (long)ru.ru_maxrss; /* KiB on Linux (getrusage(2)) */
#else
	return -1;
#endif
}

/* A path in a result line: a tab or newline in it would break the line,
 * shown as ?. */
static void put_path(FILE *f, const char *p)
{
	for (; *p; p++)
		fputc(*p == '\t' || *p == '\n' || *p == '\r' ? '?' : *p, f);
}

/* The listener's lines: what it watched, how it told the command's
 * processes, its counts, the new programs' sizes and the programs. */
static void write_seen(FILE *f, const struct newexecs_seen *s)
{
	size_t i;
	int j;

	fprintf(f, "watch\ton\n");
	for (j = 0; j < s->n_fs; j++)
		fprintf(f, "fs\t%s\t%s\n", s->fs[j].mount_only ? "mount" : "filesystem", s->fs[j].path);
	fprintf(f, "tree\t%s\n", s->tree);
	fprintf(f, "fresh_launches\t%ld\n", s->count.fresh_launches);
	fprintf(f, "fresh_execs\t%ld\n", s->count.fresh_execs);
	fprintf(f, "old_execs\t%ld\n", s->count.old_execs);
	fprintf(f, "outside\t%ld\n", s->count.outside);
	fprintf(f, "unplaced\t%ld\n", s->count.unplaced);
	fprintf(f, "new_by\t%ld\t%ld\n", s->count.by_btime, s->count.by_ctime);
	fprintf(f, "overflow\t%d\n", s->count.overflow);
	if (s->n_sizes > 0) {
		uint64_t med, p90, max;

		size_summary(s->sizes, s->n_sizes, &med, &p90, &max);
		fprintf(f, "sizes\t%zu\t%llu\t%llu\t%llu\n", s->n_sizes, (unsigned long long)med,
			(unsigned long long)p90, (unsigned long long)max);
	}
	for (i = 0; i < s->n_programs; i++) {
		const struct newexecs_program *p = &s->programs[i];

		fprintf(f, "program\t%.3f\t%ld\t%s\t", p->ms, p->pid, p->how);
		put_path(f, p->path);
		fputc('\n', f);
	}
}

static void write_result(FILE *f, const struct outcome *r, int watching, const char *why)
{
	fprintf(f, "execlag-execwatch\t1\n");
	fprintf(f, "started_utc\t%s\n", r->started);
	fprintf(f, "wall_ns\t%llu\n", (unsigned long long)(r->t1 - r->t0));
	if (r->exec_errno)
		fprintf(f, "status\tnot-run\t%s\n",
			r->exec_errno == ENOENT ? "command not found" : strerror(r->exec_errno));
	else if (WIFSIGNALED(r->status))
		fprintf(f, "status\tsignal\t%d\n", WTERMSIG(r->status));
	else
		fprintf(f, "status\texit\t%d\n", WEXITSTATUS(r->status));
	fprintf(f, "user_us\t%lld\n",
		(long long)r->ru.ru_utime.tv_sec * 1000000 + r->ru.ru_utime.tv_usec);
	fprintf(f, "sys_us\t%lld\n",
		(long long)r->ru.ru_stime.tv_sec * 1000000 + r->ru.ru_stime.tv_usec);
	fprintf(f, "maxrss_kb\t%ld\n", self_maxrss_kb());
	if (r->first_sig)
		fprintf(f, "interrupted\t%s\t%s\n", sig_name(r->first_sig),
			r->kills ? "killed" : r->first_forwarded < 0 ? "as it ended" :
			r->first_forwarded ? "passed on" : "from the terminal");
	if (watching) {
		struct newexecs_seen seen;

		newexecs_result(&seen);
		write_seen(f, &seen);
	} else
		fprintf(f, "watch\toff\t%s\n", why);
}

int main(int argc, char **argv)
{
	struct xw_opts o;
	struct outcome r;
	char why[512] = "";
	int release[2], errpipe[2], watching = 0;
	struct atomic_file af;

	progname = "execwatch";
	parse_args(argc, argv, &o);
	/* the result's folder must take it before anything runs */
	if (atomic_open(&af, o.out) != 0)
		die(EXIT_FAIL, "cannot write %s:", o.out);
	open_pipes(release, errpipe);
	if (o.no_watch)
		snprintf(why, sizeof why, "not asked to (--no-watch)");
	else
		watching = newexecs_start(o.watch, o.nwatch, why, sizeof why) == 0;

	memset(&r, 0, sizeof r);
	r.pid = fork();
	if (r.pid < 0)
		die(EXIT_FAIL, "fork:");
	if (r.pid == 0)
		run_command(o.cmd, release, errpipe);
	close(release[0]);
	close(errpipe[1]);
	if (watching)
		newexecs_root(r.pid);
	utc_now(r.started, sizeof r.started);
	r.t0 = now_ns();
	if (write(release[1], "g", 1) != 1)
		die(EXIT_FAIL, "cannot release the command:");
	close(release[1]);
	wait_command(&r, watching);
	late_signal(&r);
	/* the command is the only child waited for: its tree's CPU time */
	if (getrusage(RUSAGE_CHILDREN, &r.ru) != 0)
		memset(&r.ru, 0, sizeof r.ru);
	if (read(errpipe[0], &r.exec_errno, sizeof r.exec_errno) != (ssize_t)sizeof r.exec_errno)
		r.exec_errno = 0;
	close(errpipe[0]);
	if (watching)
		newexecs_finish();
	write_result(af.fp, &r, watching, why);
	if (atomic_commit(&af) != 0)
		warnx_("cannot write %s:", o.out); /* the command's status still wins: it ran */
	if (r.exec_errno)
		return r.exec_errno == ENOENT ? 127 : 126;
	if (WIFSIGNALED(r.status))
		return 128 + WTERMSIG(r.status);
	return WEXITSTATUS(r.status);
}
