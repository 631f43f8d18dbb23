/* launch - the first and the repeat launch of every artifact in a manifest.
 *
 * The artifacts are taken in blocks of B = K x T (K launches per thread,
 * --block K; by default 2 at T = 1 and 1 at T > 1, so that every block at
 * T > 1 is one round of T launches started together, the round in which
 * checks that queue show it): the first launches of a block, then the repeats of
 * the same block, then the next block.  So an artifact's first and repeat
 * launch are a few launches apart, and a burst of other load, or slow drift,
 * falls on both alike instead of on one pass.  Within a block's pass, T
 * threads start together on a barrier; thread t launches the block's
 * artifacts whose index is t modulo T, one after the other.  A pass's wall
 * time, for its throughput, is the sum over the blocks.  --block 0: one
 * block of every artifact (all first launches, then all repeats).  A launch is
 * timed around posix_spawn + waitpid on the monotonic clock, with the
 * child's standard streams on /dev/null.  Samples stay in memory and are
 * written atomically at the end, so an interrupted run leaves nothing. */
#define _POSIX_C_SOURCE 200809L
#include "coreclass.h"
#include "cpuidle.h"
#include "looks.h"
#include "orderstats.h"
#include "thresholds.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define MAX_THREADS 1024
#define MAX_FIELDS 64

enum pass { PASS_FIRST, PASS_REPEAT, PASS_REFERENCE, NPASS };
static const char *pass_name[NPASS] = { "first", "repeat", "reference" };

struct artifact {
	char *object;
	char **argv;
};

struct sample {
	uint64_t start_ns; /* when posix_spawn was called, from launch's start */
	uint64_t dur_ns;
	int exit_status; /* -1 when signalled or not spawned */
	int signal;
	int spawn_errno;
	int thread;
	int done;
};

struct manifest {
	char *kase, *kind;
	long n;
	long pad;   /* bytes of padding in each artifact (mkfresh --size) */
	struct artifact *art;
};

/* A barrier of our own: pthread_barrier_t is optional in POSIX and absent
 * on macOS. */
struct barrier {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int need, waiting;
	unsigned long generation;
};

struct run {
	struct manifest *m;
	long planned; /* artifacts the plan may launch (m->n, or --planned) */
	const struct artifact *ref; /* --reference: launched in the reference pass */
	const char *cls;
	int threads;
	enum pass pass;
	long lo, hi; /* the block: artifacts lo .. hi-1 */
	long block;  /* artifacts per block */
	struct barrier start;
	posix_spawn_file_actions_t fa;
	struct sample *samples[NPASS];
	uint64_t t_start[MAX_THREADS], t_end[MAX_THREADS];
	int thread_err[MAX_THREADS];
};

struct worker {
	struct run *run;
	int id;
};

static volatile sig_atomic_t interrupted;
static uint64_t t_base; /* the monotonic clock at launch's start */

static void on_signal(int sig)
{
	interrupted = sig;
}

static void barrier_wait(struct barrier *b)
{
	unsigned long gen;

	pthread_mutex_lock(&b->mu);
	gen = b->generation;
	if (++b->waiting == b->need) {
		b->waiting = 0;
		b->generation++;
		pthread_cond_broadcast(&b->cv);
	} else {
		while (gen == b->generation)
			pthread_cond_wait(&b->cv, &b->mu);
	}
	pthread_mutex_unlock(&b->mu);
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: launch --manifest FILE --out FILE [--threads T] [--class all|P|E]\n"
		"              [--passes first,repeat] [--block K] [--reference MANIFEST]\n"
		"              [--sequential [--planned N -- MAKER ARG...]] [--quiet]\n"
		"Launch every artifact of a manifest for the first time, then again,\n"
		"with T threads started together; write the samples (docs/formats.md).\n"
		"  --threads T   launching threads, 1..%d and at most the artifact count (1)\n"
		"  --class C     core class of the threads and children (all)\n"
		"  --passes P    which passes to run, in order (first,repeat, and\n"
		"                reference with --reference)\n"
		"  --reference M a manifest of one artifact outside the work folder,\n"
		"                launched once untimed, then in each block once per\n"
		"                artifact after the repeats: what a launch costs there\n"
		"  --block K     blocks of K launches per thread: a block's first\n"
		"                launches, then its repeats, then the next block\n"
		"                (2 at T=1, 1 at T>1: one launch per thread and block);\n"
		"                0: every first launch, then every repeat\n"
		"  --sequential  stop at a planned look (8 pairs, then in steps, the\n"
		"                last at every artifact) once the verdict is certain\n"
		"                at the looks' adjusted coverage (docs/method.md)\n"
		"  --planned N   with --sequential: plan for N artifacts, of which the\n"
		"                manifest holds the first ones; before a block that needs\n"
		"                more, run MAKER ARG... --first I --count K (micro/mkfresh\n"
		"                with the arguments that made the manifest), which makes\n"
		"                them up to the next look and rewrites the manifest\n"
		"  --quiet       no per-pass summary on stderr\n", MAX_THREADS);
}

static void bad_manifest(const char *path, long line, const char *what)
{
	die(EXIT_USAGE, "%s:%ld: corrupt manifest: %s", path, line, what);
}

static void read_manifest(const char *path, struct manifest *m)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL, *fld[MAX_FIELDS];
	size_t cap = 0;
	long line = 0, seen = 0, idx;
	int nf, i;
	struct stat st;

	if (!f)
		die(EXIT_USAGE, "cannot read manifest %s:", path);
	/* a folder opens for reading and then reads as nothing */
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode))
		die(EXIT_USAGE, "manifest %s is a folder, not a manifest file", path);
	memset(m, 0, sizeof *m);
	m->n = -1;
	while (read_line(f, &buf, &cap)) {
		line++;
		nf = split_tabs(buf, fld, MAX_FIELDS);
		if (line == 1) {
			if (nf != 2 || strcmp(fld[0], "execlag-manifest") != 0 || strcmp(fld[1], "1") != 0)
				bad_manifest(path, line, "first line is not 'execlag-manifest<TAB>1'");
			continue;
		}
		if (strcmp(fld[0], "artifact") == 0) {
			if (m->n < 0)
				bad_manifest(path, line, "artifact before the 'n' line");
			if (nf < 4)
				bad_manifest(path, line, "artifact line needs index, object and argv");
			if (parse_long(fld[1], 0, m->n - 1, &idx) != 0 || idx != seen)
				bad_manifest(path, line, "artifact index out of order");
			if (fld[3][0] != '/')
				bad_manifest(path, line, "argv0 is not an absolute path");
			m->art[seen].object = xstrdup(fld[2]);
			m->art[seen].argv = xmalloc(sizeof(char *) * (size_t)(nf - 2));
			for (i = 3; i < nf; i++)
				m->art[seen].argv[i - 3] = xstrdup(fld[i]);
			m->art[seen].argv[nf - 3] = NULL;
			seen++;
		} else if (nf == 2 && strcmp(fld[0], "n") == 0) {
			if (m->n >= 0 || parse_long(fld[1], 1, 10000000, &m->n) != 0)
				bad_manifest(path, line, "bad artifact count");
			m->art = xmalloc(sizeof *m->art * (size_t)m->n);
		} else if (nf == 2 && strcmp(fld[0], "case") == 0) {
			m->kase = xstrdup(fld[1]);
		} else if (nf == 2 && strcmp(fld[0], "kind") == 0) {
			m->kind = xstrdup(fld[1]);
		} else if (nf == 2 && strcmp(fld[0], "pad") == 0) {
			if (parse_long(fld[1], 0, 1L << 30, &m->pad) != 0)
				bad_manifest(path, line, "bad pad size");
		}
	}
	free(buf);
	fclose(f);
	if (line == 0)
		bad_manifest(path, 1, "empty file");
	if (m->n < 0 || seen != m->n)
		bad_manifest(path, line, "artifact count does not match 'n'");
	if (!m->kase || !m->kind)
		bad_manifest(path, line, "missing 'case' or 'kind'");
}

static void launch_one(struct run *r, const struct artifact *a, posix_spawnattr_t *attr,
		       struct sample *s)
{
	uint64_t t0, t1;
	pid_t pid;
	int st = 0, err;

	t0 = now_ns();
	err = posix_spawn(&pid, a->argv[0], &r->fa, attr, a->argv, environ);
	if (err == 0) {
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	t1 = now_ns();
	s->start_ns = t0 - t_base;
	s->dur_ns = t1 - t0;
	s->spawn_errno = err;
	s->exit_status = -1;
	s->signal = 0;
	if (err == 0 && WIFEXITED(st))
		s->exit_status = WEXITSTATUS(st);
	else if (err == 0 && WIFSIGNALED(st))
		s->signal = WTERMSIG(st);
	s->done = 1;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct run *r = w->run;
	posix_spawnattr_t attr;
	long i;
	int err;

	posix_spawnattr_init(&attr);
	/* No signal flags: handlers reset at exec, and the mask is empty, so the
	 * attributes stay as cheap as a bare posix_spawn's. */
	err = coreclass_enter(r->cls);
	if (err == 0)
		err = coreclass_spawnattr(&attr, r->cls);
	r->thread_err[w->id] = err;

	barrier_wait(&r->start);
	r->t_start[w->id] = now_ns();
	for (i = r->lo + w->id; i < r->hi && !err; i += r->threads) {
		if (interrupted)
			break;
		launch_one(r, r->pass == PASS_REFERENCE ? r->ref : &r->m->art[i], &attr,
			   &r->samples[r->pass][i]);
		r->samples[r->pass][i].thread = w->id;
	}
	r->t_end[w->id] = now_ns();
	posix_spawnattr_destroy(&attr);
	return NULL;
}

/* One pass over the block [lo, hi); returns its wall time. */
static uint64_t run_pass(struct run *r, enum pass p, long lo_i, long hi_i)
{
	pthread_t tid[MAX_THREADS];
	struct worker w[MAX_THREADS];
	uint64_t lo = UINT64_MAX, hi = 0;
	int t, err;

	r->pass = p;
	r->lo = lo_i;
	r->hi = hi_i;
	r->start.need = r->threads;
	r->start.waiting = 0;
	for (t = 0; t < r->threads; t++) {
		w[t].run = r;
		w[t].id = t;
		err = pthread_create(&tid[t], NULL, worker_main, &w[t]);
		if (err) {
			errno = err;
			die(EXIT_FAIL, "cannot start thread %d:", t);
		}
	}
	for (t = 0; t < r->threads; t++)
		pthread_join(tid[t], NULL);
	for (t = 0; t < r->threads; t++) {
		if (r->thread_err[t]) {
			errno = r->thread_err[t];
			die(EXIT_FAIL, "cannot put thread %d on core class %s:", t, r->cls);
		}
		if (r->t_start[t] < lo)
			lo = r->t_start[t];
		if (r->t_end[t] > hi)
			hi = r->t_end[t];
	}
	return hi - lo;
}

/* ---- sequential stopping (docs/method.md, looks.h) ---- */

/* At T > 1 the serialisation verdict reads the rounds (one per block):
 * fewer than the quick profile's 10 at T = 2 left it undetermined at small
 * costs (the grid of tests/calibration.bats), so a look stops there only
 * after SEQ_MIN_ROUNDS rounds -- or after SEQ_SHARP_ROUNDS on a slowdown
 * whose rounds are sharp (rounds_sharp): 8 rounds keep an interval of
 * their own (MIN_PAIRS) with two of them left out for their threads'
 * skew. */
#define SEQ_MIN_ROUNDS 10
#define SEQ_SHARP_ROUNDS 8
#define SEQ_SHARP 0.25

struct seq {
	int on;
	long looks[LOOKS_MAX]; /* artifacts launched at each look, ascending */
	int k, next;           /* number of looks; the next one not yet taken */
	const char *stop;      /* why it stopped: "slowdown", "none", "maximum" */
};

static int ok(const struct sample *s)
{
	return s->done && s->spawn_errno == 0 && s->exit_status == 0 && s->signal == 0;
}

/* Whether the rounds of artifacts [0, n) (blocks of r->block, one round
 * of T launches each) are sharp: their excess -- the longest first launch
 * minus the longest repeat, as analyze takes it (stats.c) -- has an
 * interval at the even split's coverage of k looks (looks_confidence) at
 * most SEQ_SHARP of its low end wide.  Then one check's L and a queue's T x L lie far apart next to it. */
static int rounds_sharp(const struct run *r, long n, int looks)
{
	long rounds = r->block > 0 ? n / r->block : 0, j, i;
	double *x = xmalloc((size_t)(rounds > 0 ? rounds : 1) * sizeof *x), lo, hi, cov;
	size_t nx = 0;
	int sharp = 0;

	for (j = 0; j < rounds; j++) {
		double top[NPASS] = { 0, 0, 0 };
		int good = 1;

		for (i = j * r->block; i < (j + 1) * r->block && good; i++) {
			const struct sample *a = &r->samples[PASS_FIRST][i];
			const struct sample *b = &r->samples[PASS_REPEAT][i];

			good = ok(a) && ok(b);
			if (good && (double)a->dur_ns / 1e6 > top[PASS_FIRST])
				top[PASS_FIRST] = (double)a->dur_ns / 1e6;
			if (good && (double)b->dur_ns / 1e6 > top[PASS_REPEAT])
				top[PASS_REPEAT] = (double)b->dur_ns / 1e6;
		}
		if (good)
			x[nx++] = top[PASS_FIRST] - top[PASS_REPEAT];
	}
	stats_sort(x, nx);
	if (nx >= MIN_PAIRS && stats_median_ci(x, nx, looks_confidence(looks), &lo, &hi, &cov) == 0)
		sharp = lo > 0 && hi - lo <= SEQ_SHARP * lo;
	free(x);
	return sharp;
}

/* The verdict on artifacts [0, n) once certain at this look's coverage
 * (looks_coverage; analyze's rule, thresholds.h): "slowdown", "none", or
 * NULL. */
static const char *certain(const struct run *r, long n, double coverage)
{
	double *d = xmalloc((size_t)n * sizeof *d), *f = xmalloc((size_t)n * sizeof *f);
	double *p = xmalloc((size_t)n * sizeof *p), ratio;
	const char *v;
	size_t nd = 0, nf = 0, np = 0;
	long i;

	for (i = 0; i < n; i++) {
		const struct sample *a = &r->samples[PASS_FIRST][i];
		const struct sample *b = &r->samples[PASS_REPEAT][i];

		if (ok(a))
			f[nf++] = (double)a->dur_ns / 1e6;
		if (ok(b))
			p[np++] = (double)b->dur_ns / 1e6;
		if (ok(a) && ok(b))
			d[nd++] = ((double)a->dur_ns - (double)b->dur_ns) / 1e6;
	}
	stats_sort(f, nf);
	stats_sort(p, np);
	ratio = stats_median(p, np) > 0 ? stats_median(f, nf) / stats_median(p, np) : NAN;
	v = looks_certain(d, nd, coverage, ratio);
	free(d);
	free(f);
	free(p);
	return v;
}

/* Idle CPU during each pass, as a fraction of all CPUs' time; <0: unknown. */
static double idle_frac[NPASS] = { -1, -1, -1 };

/* The samples file, opened before the first launch: a first launch spent
 * on a run that cannot be written is lost for good.  Removed at any exit
 * before it is complete. */
static struct atomic_file af;
static int samples_open;

static void abort_samples(void)
{
	if (samples_open)
		atomic_abort(&af);
}

static void open_samples(const char *out)
{
	if (atomic_open(&af, out) != 0) {
		char *dir = parent_dir(out);

		die_if_full(EXIT_FAIL, dir);
		die(EXIT_USAGE, "cannot write %s:", out);
	}
	samples_open = 1;
	if (atexit(abort_samples) != 0)
		die(EXIT_FAIL, "atexit failed");
}

static void write_samples(const char *out, struct run *r, const int *ran, const uint64_t *wall,
			  long n, const struct seq *q)
{
	FILE *f;
	long i;
	int p;

	f = af.fp;
	fprintf(f, "execlag-samples\t1\n");
	fprintf(f, "meta\tcase\t%s\nmeta\tkind\t%s\n", r->m->kase, r->m->kind);
	fprintf(f, "meta\tthreads\t%d\nmeta\tclass\t%s\nmeta\tn\t%ld\n", r->threads, r->cls, n);
	fprintf(f, "meta\tblock\t%ld\n", r->block);
	if (q->on) {
		fprintf(f, "meta\tplanned\t%ld\nmeta\tlooks\t", r->planned);
		for (i = 0; i < q->k; i++)
			fprintf(f, "%s%ld", i ? "," : "", q->looks[i]);
		fprintf(f, "\nmeta\tstopped\t%s\n", q->stop);
	}
	if (r->m->pad > 0)
		fprintf(f, "meta\tpad\t%ld\n", r->m->pad);
	if (cpuidle_cpus() > 0)
		fprintf(f, "meta\tcpus\t%ld\n", cpuidle_cpus());
	for (p = 0; p < NPASS; p++)
		if (ran[p] && idle_frac[p] >= 0)
			fprintf(f, "meta\tidle_%s\t%.4f\n", pass_name[p], idle_frac[p]);
	for (p = 0; p < NPASS; p++)
		if (ran[p])
			fprintf(f, "pass\t%s\t%llu\t%ld\n", pass_name[p], (unsigned long long)wall[p], n);
	for (p = 0; p < NPASS; p++) {
		if (!ran[p])
			continue;
		for (i = 0; i < n; i++) {
			struct sample *s = &r->samples[p][i];
			fprintf(f, "sample\t%s\t%d\t%ld\t%llu\t%d\t%d\t%d\t%llu\n", pass_name[p],
				s->thread, i, (unsigned long long)s->dur_ns, s->exit_status, s->signal,
				s->spawn_errno, (unsigned long long)s->start_ns);
		}
	}
	samples_open = 0; /* committed, or removed by atomic_commit */
	if (atomic_commit(&af) != 0) {
		char *dir = parent_dir(out);

		die_if_full(EXIT_FAIL, dir);
		die(EXIT_FAIL, "cannot write %s:", out);
	}
}

static void parse_passes(const char *s, int *order, int *count)
{
	char *copy = xstrdup(s), *tok, *save = NULL;

	*count = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*count >= NPASS)
			die(EXIT_USAGE, "--passes: at most %d passes", NPASS);
		if (strcmp(tok, "first") == 0)
			order[(*count)++] = PASS_FIRST;
		else if (strcmp(tok, "repeat") == 0)
			order[(*count)++] = PASS_REPEAT;
		else if (strcmp(tok, "reference") == 0)
			order[(*count)++] = PASS_REFERENCE;
		else
			die(EXIT_USAGE, "--passes: unknown pass '%s' (use first,repeat,reference)", tok);
	}
	if (*count == 0)
		die(EXIT_USAGE, "--passes: no pass given");
	free(copy);
}

/* Make the artifacts m->n .. target-1 (--planned): the maker with
 * --first and --count appended, then the manifest it rewrote. */
static void extend(const char *path, struct manifest *m, char **maker, long target)
{
	char first[24], count[24], **argv;
	int na = 0, st = 0, err;
	long i;
	pid_t pid;

	while (maker[na])
		na++;
	argv = xmalloc(sizeof(char *) * (size_t)(na + 5));
	memcpy(argv, maker, sizeof(char *) * (size_t)na);
	snprintf(first, sizeof first, "%ld", m->n);
	snprintf(count, sizeof count, "%ld", target - m->n);
	argv[na] = "--first";
	argv[na + 1] = first;
	argv[na + 2] = "--count";
	argv[na + 3] = count;
	argv[na + 4] = NULL;
	err = posix_spawn(&pid, argv[0], NULL, NULL, argv, environ);
	free(argv);
	if (err != 0) {
		errno = err;
		die(EXIT_FAIL, "cannot run the maker %s:", maker[0]);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			die(EXIT_FAIL, "waitpid:");
	if (interrupted)
		die(128 + (int)interrupted, "interrupted; no samples written");
	if (WIFSIGNALED(st))
		die(128 + WTERMSIG(st), "the maker %s was killed (signal %d); no samples written",
		    maker[0], WTERMSIG(st));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		die(WEXITSTATUS(st) >= 128 ? WEXITSTATUS(st) : EXIT_FAIL,
		    "the maker %s failed (exit %d) making artifacts %ld to %ld; no samples written",
		    maker[0], WEXITSTATUS(st), m->n, target - 1);
	for (i = 0; i < m->n; i++) {
		char **a;

		for (a = m->art[i].argv; *a; a++)
			free(*a);
		free(m->art[i].argv);
		free(m->art[i].object);
	}
	free(m->art);
	free(m->kase);
	free(m->kind);
	read_manifest(path, m);
	if (m->n != target)
		die(EXIT_FAIL, "the maker %s left %ld artifacts in %s, not %ld", maker[0], m->n,
		    path, target);
}

int main(int argc, char **argv)
{
	const char *manifest = NULL, *out = NULL, *cls = "all", *passes = NULL;
	const char *reference = NULL;
	struct manifest m, refm;
	struct run r;
	struct sigaction sa;
	uint64_t wall[NPASS] = { 0, 0, 0 };
	int ran[NPASS] = { 0, 0, 0 }, order[NPASS], npass, i, quiet = 0;
	long threads = 1, per_thread = -1, b, blocks = 0, planned = 0;
	char **maker = NULL;
	struct seq seq = { 0 };
	char why[256];

	progname = "launch";
	t_base = now_ns();
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(a, "--quiet") == 0) {
			quiet = 1;
			continue;
		} else if (strcmp(a, "--sequential") == 0) {
			seq.on = 1;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			maker = argv + i + 1;
			break;
		}
		if (!v)
			die(EXIT_USAGE, "%s needs a value (see --help)", a);
		if (strcmp(a, "--manifest") == 0)
			manifest = v;
		else if (strcmp(a, "--out") == 0)
			out = v;
		else if (strcmp(a, "--class") == 0)
			cls = v;
		else if (strcmp(a, "--passes") == 0)
			passes = v;
		else if (strcmp(a, "--reference") == 0)
			reference = v;
		else if (strcmp(a, "--block") == 0) {
			if (parse_long(v, 0, 1000000, &per_thread) != 0)
				die(EXIT_USAGE, "--block: '%s' is not a whole number from 0 to 1000000", v);
		} else if (strcmp(a, "--planned") == 0) {
			if (parse_long(v, 1, 10000000, &planned) != 0)
				die(EXIT_USAGE, "--planned: '%s' is not a whole number from 1 to 10000000", v);
		} else if (strcmp(a, "--threads") == 0) {
			if (parse_long(v, 1, MAX_THREADS, &threads) != 0)
				die(EXIT_USAGE, "--threads: '%s' is not a whole number from 1 to %d", v, MAX_THREADS);
		} else
			die(EXIT_USAGE, "unknown option '%s' (see --help)", a);
		i++;
	}
	if (!manifest || !out)
		die(EXIT_USAGE, "--manifest and --out are required (see --help)");
	if (!passes)
		passes = reference ? "first,repeat,reference" : "first,repeat";
	parse_passes(passes, order, &npass);
	for (i = 0; i < npass; i++)
		if (order[i] == PASS_REFERENCE && !reference)
			die(EXIT_USAGE, "--passes: the reference pass needs --reference MANIFEST");
	if (coreclass_check(cls, why, sizeof why) != 0)
		die(EXIT_USAGE, "%s", why);
	read_manifest(manifest, &m);
	if (reference) {
		read_manifest(reference, &refm);
		if (refm.n != 1)
			die(EXIT_USAGE, "reference manifest %s: want 1 artifact, not %ld", reference, refm.n);
	}
	if (planned || maker) {
		if (!planned || !maker || !maker[0])
			die(EXIT_USAGE, "--planned N and a maker after -- go together (see --help)");
		if (!seq.on)
			die(EXIT_USAGE, "--planned needs --sequential");
		if (maker[0][0] != '/')
			die(EXIT_USAGE, "the maker '%s' is not an absolute path", maker[0]);
		if (planned < m.n)
			die(EXIT_USAGE, "--planned %ld is below the %ld artifacts of %s", planned,
			    m.n, manifest);
	} else {
		planned = m.n;
	}
	if (threads > planned)
		die(EXIT_USAGE, "--threads %ld exceeds the %ld artifacts of %s", threads, planned, manifest);
	open_samples(out);

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	memset(&r, 0, sizeof r);
	r.m = &m;
	r.planned = planned;
	r.ref = reference ? &refm.art[0] : NULL;
	r.cls = cls;
	r.threads = (int)threads;
	pthread_mutex_init(&r.start.mu, NULL);
	pthread_cond_init(&r.start.cv, NULL);
	posix_spawn_file_actions_init(&r.fa);
	posix_spawn_file_actions_addopen(&r.fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&r.fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&r.fa, 2, "/dev/null", O_WRONLY, 0);
	for (i = 0; i < NPASS; i++)
		r.samples[i] = calloc((size_t)planned, sizeof(struct sample));
	if (!r.samples[0] || !r.samples[1] || !r.samples[2])
		die(EXIT_FAIL, "out of memory");
	if (r.ref) {
		/* the reference is not fresh: one untimed launch first takes
		 * whatever a first launch of it costs */
		struct sample warm;
		posix_spawnattr_t attr;

		posix_spawnattr_init(&attr);
		launch_one(&r, r.ref, &attr, &warm);
		posix_spawnattr_destroy(&attr);
		if (!(warm.spawn_errno == 0 && warm.exit_status == 0)) {
			int k = 0;

			fprintf(stderr, "launch: warning: the reference %s did not run (%s): "
				"no reference pass\n", r.ref->argv[0],
				warm.spawn_errno ? strerror(warm.spawn_errno) : "it failed");
			r.ref = NULL;
			for (i = 0; i < npass; i++)
				if (order[i] != PASS_REFERENCE)
					order[k++] = order[i];
			npass = k;
		}
	}

	uint64_t idle[NPASS] = { 0, 0, 0 }, total[NPASS] = { 0, 0, 0 }, i0 = 0, t0 = 0;
	/* one reading per boundary: the end of a pass is the start of the next */
	int idle_ok = cpuidle_read(&i0, &t0) == 0;

	if (per_thread < 0)
		per_thread = threads == 1 ? 2 : 1;
	r.block = per_thread == 0 || per_thread * threads >= planned ? planned : per_thread * threads;
	if (seq.on) {
		int first = 0, second = 0;

		for (i = 0; i < npass; i++) {
			if (order[i] == PASS_FIRST)
				first = i + 1;
			if (order[i] == PASS_REPEAT)
				second = i + 1;
		}
		if (!first || !second || first > second)
			die(EXIT_USAGE, "--sequential needs the first pass before the repeat pass");
		seq.k = looks_plan(LOOKS_FIRST, planned, seq.looks);
		seq.stop = "maximum";
	}
	for (b = 0; b < planned;) {
		long end = b + r.block < planned ? b + r.block : planned;

		/* a last block shorter than T would leave threads idle: it joins
		 * the block before */
		if (planned - end > 0 && planned - end < threads)
			end = planned;
		/* artifacts are made up to the next look, between blocks: the
		 * maker runs before the block's first launches, never during */
		if (end > m.n) {
			long target = end;

			if (seq.next < seq.k && seq.looks[seq.next] > target)
				target = seq.looks[seq.next];
			extend(manifest, &m, maker, target < planned ? target : planned);
			if (idle_ok && cpuidle_read(&i0, &t0) != 0)
				idle_ok = 0;
		}
		for (i = 0; i < npass; i++) {
			enum pass p = (enum pass)order[i];
			uint64_t i1, t1;

			wall[p] += run_pass(&r, p, b, end);
			if (idle_ok && cpuidle_read(&i1, &t1) == 0 && t1 >= t0 && i1 >= i0) {
				idle[p] += i1 - i0;
				total[p] += t1 - t0;
				i0 = i1;
				t0 = t1;
			} else {
				idle_ok = 0;
			}
			if (interrupted)
				die(128 + (int)interrupted, "interrupted; no samples written");
			ran[p] = 1;
		}
		b = end;
		blocks++;
		/* a look once its artifacts are launched; at T > 1 it can stop
		 * only once the rounds can give the serialisation verdict
		 * (SEQ_MIN_ROUNDS, or SEQ_SHARP_ROUNDS for a sharp slowdown;
		 * docs/method.md).  A look that cannot stop still counts in the
		 * coverage. */
		while (seq.on && seq.next < seq.k && b >= seq.looks[seq.next]) {
			const char *v = NULL;

			seq.next++;
			if (threads > 1 && blocks < SEQ_SHARP_ROUNDS)
				continue;
			v = certain(&r, b, looks_coverage(seq.looks, seq.k, seq.next - 1));
			if (v && threads > 1 && blocks < SEQ_MIN_ROUNDS &&
			    !(strcmp(v, "slowdown") == 0 && rounds_sharp(&r, b, seq.k)))
				v = NULL;
			if (v && b < planned) {
				seq.stop = v;
				break;
			}
		}
		if (seq.on && strcmp(seq.stop, "maximum") != 0)
			break;
	}
	for (i = 0; i < NPASS; i++)
		if (idle_ok && total[i] >= CPUIDLE_MIN_TICKS)
			idle_frac[i] = (double)idle[i] / (double)total[i];
	for (i = 0; i < npass; i++) {
		enum pass p = (enum pass)order[i];

		if (!quiet)
			fprintf(stderr, "launch: %s/%s T=%d %s: %ld launches in %.1f ms (%.0f/s)\n",
				m.kase, cls, r.threads, pass_name[p], b, wall[p] / 1e6,
				b / (wall[p] / 1e9));
	}
	if (!quiet && seq.on && b < planned)
		fprintf(stderr, "launch: %s/%s T=%d: stopped after %ld of %ld artifacts: %s "
			"is certain\n", m.kase, cls, r.threads, b, planned, seq.stop);
	write_samples(out, &r, ran, wall, b, &seq);
	return 0;
}
