/* compile.c - the compiled kinds' units, by the C compiler (compile.h). */
#define _POSIX_C_SOURCE 200809L
#include "compile.h"
#include "csource.h"
#include "made.h"
#include "newfile.h"
#include "padding.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* A compiler at work. */
struct cjob {
	pid_t pid;      /* 0 = slot free (or already reaped) */
	char *src, *out, *final, *err;
	char *pad;      /* the padding's bytes (--size), or NULL */
};

static struct cjob *jobs;       /* running compilers */
static int njobs;

static void no_compiler(void)
{
	die(EXIT_USAGE, "no C compiler: %s not found (install one, or set CC)",
	    mk.cc_argv[0]);
}

void compile_setup(const char *cc)
{
	mk.cc_argv = split_blanks(cc ? cc : getenv("CC"), "cc", 0, &mk.cc_argc);
	if (mk.cc_argc > 32)
		die(EXIT_USAGE, "CC has more than 32 words");
	if (!find_in_path(mk.cc_argv[0]))
		no_compiler();
}

/* ---- the running compilers ---- */

/* Reap every finished compiler without blocking; returns how many run. */
static int reap_jobs(void)
{
	int i, st, left = 0;
	pid_t r;

	for (i = 0; i < njobs; i++) {
		if (jobs[i].pid <= 0)
			continue;
		r = waitpid(jobs[i].pid, &st, WNOHANG);
		if (r == jobs[i].pid || (r < 0 && errno != EINTR))
			jobs[i].pid = 0;        /* reaped, or not ours */
		else
			left++;
	}
	return left;
}

static void signal_jobs(int sig)
{
	int i;

	for (i = 0; i < njobs; i++)
		if (jobs[i].pid > 0) {
			kill(-jobs[i].pid, sig);    /* its process group */
			kill(jobs[i].pid, sig);
		}
}

/* A compiler driver that ends by itself has waited for its own children
 * (cc1, as, ld), so once it is reaped nothing of it can still write into
 * WORKDIR; letting it finish is the portable way to know that. */
void compile_stop(void)
{
	/* interrupted: a second for them (a tiny compile ends well within it),
	 * so the caller's stop is not kept waiting by one that never ends */
	uint64_t t = now_ns(), grace = made_signal() ? 1000000000u : 5000000000u;
	int i, st;

	while (reap_jobs() > 0 && now_ns() - t < grace)
		mk_sleep_ms(2);
	if (reap_jobs() == 0)
		return;
	signal_jobs(SIGTERM);
	t = now_ns();
	while (reap_jobs() > 0 && now_ns() - t < 1000000000u)
		mk_sleep_ms(2);
	signal_jobs(SIGKILL);
	for (i = 0; i < njobs; i++)
		if (jobs[i].pid > 0) {
			while (waitpid(jobs[i].pid, &st, 0) < 0 && errno == EINTR)
				;
			jobs[i].pid = 0;
		}
	mk_sleep_ms(50);   /* the group's other members die with it */
}

/* ---- one compiler ---- */

/* posix_spawn with stdin/stdout on /dev/null, stderr on errfd (or
 * /dev/null), default signal handling, its own process group.  Returns 0 or
 * an errno value. */
static int spawn_quiet(const char *file, char *const argv[], int search,
		       int errfd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, dfl;
	int rc;

	if ((rc = posix_spawn_file_actions_init(&fa)) != 0)
		return rc;
	if ((rc = posix_spawnattr_init(&at)) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		return rc;
	}
	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	sigaddset(&dfl, SIGQUIT);
	sigaddset(&dfl, SIGHUP);
	sigaddset(&dfl, SIGPIPE);
	if (!rc)
		rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null",
						      O_RDONLY, 0);
	if (!rc)
		rc = posix_spawn_file_actions_addopen(&fa, 1, "/dev/null",
						      O_WRONLY, 0);
	if (!rc)
		rc = errfd >= 0 ?
		     posix_spawn_file_actions_adddup2(&fa, errfd, 2) :
		     posix_spawn_file_actions_addopen(&fa, 2, "/dev/null",
						      O_WRONLY, 0);
	if (!rc)
		rc = posix_spawnattr_setsigmask(&at, &none);
	if (!rc)
		rc = posix_spawnattr_setsigdefault(&at, &dfl);
	if (!rc)
		rc = posix_spawnattr_setpgroup(&at, 0);
	if (!rc)
		rc = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP |
					      POSIX_SPAWN_SETSIGMASK |
					      POSIX_SPAWN_SETSIGDEF);
	if (!rc)
		rc = search ? posix_spawnp(pid, file, &fa, &at, argv, environ)
			    : posix_spawn(pid, file, &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	return rc;
}

/* The source of unit u named stem into j->src (its padding's file first,
 * where it has one). */
static void write_source(struct cjob *j, enum unit u, const char *stem, const char *forced)
{
	char *nonce = forced ? xstrdup(forced) : make_nonce(stem), *text;

	if (mk.pad_bytes > 0 && u != U_HOST) {
		j->pad = xasprintf("%s/%s.pad", mk.workdir, stem);
		newfile_refuse(j->pad);
		pad_write(j->pad, nonce);
	}
	text = csource(u, nonce, j->pad);
	newfile_text(j->src, text, 0644);
	free(text);
	free(nonce);
}

/* Start compiling unit u named stem (e.g. "exe-0003") into job j. */
static void start_job(struct cjob *j, enum unit u, const char *stem, const char *forced)
{
	const char *argv[32 + 16];
	int n = 0, i, fd, rc;

	j->src = xasprintf("%s/%s.c", mk.workdir, stem);
	j->final = xasprintf("%s/%s%s", mk.workdir, stem,
			     u == U_LIB ? LIB_EXT : "");
	j->out = xasprintf("%s.tmp", j->final);
	j->err = xasprintf("%s/%s.cc-err", mk.workdir, stem);

	newfile_refuse(j->final);
	newfile_refuse(j->out);
	write_source(j, u, stem, forced);

	fd = newfile_open(j->err);
	made_track(j->out);

	for (i = 0; i < mk.cc_argc; i++)
		argv[n++] = mk.cc_argv[i];
	argv[n++] = "-O0";
	if (u == U_LIB) {
		argv[n++] = "-shared";
		argv[n++] = "-fPIC";
	}
	argv[n++] = "-o";
	argv[n++] = j->out;
	argv[n++] = j->src;
#if defined(__linux__)
	if (u == U_HOST)
		argv[n++] = "-ldl";
#endif
	argv[n] = NULL;

	rc = spawn_quiet(mk.cc_argv[0], (char *const *)argv, 1, fd, &j->pid);
	close(fd);
	if (rc != 0) {
		j->pid = 0;
		if (rc == ENOENT)
			no_compiler();
		errno = rc;
		die(EXIT_FAIL, "cannot run %s:", mk.cc_argv[0]);
	}
}

/* First line of a compiler's stderr, for the one-line error message. */
static char *first_line(const char *path)
{
	char buf[512];
	FILE *f = fopen(path, "r");
	size_t len;

	if (!f)
		return xstrdup("(no message)");
	if (!fgets(buf, sizeof buf, f))
		buf[0] = '\0';
	fclose(f);
	len = strcspn(buf, "\r\n");
	buf[len] = '\0';
	return xstrdup(len ? buf : "(no message)");
}

/* A compiler that failed for want of space says so somewhere in its
 * output, or (its own stderr unwritable) nothing at all. */
static void compile_full(const char *errpath)
{
	char buf[512];
	const char *nospace = strerror(ENOSPC);
	FILE *f = fopen(errpath, "r");
	int said = 0;

	while (f && !said && fgets(buf, sizeof buf, f))
		said = strstr(buf, nospace) != NULL;
	if (f)
		fclose(f);
	/* the work folder, or the compiler's temporaries in TMPDIR */
	die_if_compile_full(EXIT_FAIL, mk.workdir);
	if (said)
		die(EXIT_FAIL, "no space left in %s", mk.workdir);
}

/* A compiler that ended with status st: its output in place, or exit 1. */
static void finish_job(struct cjob *j, int st)
{
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		char *line;

		compile_full(j->err);
		line = first_line(j->err);

		if (WIFSIGNALED(st))
			die(EXIT_FAIL, "compiler failed on %s (signal %d): %s",
			    j->src, WTERMSIG(st), line);
		die(EXIT_FAIL, "compiler failed on %s (exit %d): %s",
		    j->src, WEXITSTATUS(st), line);
	}
	unlink(j->src);
	unlink(j->err);
	if (j->pad)
		unlink(j->pad);
	/* No stat or open of the output: chmod tells whether it exists. */
	if (chmod(j->out, 0755) != 0) {
		if (errno == ENOENT)
			die(EXIT_FAIL, "compiler made no %s", j->out);
		die(EXIT_FAIL, "cannot chmod %s:", j->out);
	}
	if (mk.quarantine)
		newfile_quarantine(j->out);
	newfile_publish(j->out, j->final);
	free(j->src);
	free(j->out);
	free(j->final);
	free(j->err);
	free(j->pad);
	j->src = j->out = j->final = j->err = j->pad = NULL;
}

void compile_units(long n, enum unit u, long njob, const char *stem_one, const char *nonce)
{
	long next = 0, done = 0;
	int i, st;
	pid_t pid;

	if (njob > n)
		njob = n;
	jobs = xmalloc((size_t)njob * sizeof *jobs);
	memset(jobs, 0, (size_t)njob * sizeof *jobs);
	njobs = (int)njob;
	while (done < n) {
		stop_if_interrupted();
		if (next < n) {
			for (i = 0; i < njobs && jobs[i].pid != 0; i++)
				;
			if (i < njobs) {
				char *stem = stem_one ? xstrdup(stem_one) : slot_stem(mk.first + next);

				start_job(&jobs[i], u, stem, nonce);
				free(stem);
				next++;
				continue;
			}
		}
		pid = waitpid(-1, &st, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			die(EXIT_FAIL, "waitpid:");
		}
		for (i = 0; i < njobs && jobs[i].pid != pid; i++)
			;
		if (i == njobs)
			continue;
		jobs[i].pid = 0;
		finish_job(&jobs[i], st);
		done++;
	}
	free(jobs);
	jobs = NULL;
	njobs = 0;
}
