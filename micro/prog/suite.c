/* suite - a compiler test suite in miniature: M small C programs, each
 * compiled with cc and then run, J at a time, timed end to end.
 *
 * Four passes, in this order, each started by J threads together on a
 * barrier; the threads take the next program from a shared counter:
 *
 *   fresh   set A: compile each program, then run it (its first launch)
 *   build   set B, M new programs: compile only (not part of "alone")
 *   alone   set B: run only, so only their first launches are timed
 *   rerun   set A again: run only (every binary launched once before)
 *
 * Each compile and each run is timed around posix_spawn + waitpid on the
 * monotonic clock; a pass's wall time runs from the barrier's release to
 * the end of its last program, and its CPU time is what its children used
 * (getrusage RUSAGE_CHILDREN before and after).  Sources and binaries are
 * files directly in WORKDIR; all of them are removed at the end, also on
 * failure or SIGINT/SIGTERM/SIGHUP.  The results file (docs/formats.md,
 * "Suite") is written atomically.  Exit: 0 ok, 1 failure, 2 usage,
 * 130 interrupted. */
#if defined(__APPLE__)
#define _DARWIN_C_SOURCE /* _SC_NPROCESSORS_ONLN */
#endif
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700 /* realpath (POSIX.1-2008, XSI) */
#include "fsflush.h"
#include "barrier.h"
#include "looks.h"
#include "orderstats.h"
#include "sim.h"
#include "stop.h"
#include "opts.h"
#include "outcome.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define MAX_COUNT 100000L
#define MAX_JOBS 1024L
#define NSETS 2

enum pass { P_FRESH, P_RERUN, P_BUILD, P_ALONE, NPASS };
static const char *const pass_name[NPASS] = { "fresh", "rerun", "build", "alone" };
/* Which set each pass works on, and what it does. */
static const int pass_set[NPASS] = { 0, 0, 1, 1 };
static const int pass_compiles[NPASS] = { 1, 0, 1, 0 };
static const int pass_runs[NPASS] = { 1, 1, 0, 1 };

struct sample {
	uint64_t compile_ns, run_ns;
	int compiled, ran;  /* which of the two steps happened */
	int exit_status;    /* of the last step; -1 when signalled or not spawned */
	int signal;
	int spawn_errno;
	int job;
};

struct pass_result {
	int ran;
	uint64_t wall_ns;
	uint64_t user_us, sys_us;
	long programs;
};

static long count;
static long jobs = 1;
static const char *prefix = "suite";
static char *workdir;
static char **cc_argv;
static int cc_argc;
static const char *cc_text;

static char **src[NSETS], **exe[NSETS];
static int claimed;            /* the paths are ours to remove */
static struct sample *samples[NPASS];
static struct pass_result passes[NPASS];

static volatile sig_atomic_t got_signal;
static int keep_files;         /* --keep: a finished run leaves them to the caller */
/* --launcher sim:SETTINGS: the runs are the model's (sim.h); one compile
 * stays real, timed, and stands for every program's (tmpl).  One model for the whole suite, so set A's reruns meet the
 * checks its fresh runs made. */
static struct sim *model;
static const char *launcher_spec = "spawn";

/* The pass in progress, shared by its threads. */
static struct {
	enum pass pass;
	struct barrier start;
	pthread_mutex_t mu;
	long next, end;   /* the programs of this chunk: next .. end-1 */
	int failed;       /* a compiler failed: stop taking programs */
	long failed_index;
	int failed_status;
	uint64_t t_start[MAX_JOBS], t_end[MAX_JOBS];
} cur;

static posix_spawn_file_actions_t quiet_all, quiet_out;

static void usage(FILE *f)
{
	fprintf(f,
"usage: suite --dir WORKDIR --count M --out FILE [--jobs J] [--prefix NAME]\n"
"             [--cc CC] [--keep] [--sequential] [--launcher spawn|sim:SETTINGS]\n"
"             [--quiet]\n"
"       suite --help\n"
"\n"
"A compiler test suite in miniature: M small C programs (each with a nonce),\n"
"each compiled with cc and run, J at a time.  Times four passes end to end:\n"
"  fresh  compile + first run of set A     build  compile a new set B\n"
"  alone  first runs of set B only         rerun  run set A again\n"
"and writes FILE atomically (docs/formats.md, \"Suite\").  Sources and\n"
"binaries are made directly in WORKDIR (which must exist) as NAME-a-0000.c,\n"
"NAME-a-0000 ... and are all removed at the end, also when interrupted.\n"
"  --count M    programs per set, 1..%ld\n"
"  --jobs J     programs at once, 1..%ld and at most M (1)\n"
"  --prefix N   file names start with N, [A-Za-z0-9._-] (suite)\n"
"  --cc CC      C compiler (default: $CC, else cc); may hold arguments\n"
"  --keep       when the run completes, leave the programs to the caller\n"
"               (who removes WORKDIR): no launched file is deleted while a\n"
"               calibration gate keyed by inode could see its inode reused;\n"
"               on failure or interrupt they are removed all the same\n"
"  --sequential each pass chunk by chunk, looking after each chunk (at\n"
"               max(8, 2J) programs, then in steps, the last at M): stop\n"
"               once the per-launch cost is certain (docs/method.md)\n"
"  --launcher L spawn: run the programs (the default); sim:SETTINGS: one\n"
"               real compile, timed, stands for each program's; the runs\n"
"               are the seeded model's, which runs nothing (docs/method.md,\n"
"               \"The simulator\")\n"
"  --quiet      no per-pass line on stderr\n"
"exit: 0 ok, 1 failure, 2 usage, 130 interrupted.\n", MAX_COUNT, MAX_JOBS);
}

/* ---- cleanup ------------------------------------------------------------ */

static void remove_files(void)
{
	long i;
	int s;

	if (!claimed)
		return;
	for (s = 0; s < NSETS; s++)
		for (i = 0; i < count; i++) {
			unlink(exe[s][i]);
			unlink(src[s][i]);
		}
	claimed = 0;
}

static void on_signal(int sig)
{
	got_signal = sig;
}

static void check_interrupt(void)
{
	if (got_signal) {
		warnx_("interrupted by signal %d; removing the programs", (int)got_signal);
		exit(130);
	}
}

/* ---- files -------------------------------------------------------------- */

static void write_source(const char *path, const char *nonce)
{
	char *text = xasprintf(
		"/* execlag suite program: one small test, compiled and run. */\n"
		"#include <stdio.h>\n"
		"#include <string.h>\n"
		"\n"
		"static const char nonce[] = \"%s\";\n"
		"\n"
		"int main(void)\n"
		"{\n"
		"\tunsigned long h = 5381;\n"
		"\tsize_t i, n = strlen(nonce);\n"
		"\n"
		"\tfor (i = 0; i < n; i++)\n"
		"\t\th = h * 33 + (unsigned char)nonce[i];\n"
		"\tif (n + 1 != sizeof nonce)\n"
		"\t\treturn 1;\n"
		"\tprintf(\"%%s %%lx\\n\", nonce, h);\n"
		"\treturn 0;\n"
		"}\n", nonce);
	size_t len = strlen(text), off = 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0) {
		die_if_full(EXIT_FAIL, workdir);
		die(EXIT_FAIL, "cannot create %s:", path);
	}
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			die_if_full(EXIT_FAIL, workdir);
			die(EXIT_FAIL, "cannot write %s:", path);
		}
		off += (size_t)w;
	}
	if (close(fd) != 0) {
		die_if_full(EXIT_FAIL, workdir);
		die(EXIT_FAIL, "cannot write %s:", path);
	}
	free(text);
}

/* Every path this run will make must be new, so that removing them at the
 * end never removes a file that was not ours. */
static void claim_paths(void)
{
	struct stat st;
	long i;
	int s;

	for (s = 0; s < NSETS; s++) {
		src[s] = xmalloc(sizeof(char *) * (size_t)count);
		exe[s] = xmalloc(sizeof(char *) * (size_t)count);
		for (i = 0; i < count; i++) {
			exe[s][i] = xasprintf("%s/%s-%c-%04ld", workdir, prefix, 'a' + s, i);
			src[s][i] = xasprintf("%s.c", exe[s][i]);
			if (lstat(exe[s][i], &st) == 0 || lstat(src[s][i], &st) == 0)
				die(EXIT_FAIL, "%s already exists; refusing to replace it", exe[s][i]);
		}
	}
	claimed = 1;
}

static void write_sources(void)
{
	long i;
	int s;

	for (s = 0; s < NSETS; s++)
		for (i = 0; i < count; i++) {
			char *nonce = xasprintf("execlag-suite:%s:%c:%ld:%ld:%lld:%llu", prefix,
						'a' + s, i, (long)getpid(), (long long)time(NULL),
						(unsigned long long)now_ns());

			write_source(src[s][i], nonce);
			free(nonce);
			check_interrupt();
		}
}

/* ---- compiler ----------------------------------------------------------- */

/* $CC split at blanks, with room for "-o OUT SRC" after it. */
static void split_cc(const char *cc)
{
	cc_text = cc && *cc ? cc : "cc";
	cc_argv = split_blanks(cc, "cc", 4, &cc_argc);
	if (!find_in_path(cc_argv[0]))
		die(EXIT_USAGE, "no C compiler: %s not found (install one, or set CC)", cc_argv[0]);
}

/* ---- one program -------------------------------------------------------- */

/* Spawn argv (searching PATH when search) and wait; returns the errno of
 * posix_spawn (0 when it spawned) and the wait status in *st. */
static int spawn_wait(const char *file, char *const argv[], int search,
		      const posix_spawn_file_actions_t *fa, int *st)
{
	pid_t pid;
	int err = search ? posix_spawnp(&pid, file, fa, NULL, argv, environ)
			 : posix_spawn(&pid, file, fa, NULL, argv, environ);

	*st = 0;
	if (err == 0)
		while (waitpid(pid, st, 0) < 0 && errno == EINTR)
			;
	return err;
}

static void record_status(struct sample *s, int err, int st)
{
	s->spawn_errno = err;
	spawn_outcome(err, st, &s->exit_status, &s->signal);
}

/* With the simulator, which runs nothing: one compile, the first program
 * of set A, timed (its wall and its CPU), stands for every program's; the
 * others are not compiled (simulate_pass gives each that time). */
static struct {
	int done;
	uint64_t ns, user_us, sys_us;
} tmpl;

static int compile_one(int set, long i, struct sample *s)
{
	char *argv[64 + 4];
	uint64_t t0;
	int a, st, err;

	if (model && tmpl.done) {
		s->compile_ns = tmpl.ns;
		s->compiled = 1;
		record_status(s, 0, 0);
		return 1;
	}

	for (a = 0; a < cc_argc && a < 64; a++)
		argv[a] = cc_argv[a];
	argv[a++] = "-o";
	argv[a++] = exe[set][i];
	argv[a++] = src[set][i];
	argv[a] = NULL;
	t0 = now_ns();
	err = spawn_wait(argv[0], argv, 1, &quiet_out, &st);
	s->compile_ns = now_ns() - t0;
	s->compiled = 1;
	record_status(s, err, st);
	return err == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void run_one(int set, long i, struct sample *s)
{
	char *argv[2];
	uint64_t t0;
	int st, err;

	argv[0] = exe[set][i];
	argv[1] = NULL;
	t0 = now_ns();
	err = spawn_wait(argv[0], argv, 0, &quiet_all, &st);
	s->run_ns = now_ns() - t0;
	s->ran = 1;
	record_status(s, err, st);
}

/* ---- passes ------------------------------------------------------------- */

/* The next program to work on, or -1 when the pass is over. */
static long take(void)
{
	long i = -1;

	pthread_mutex_lock(&cur.mu);
	if (!cur.failed && !got_signal && cur.next < cur.end)
		i = cur.next++;
	pthread_mutex_unlock(&cur.mu);
	return i;
}

static void *worker_main(void *arg)
{
	int id = (int)(long)arg;
	enum pass p = cur.pass;
	int set = pass_set[p];
	long i;

	barrier_wait(&cur.start);
	cur.t_start[id] = now_ns();
	while ((i = take()) >= 0) {
		struct sample *s = &samples[p][i];

		s->job = id;
		if (pass_compiles[p] && !compile_one(set, i, s)) {
			pthread_mutex_lock(&cur.mu);
			if (!cur.failed) {
				cur.failed = 1;
				cur.failed_index = i;
				cur.failed_status = s->signal ? 128 + s->signal : s->exit_status;
			}
			pthread_mutex_unlock(&cur.mu);
			break;
		}
		if (pass_runs[p] && !model)
			run_one(set, i, s);
	}
	cur.t_end[id] = now_ns();
	return NULL;
}

static uint64_t tv_us(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000u + (uint64_t)tv.tv_usec;
}

/* The simulator's one compile (tmpl), before the first pass; a compiler
 * that fails it fails the run as the fresh pass would. */
static void compile_template(void)
{
	struct rusage before, after;
	struct sample s;

	memset(&s, 0, sizeof s);
	getrusage(RUSAGE_CHILDREN, &before);
	if (!compile_one(0, 0, &s)) {
		die_if_compile_full(EXIT_FAIL, workdir);
		die(EXIT_FAIL, "%s %s failed (status %d) on %s", pass_name[P_FRESH], cc_text,
		    s.signal ? 128 + s.signal : s.exit_status, src[0][0]);
	}
	getrusage(RUSAGE_CHILDREN, &after);
	tmpl.ns = s.compile_ns;
	tmpl.user_us = tv_us(after.ru_utime) - tv_us(before.ru_utime);
	tmpl.sys_us = tv_us(after.ru_stime) - tv_us(before.ru_stime);
	tmpl.done = 1;
}

/* With the simulator, after the pass's compiles (each the one real
 * compile's time, tmpl): the model runs the pass again with J jobs that
 * take the next program as they come free, each compile's time first, then
 * the run; returns the pass's wall time in ns.  The runs' work counts as
 * user CPU. */
static uint64_t simulate_pass(enum pass p, long from, long to)
{
	size_t n = (size_t)(to - from), i;
	struct sim_launch *x = xmalloc((n ? n : 1) * sizeof *x);
	double wall, cpu = 0;

	for (i = 0; i < n; i++) {
		const struct sample *s = &samples[p][from + (long)i];

		memset(&x[i], 0, sizeof x[i]);
		x[i].thread = -1;
		x[i].artifact = pass_set[p] * count + from + (long)i;
		x[i].run = pass_runs[p];
		x[i].pre_ms = pass_compiles[p] ? (double)s->compile_ns / 1e6 : 0;
	}
	wall = sim_pass(model, x, n, (int)jobs, NULL);
	for (i = 0; i < n; i++) {
		struct sample *s = &samples[p][from + (long)i];

		s->job = x[i].thread;
		if (!pass_runs[p])
			continue;
		s->run_ns = (uint64_t)llround(x[i].dur_ms * 1e6);
		s->ran = 1;
		s->exit_status = 0;
		s->signal = 0;
		s->spawn_errno = 0;
		cpu += x[i].cpu_ms;
	}
	passes[p].user_us += (uint64_t)llround(cpu * 1e3);
	free(x);
	return (uint64_t)llround(wall * 1e6);
}

/* One pass over programs [from, to) of its set, added to the pass's
 * totals (a sequential run takes its passes chunk by chunk). */
static void run_pass(enum pass p, long from, long to, int quiet)
{
	pthread_t tid[MAX_JOBS];
	struct rusage before, after;
	uint64_t lo = UINT64_MAX, hi = 0;
	long t;
	int err;

	cur.pass = p;
	cur.next = from;
	cur.end = to;
	for (t = 0; t < jobs; t++) {
		err = pthread_create(&tid[t], NULL, worker_main, (void *)t);
		if (err) {
			errno = err;
			die(EXIT_FAIL, "cannot start thread %ld:", t);
		}
	}
	getrusage(RUSAGE_CHILDREN, &before);
	barrier_wait(&cur.start);
	for (t = 0; t < jobs; t++)
		pthread_join(tid[t], NULL);
	getrusage(RUSAGE_CHILDREN, &after);
	check_interrupt();
	if (cur.failed) {
		die_if_compile_full(EXIT_FAIL, workdir);
		die(EXIT_FAIL, "%s %s failed (status %d) on %s", pass_name[p], cc_text,
		    cur.failed_status, src[pass_set[p]][cur.failed_index]);
	}
	for (t = 0; t < jobs; t++) {
		if (cur.t_start[t] < lo)
			lo = cur.t_start[t];
		if (cur.t_end[t] > hi)
			hi = cur.t_end[t];
	}
	passes[p].ran = 1;
	passes[p].wall_ns += model ? simulate_pass(p, from, to) : hi - lo;
	passes[p].user_us += tv_us(after.ru_utime) - tv_us(before.ru_utime);
	passes[p].sys_us += tv_us(after.ru_stime) - tv_us(before.ru_stime);
	if (model && pass_compiles[p]) {
		/* each program's compile, as the one compile took it */
		passes[p].user_us += tmpl.user_us * (uint64_t)(to - from);
		passes[p].sys_us += tmpl.sys_us * (uint64_t)(to - from);
	}
	passes[p].programs = to;
	if (!quiet && to == count)
		fprintf(stderr, "suite: J=%ld %-5s %ld programs in %.1f ms, CPU %.1f ms\n",
			jobs, pass_name[p], to, passes[p].wall_ns / 1e6,
			(passes[p].user_us + passes[p].sys_us) / 1e3);
}

/* ---- sequential stopping (docs/method.md, looks.h) ---- */

static int sequential;
static long looks[LOOKS_MAX];
static int n_looks;
static const char *stopped = "maximum";

/* Whether the per-launch cost (first run alone - re-run, paired by index)
 * of programs [0, n) is clear of the floor at this look's coverage
 * (looks_coverage): "slowdown", "none", or NULL. */
static const char *certain(long n, double coverage)
{
	double *d = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *d);
	double *q = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *q);
	const char *v;
	size_t nd = 0, nq = 0;
	long i;

	for (i = 0; i < n; i++) {
		const struct sample *a = &samples[P_ALONE][i], *r = &samples[P_RERUN][i];

		if (r->ran && r->exit_status == 0)
			q[nq++] = (double)r->run_ns / 1e6;
		if (a->ran && r->ran && a->exit_status == 0 && r->exit_status == 0)
			d[nd++] = ((double)a->run_ns - (double)r->run_ns) / 1e6;
	}
	/* the floor is analyze's: stop_floor of the re-runs' lower quartile */
	stats_sort(q, nq);
	v = stop_certain_pairs(d, nd, coverage, stop_unloaded(q, nq));
	free(d);
	free(q);
	return v;
}

/* ---- output ------------------------------------------------------------- */

static void put_ns(FILE *f, int have, uint64_t ns)
{
	if (have)
		fprintf(f, "\t%llu", (unsigned long long)ns);
	else
		fputs("\t-", f);
}

static void write_results(const char *out, long done)
{
	struct atomic_file af;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN), i;
	FILE *f;
	int p;

	if (atomic_open(&af, out) != 0) {
		die_if_full(EXIT_FAIL, parent_dir(out));
		die(EXIT_FAIL, "cannot write %s:", out);
	}
	f = af.fp;
	fprintf(f, "execlag-suite\t1\n");
	fprintf(f, "meta\tcase\tsuite\nmeta\tm\t%ld\nmeta\tjobs\t%ld\nmeta\tcores\t%ld\n",
		done, jobs, ncpu > 0 ? ncpu : 1L);
	fprintf(f, "meta\tcc\t%s\n", cc_text);
	if (model)
		fprintf(f, "meta\tlauncher\t%s\n", launcher_spec);
	if (sequential) {
		fprintf(f, "meta\tplanned\t%ld\nmeta\tlooks\t", count);
		for (i = 0; i < n_looks; i++)
			fprintf(f, "%s%ld", i ? "," : "", looks[i]);
		fprintf(f, "\nmeta\tstopped\t%s\n", stopped);
	}
	for (p = 0; p < NPASS; p++)
		fprintf(f, "pass\t%s\t%llu\t%llu\t%llu\t%ld\n", pass_name[p],
			(unsigned long long)passes[p].wall_ns, (unsigned long long)passes[p].user_us,
			(unsigned long long)passes[p].sys_us, passes[p].programs);
	for (p = 0; p < NPASS; p++)
		for (i = 0; i < done; i++) {
			const struct sample *s = &samples[p][i];

			fprintf(f, "sample\t%s\t%d\t%ld", pass_name[p], s->job, i);
			put_ns(f, s->compiled, s->compile_ns);
			put_ns(f, s->ran, s->run_ns);
			fprintf(f, "\t%d\t%d\t%d\n", s->exit_status, s->signal, s->spawn_errno);
		}
	if (ferror(f) || atomic_commit(&af) != 0) {
		die_if_full(EXIT_FAIL, parent_dir(out));
		die(EXIT_FAIL, "cannot write %s:", out);
	}
}

/* ---- main --------------------------------------------------------------- */

/* --launcher: spawn, or the model of sim:SETTINGS with draws of its own. */
static void open_model(void)
{
	struct sim_params p;
	char err[320], stream[64];

	if (strcmp(launcher_spec, "spawn") == 0)
		return;
	if (strncmp(launcher_spec, "sim:", 4) != 0)
		die(EXIT_USAGE, "--launcher: '%s' is not spawn or sim:SETTINGS", launcher_spec);
	if (sim_parse(launcher_spec + 4, &p, err, sizeof err) != 0)
		die(EXIT_USAGE, "%s", err);
	snprintf(stream, sizeof stream, "suite|%ld", jobs);
	model = sim_open(&p, sim_kind("exe"), stream);
}

static int valid_prefix(const char *s)
{
	if (!*s || strlen(s) > 64)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '.' || *s == '_' || *s == '-'))
			return 0;
	return 1;
}

static void set_up_spawn(void)
{
	posix_spawn_file_actions_init(&quiet_all);
	posix_spawn_file_actions_addopen(&quiet_all, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&quiet_all, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&quiet_all, 2, "/dev/null", O_WRONLY, 0);
	/* The compiler keeps stderr, so a failure says why. */
	posix_spawn_file_actions_init(&quiet_out);
	posix_spawn_file_actions_addopen(&quiet_out, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&quiet_out, 1, "/dev/null", O_WRONLY, 0);
}

/* The command line into the globals (prefix, count, jobs, ...); the
 * folder, result file and compiler into *dir, *out and *cc. */
static void parse_args(int argc, char **argv, const char **dir, const char **out, const char **cc,
		       int *quiet)
{
	const char *count_s = NULL, *jobs_s = NULL;
	const struct opt opts[] = {
		OPT_VALUE("--dir", dir), OPT_VALUE("--out", out), OPT_VALUE("--prefix", &prefix),
		OPT_VALUE("--cc", cc), OPT_VALUE("--launcher", &launcher_spec),
		OPT_VALUE("--count", &count_s), OPT_VALUE("--jobs", &jobs_s),
		OPT_FLAG("--quiet", quiet), OPT_FLAG("--keep", &keep_files),
		OPT_FLAG("--sequential", &sequential), OPT_END
	};

	opts_parse(argc, argv, opts, OPTS_NONE, usage);
	if (count_s && parse_long(count_s, 1, MAX_COUNT, &count) != 0)
		die(EXIT_USAGE, "--count: '%s' is not a whole number from 1 to %ld", count_s, MAX_COUNT);
	if (jobs_s && parse_long(jobs_s, 1, MAX_JOBS, &jobs) != 0)
		die(EXIT_USAGE, "--jobs: '%s' is not a whole number from 1 to %ld", jobs_s, MAX_JOBS);
}

/* Every chunk's four passes, up to the look where the per-launch cost is
 * certain (--sequential) or to M; returns the programs done. */
static long run_looks(int quiet)
{
	long done = 0;
	int k;

	/* looks at max(8, 2J) programs, then in steps, the last at M */
	if (sequential)
		n_looks = looks_plan(2 * jobs, count, looks);
	else
		looks[n_looks++] = count;
	for (k = 0; k < n_looks; k++) {
		long to = looks[k];

		/* alone and rerun run back to back, so they meet the same machine:
		 * a burst of other load between them would otherwise look like a
		 * cost. */
		run_pass(P_FRESH, done, to, quiet);
		run_pass(P_BUILD, done, to, quiet);
		/* set b, just built, to disk before its first timed launch, so
		 * that launch does not race the writeback of its pages - through
		 * the file system, never by opening a binary (fsflush.h) */
		if (fsflush_dir(workdir) != 0) {
			die_if_full(EXIT_FAIL, workdir);
			die(EXIT_FAIL, "cannot write %s to disk:", workdir);
		}
		check_interrupt();
		run_pass(P_ALONE, done, to, quiet);
		run_pass(P_RERUN, done, to, quiet);
		done = to;
		if (sequential && done < count && (stopped = certain(done, looks_coverage(looks, n_looks, k))) != NULL)
			break;
		stopped = "maximum";
	}
	return done;
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *out = NULL, *cc = getenv("CC");
	struct stat st;
	int i, quiet = 0;
	long done;

	progname = "suite";
	parse_args(argc, argv, &dir, &out, &cc, &quiet);
	if (!dir || !out || count == 0)
		die(EXIT_USAGE, "--dir, --count and --out are required (see --help)");
	if (jobs > count)
		die(EXIT_USAGE, "--jobs %ld exceeds the %ld programs", jobs, count);
	if (!valid_prefix(prefix))
		die(EXIT_USAGE, "--prefix '%s': use 1 to 64 of A-Z a-z 0-9 . _ -", prefix);
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		die(EXIT_USAGE, "--dir %s is not a folder", dir);
	workdir = realpath(dir, NULL);
	if (!workdir)
		die(EXIT_USAGE, "--dir %s:", dir);
	split_cc(cc);
	open_model();

	catch_signals(on_signal);
	atexit(remove_files);

	pthread_mutex_init(&cur.mu, NULL);
	barrier_init(&cur.start, (int)jobs + 1); /* the workers and this thread */
	set_up_spawn();
	for (i = 0; i < NPASS; i++)
		samples[i] = calloc((size_t)count, sizeof(struct sample));
	for (i = 0; i < NPASS; i++)
		if (!samples[i])
			die(EXIT_FAIL, "out of memory");

	claim_paths();
	write_sources();
	if (model)
		compile_template();
	/* One chunk of all M programs; with --sequential one chunk per look,
	 * each chunk's four passes in the same order, stopping at a look once
	 * the per-launch cost is certain. */
	done = run_looks(quiet);
	if (!quiet && done < count)
		fprintf(stderr, "suite: J=%ld: stopped after %ld of %ld programs: %s is certain\n",
			jobs, done, count, stopped);
	write_results(out, done);
	if (keep_files)
		claimed = 0;
	remove_files();
	return 0;
}
