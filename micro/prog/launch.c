/* launch - the first and the repeat launch of every artifact in a manifest.
 *
 * The artifacts are taken in blocks of B = K x T (K launches per thread,
 * --block K; by default 2 at T = 1 and 1 at T > 1, so that every block at
 * T > 1 is one round of T launches started together, the round in which
 * checks that queue show it): the first launches of a block, then the repeats of
 * the same block, then the next block (drive.h).  So an artifact's first and
 * repeat launch are a few launches apart, and a burst of other load, or slow
 * drift, falls on both alike instead of on one pass.  Within a block's pass,
 * T threads start together on a barrier; thread t launches the block's
 * artifacts whose index is t modulo T, one after the other.  A pass's wall
 * time, for its throughput, is the sum over the blocks.  --block 0: one
 * block of every artifact (all first launches, then all repeats).
 *
 * The launches go through a launcher (launcher.h): spawn, timed around
 * posix_spawn + waitpid on the monotonic clock with the child's standard
 * streams on /dev/null, or sim, the seeded model that launches nothing.
 * Samples stay in memory and are written atomically at the end, so an
 * interrupted run leaves nothing. */
#define _POSIX_C_SOURCE 200809L
#include "coreclass.h"
#include "cpuidle.h"
#include "drive.h"
#include "healthfile.h"
#include "launcher.h"
#include "looks.h"
#include "manifest.h"
#include "samples.h"
#include "sim.h"
#include "thresholds.h"
#include "opts.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* the doctor's extension has a look at each of 2N .. DOCTOR_EXTEND x N */
_Static_assert(DOCTOR_EXTEND >= 2 && DOCTOR_EXTEND - 1 <= LOOKS_EXT_MAX,
	       "DOCTOR_EXTEND: 2 to LOOKS_EXT_MAX + 1");

extern char **environ;

#define MAX_THREADS 1024

struct options {
	const char *manifest, *out, *cls, *passes, *reference, *launcher;
	const char *hang_s_s, *services_probe, *services_out, *health;
	double hang_s;
	long threads, per_thread, planned, extend;
	const char *threads_s, *block_s, *planned_s, *extend_s; /* as given */
	int sequential, quiet, describe;
	char **maker;
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: launch --manifest FILE --out FILE [--threads T] [--class all|P|E]\n"
		"              [--passes first,repeat] [--block K] [--reference MANIFEST]\n"
		"              [--sequential [--planned N -- MAKER ARG...]]\n"
		"              [--launcher spawn|sim:SETTINGS] [--hang-s S]\n"
		"              [--services-probe CMD --services-out FILE] [--quiet]\n"
		"       launch --launcher spawn|sim:SETTINGS --describe\n"
		"       launch --launcher sim:SETTINGS --health FILE\n"
		"       launch --manifest FILE --objects\n"
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
		"  --extend X    with --planned: a configuration whose interval still\n"
		"                lies across the floor at N goes on to X x N, with looks\n"
		"                at 2N ... (%d; 1: never; docs/method.md)\n"
		"  --launcher L  spawn: launch for real (the default, the only one for\n"
		"                evidence); sim:SETTINGS: the seeded model of a checker,\n"
		"                which launches nothing, e.g. 'sim:latency=20 workers=1\n"
		"                key=inode seed=7' (docs/method.md, \"The simulator\")\n"
		"  --hang-s S    the bound of one launch, 0.1..3600 s (30): a launch past\n"
		"                it is a hang, killed after its state, CPU time and wait\n"
		"                channel are read; the case stops after that block's pass\n"
		"                (meta stopped hang; docs/method.md, \"When the checker hangs\")\n"
		"  --services-probe CMD --services-out FILE  at a hang, CMD record FILE\n"
		"                before (at half the bound) and after (at the kill):\n"
		"                the checking services' CPU over the wait\n"
		"                (scripts/probe/services, a services file)\n"
		"  --describe    print the launcher with every setting, checked, and exit\n"
		"  --health FILE write the simulated checker's health record (docs/formats.md:\n"
		"                exhausted=1, storm=R; said to be simulated), and exit\n"
		"  --constants   print the method's numbers scripts/repro uses (min_pairs,\n"
		"                looks_first, seq_extend, doctor_extend: micro/stats/thresholds.h,\n"
		"                looks.h), and exit\n"
		"  --objects     print the manifest's new files (OBJECT), one a line in\n"
		"                the artifacts' order, and exit (scripts/probe/hfcheck,\n"
		"                scripts/repro's copy test: the manifest's one reader)\n"
		"  --quiet       no per-pass summary on stderr\n", MAX_THREADS, SEQ_EXTEND);
}

/* ---- the samples file ---- */

/* Opened before the first launch: a first launch spent on a run that
 * cannot be written is lost for good.  Removed at any exit before it is
 * complete. */
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

/* Each launch the system ended before the program ran: a SIGKILL the kit
 * did not send (not a hang's, not a --payload kill's), or EPERM at exec (a
 * checker's refusal: the gate's --kill, fapolicyd) - a finding, kept. */
static void write_kills(FILE *f, const struct drive *d)
{
	long i;
	int p;

	for (p = 0; p < PASS_ALL; p++) {
		if (!d->ran[p])
			continue;
		for (i = 0; i < d->n; i++) {
			const struct launch_sample *s = &d->samples[p][i];

			if (!s->done || s->hang)
				continue;
			if (s->signal == SIGKILL && !d->m->payload_kill)
				fprintf(f, "killed\t%s\t%ld\tSIGKILL\n", samples_pass_words[p], i);
			else if (s->spawn_errno == EPERM)
				fprintf(f, "killed\t%s\t%ld\tEPERM\n", samples_pass_words[p], i);
		}
	}
}

static void write_samples(const char *out, const struct drive *d)
{
	FILE *f = af.fp;
	long i;
	int p;

	fprintf(f, "execlag-samples\t1\n");
	fprintf(f, "meta\tcase\t%s\nmeta\tkind\t%s\n", d->m->kase, d->m->kind);
	fprintf(f, "meta\tthreads\t%d\nmeta\tclass\t%s\nmeta\tn\t%ld\n", d->l->threads, d->l->cls, d->n);
	fprintf(f, "meta\tblock\t%ld\n", d->block);
	if (d->sequential) {
		char looks[512];

		fprintf(f, "meta\tplanned\t%ld\nmeta\tlooks\t%s\n", d->planned,
			drive_looks(d, looks, sizeof looks));
		fprintf(f, "meta\tstopped\t%s\n", d->stopped);
	}
	if (d->m->pad > 0)
		fprintf(f, "meta\tpad\t%ld\n", d->m->pad);
	if (strcmp(launcher_describe(d->l), "spawn") != 0)
		fprintf(f, "meta\tlauncher\t%s\n", launcher_describe(d->l));
	if (d->l->cpus > 0)
		fprintf(f, "meta\tcpus\t%ld\n", d->l->cpus);
	fprintf(f, "meta\thang_s\t%g\n", d->l->hang_s);
	fputs("meta\tkills\tkept\n", f); /* killed records below, where any */
	for (p = 0; p < PASS_ALL; p++)
		if (d->ran[p] && drive_idle(d, p) >= 0)
			fprintf(f, "meta\tidle_%s\t%.4f\n", samples_pass_words[p], drive_idle(d, p));
	for (p = 0; p < PASS_ALL; p++) {
		long made = 0;

		if (!d->ran[p])
			continue;
		for (i = 0; i < d->n; i++)
			made += d->samples[p][i].done;
		fprintf(f, "pass\t%s\t%llu\t%ld\n", samples_pass_words[p], (unsigned long long)d->wall[p], made);
	}
	for (p = 0; p < PASS_ALL; p++) {
		if (!d->ran[p])
			continue;
		for (i = 0; i < d->n; i++) {
			const struct launch_sample *s = &d->samples[p][i];

			if (!s->done)
				continue; /* never made: the case stopped at a hang */
			fprintf(f, "sample\t%s\t%d\t%ld\t%llu\t%d\t%d\t%d\t%llu\n", samples_pass_words[p],
				s->thread, i, (unsigned long long)s->dur_ns, s->exit_status, s->signal,
				s->spawn_errno, (unsigned long long)s->start_ns);
		}
	}
	/* each hung launch's evidence, read before its kill */
	for (p = 0; p < PASS_ALL; p++) {
		if (!d->ran[p])
			continue;
		for (i = 0; i < d->n; i++) {
			const struct launch_sample *s = &d->samples[p][i];

			if (!s->done || !s->hang)
				continue;
			fprintf(f, "hang\t%s\t%ld\t%ld\t%s\t", samples_pass_words[p], i, s->pid, s->state);
			if (s->cpu_s >= 0)
				fprintf(f, "%.2f", s->cpu_s);
			else
				fputs("unknown", f);
			fprintf(f, "\t%s\t%s\n", s->wchan, s->unkillable ? "unkillable" : "killed");
		}
	}
	write_kills(f, d);
	samples_open = 0; /* committed, or removed by atomic_commit */
	if (atomic_commit(&af) != 0) {
		char *dir = parent_dir(out);

		die_if_full(EXIT_FAIL, dir);
		die(EXIT_FAIL, "cannot write %s:", out);
	}
}

/* ---- the plan ---- */

static void parse_passes(const char *s, int *order, int *count)
{
	char *copy = xstrdup(s), *tok, *save = NULL;

	*count = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*count >= PASS_ALL)
			die(EXIT_USAGE, "--passes: at most %d passes", PASS_ALL);
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
static void extend(struct drive *d, long target)
{
	const struct options *o = d->extend_arg;
	char first[24], count[24], **argv, **maker = o->maker;
	int na = 0, st = 0, err;
	pid_t pid;

	while (maker[na])
		na++;
	argv = xmalloc(sizeof(char *) * (size_t)(na + 5));
	memcpy(argv, maker, sizeof(char *) * (size_t)na);
	snprintf(first, sizeof first, "%ld", d->m->n);
	snprintf(count, sizeof count, "%ld", target - d->m->n);
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
	if (WIFEXITED(st) && WEXITSTATUS(st) == 4)
		die(4, "the maker %s hung making artifacts %ld to %ld (a launch of its own did not "
		    "end within its bound); no samples written", maker[0], d->m->n, target - 1);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		die(WEXITSTATUS(st) >= 128 ? WEXITSTATUS(st) : EXIT_FAIL,
		    "the maker %s failed (exit %d) making artifacts %ld to %ld; no samples written",
		    maker[0], WEXITSTATUS(st), d->m->n, target - 1);
	manifest_free(d->m);
	manifest_read(o->manifest, d->m);
	if (d->m->n != target)
		die(EXIT_FAIL, "the maker %s left %ld artifacts in %s, not %ld", maker[0], d->m->n,
		    o->manifest, target);
}

/* The numbers of the command line, as given, each in its range, into o. */
static void check_numbers(struct options *o)
{
	const struct {
		const char *name, *given;
		long *v;
		long min, max;
	} nums[] = {
		{ "--block", o->block_s, &o->per_thread, 0, 1000000 },
		{ "--extend", o->extend_s, &o->extend, 1, 10 },
		{ "--planned", o->planned_s, &o->planned, 1, 10000000 },
		{ "--threads", o->threads_s, &o->threads, 1, MAX_THREADS },
	};
	size_t k;

	for (k = 0; k < sizeof nums / sizeof nums[0]; k++)
		if (nums[k].given && parse_long(nums[k].given, nums[k].min, nums[k].max, nums[k].v) != 0)
			die(EXIT_USAGE, "%s: '%s' is not a whole number from %ld to %ld", nums[k].name,
			    nums[k].given, nums[k].min, nums[k].max);
}

/* --describe: the launcher's every setting, checked, as conditions record it. */
static void describe(const struct options *o)
{
	if (strcmp(o->launcher, "spawn") == 0) {
		puts("spawn");
	} else {
		struct launcher *l = launcher_sim(o->launcher + 4, "exe", "describe", 1, 0);

		puts(launcher_describe(l));
		l->ops->close(l);
	}
}

/* --health FILE: the simulated checker's health record, written whole. */
static void write_health(const struct options *o)
{
	struct sim_params p;
	struct health_record h;
	struct atomic_file f;
	char err[320], described[600];

	if (strncmp(o->launcher, "sim:", 4) != 0)
		die(EXIT_USAGE, "--health needs a sim:SETTINGS launcher: a real checker's health is "
				"scripts/probe/health's to read");
	if (sim_parse(o->launcher + 4, &p, err, sizeof err) != 0)
		die(EXIT_USAGE, "%s", err);
	sim_describe(&p, described, sizeof described);
	sim_health(&p, described, &h);
	if (atomic_open(&f, o->health) != 0)
		die(EXIT_FAIL, "cannot write %s:", o->health);
	if (healthfile_write(f.fp, &h) != 0 || atomic_commit(&f) != 0)
		die(EXIT_FAIL, "cannot write %s:", o->health);
	healthfile_free(&h);
}

/* --objects: the manifest's new files, one a line, for the scripts, which
 * ask launch rather than read the manifest (manifest.c is its reader). */
static void print_objects(const char *path)
{
	struct manifest m;
	long i;

	manifest_read(path, &m);
	for (i = 0; i < m.n; i++)
		puts(m.art[i].object);
	if (fflush(stdout) != 0 || ferror(stdout))
		die(EXIT_FAIL, "cannot write to stdout:");
	manifest_free(&m);
}

/* The command line into o, over its defaults; --describe, --constants and
 * --objects answer and exit. */
static void parse_args(int argc, char **argv, struct options *o)
{
	int constants = 0, objects = 0, i;
	const struct opt opts[] = {
		OPT_VALUE("--manifest", &o->manifest), OPT_VALUE("--out", &o->out),
		OPT_VALUE("--class", &o->cls), OPT_VALUE("--passes", &o->passes),
		OPT_VALUE("--reference", &o->reference), OPT_VALUE("--launcher", &o->launcher),
		OPT_VALUE("--block", &o->block_s), OPT_VALUE("--extend", &o->extend_s),
		OPT_VALUE("--planned", &o->planned_s), OPT_VALUE("--threads", &o->threads_s),
		OPT_VALUE("--hang-s", &o->hang_s_s), OPT_VALUE("--services-probe", &o->services_probe),
		OPT_VALUE("--services-out", &o->services_out), OPT_VALUE("--health", &o->health),
		OPT_FLAG("--quiet", &o->quiet), OPT_FLAG("--sequential", &o->sequential),
		OPT_FLAG("--describe", &o->describe), OPT_FLAG("--constants", &constants),
		OPT_FLAG("--objects", &objects), OPT_END
	};

	memset(o, 0, sizeof *o);
	o->cls = "all";
	o->launcher = "spawn";
	o->threads = 1;
	o->per_thread = -1;
	o->extend = SEQ_EXTEND;
	i = opts_parse(argc, argv, opts, OPTS_AFTER_DASHDASH, usage);
	o->maker = i < argc ? argv + i : NULL;
	if (constants) {
		/* what scripts/repro needs of the method, from the headers the
		 * method is compiled with (never read from the files) */
		printf("min_pairs=%d\nlooks_first=%d\nseq_extend=%d\ndoctor_extend=%d\n", MIN_PAIRS,
		       LOOKS_FIRST, SEQ_EXTEND, DOCTOR_EXTEND);
		exit(0);
	}
	if (objects) {
		if (!o->manifest)
			die(EXIT_USAGE, "--objects needs --manifest FILE (see --help)");
		print_objects(o->manifest);
		exit(0);
	}
	check_numbers(o);
	o->hang_s = 30;
	if (o->hang_s_s && parse_double(o->hang_s_s, 0.1, 3600, &o->hang_s) != 0)
		die(EXIT_USAGE, "--hang-s: '%s' is not a number of seconds from 0.1 to 3600", o->hang_s_s);
	if (!o->services_probe != !o->services_out)
		die(EXIT_USAGE, "--services-probe and --services-out go together (see --help)");
	if (strcmp(o->launcher, "spawn") != 0 && strncmp(o->launcher, "sim:", 4) != 0)
		die(EXIT_USAGE, "LAUNCHER '%s' is not spawn or sim:SETTINGS", o->launcher);
	if (o->describe) {
		describe(o);
		exit(0);
	}
	if (o->health) {
		write_health(o);
		exit(0);
	}
	if (!o->manifest || !o->out)
		die(EXIT_USAGE, "--manifest and --out are required (see --help)");
}

/* The passes, the manifests and the plan, checked before anything runs. */
static void plan(const struct options *o, struct drive *d, struct manifest *m,
		 struct manifest *refm)
{
	char why[256];
	int i;

	parse_passes(o->passes ? o->passes : o->reference ? "first,repeat,reference" : "first,repeat",
		     d->order, &d->npass);
	for (i = 0; i < d->npass; i++)
		if (d->order[i] == PASS_REFERENCE && !o->reference)
			die(EXIT_USAGE, "--passes: the reference pass needs --reference MANIFEST");
	if (coreclass_check(o->cls, why, sizeof why) != 0)
		die(EXIT_USAGE, "%s", why);
	manifest_read(o->manifest, m);
	if (o->reference) {
		manifest_read(o->reference, refm);
		if (refm->n != 1)
			die(EXIT_USAGE, "reference manifest %s: want 1 artifact, not %ld", o->reference, refm->n);
	}
	d->m = m;
	d->planned = m->n;
	if (o->planned || o->maker) {
		if (!o->planned || !o->maker || !o->maker[0])
			die(EXIT_USAGE, "--planned N and a maker after -- go together (see --help)");
		if (!o->sequential)
			die(EXIT_USAGE, "--planned needs --sequential");
		if (o->maker[0][0] != '/')
			die(EXIT_USAGE, "the maker '%s' is not an absolute path", o->maker[0]);
		if (o->planned < m->n)
			die(EXIT_USAGE, "--planned %ld is below the %ld artifacts of %s", o->planned,
			    m->n, o->manifest);
		d->planned = o->planned;
		d->extend = extend;
		d->extend_arg = (void *)o;
	}
	if (o->threads > d->planned)
		die(EXIT_USAGE, "--threads %ld exceeds the %ld artifacts of %s", o->threads,
		    d->planned, o->manifest);
	d->sequential = o->sequential;
	d->extend_factor = o->extend;
	if (d->sequential) {
		int first = 0, second = 0;

		for (i = 0; i < d->npass; i++) {
			if (d->order[i] == PASS_FIRST)
				first = i + 1;
			if (d->order[i] == PASS_REPEAT)
				second = i + 1;
		}
		if (!first || !second || first > second)
			die(EXIT_USAGE, "--sequential needs the first pass before the repeat pass");
	}
	d->block = drive_block(o->per_thread, (int)o->threads, d->planned);
	d->ref = o->reference ? &refm->art[0] : NULL;
	d->interrupted = &interrupted;
}

/* The launcher the options ask for.  The simulator's draws are the
 * configuration's own (case, threads, class, size), and it needs the
 * artifacts' size for per_mb: it may look at them, as it launches none. */
static struct launcher *open_launcher(const struct options *o, const struct manifest *m,
				      uint64_t t_base)
{
	char stream[512];
	struct stat st;
	double mib = (double)m->pad / 1048576.0;

	struct launcher *l;

	if (strcmp(o->launcher, "spawn") == 0) {
		l = launcher_spawn((int)o->threads, o->cls, t_base, &interrupted, o->hang_s);
		l->services_cmd = o->services_probe;
		l->services_out = o->services_out;
		return l;
	}
	if (m->n > 0 && stat(m->art[0].object, &st) == 0)
		mib = (double)st.st_size / 1048576.0;
	snprintf(stream, sizeof stream, "%s|%s|%ld|%s|%ld", m->kase, m->kind, o->threads, o->cls,
		 m->pad);
	l = launcher_sim(o->launcher + 4, m->kind, stream, (int)o->threads, mib);
	l->hang_s = o->hang_s;
	return l;
}

/* The reference is not fresh: one untimed launch first takes whatever a
 * first launch of it costs.  One that does not run leaves no reference pass. */
static void warm_reference(struct drive *d)
{
	struct launch_sample warm;
	int i, k = 0;

	if (!d->ref)
		return;
	d->l->ops->warm(d->l, d->ref, &warm);
	if (warm.spawn_errno == 0 && warm.exit_status == 0)
		return;
	fprintf(stderr, "launch: warning: the reference %s did not run (%s): no reference pass\n",
		d->ref->argv[0], warm.spawn_errno ? strerror(warm.spawn_errno) : "it failed");
	d->ref = NULL;
	for (i = 0; i < d->npass; i++)
		if (d->order[i] != PASS_REFERENCE)
			d->order[k++] = d->order[i];
	d->npass = k;
}

static void summary(const struct drive *d)
{
	int i;

	for (i = 0; i < d->npass; i++) {
		int p = d->order[i];

		fprintf(stderr, "launch: %s/%s T=%d %s: %ld launches in %.1f ms (%.0f/s)\n",
			d->m->kase, d->l->cls, d->l->threads, samples_pass_words[p], d->n, d->wall[p] / 1e6,
			d->n / (d->wall[p] / 1e9));
	}
	if (d->l->hangs > 0)
		fprintf(stderr, "launch: %s/%s T=%d: %d launch%s did not end within %g s: killed, "
			"the case stops%s\n", d->m->kase, d->l->cls, d->l->threads, d->l->hangs,
			d->l->hangs == 1 ? "" : "es", d->l->hang_s,
			d->l->unkillable ? " (some did not die: left behind)" : "");
	else if (d->extended)
		fprintf(stderr, "launch: %s/%s T=%d: its interval lay across the floor at %ld: "
			"went on to %ld artifacts (%s)\n", d->m->kase, d->l->cls, d->l->threads,
			d->planned, d->n, strcmp(d->stopped, "maximum") == 0 ? "still unsure" :
			d->stopped);
	else if (d->sequential && d->n < d->planned)
		fprintf(stderr, "launch: %s/%s T=%d: stopped after %ld of %ld artifacts: %s "
			"is certain\n", d->m->kase, d->l->cls, d->l->threads, d->n, d->planned,
			d->stopped);
}

int main(int argc, char **argv)
{
	struct options o;
	struct manifest m, refm;
	struct drive d;
	uint64_t t_base = now_ns();

	progname = "launch";
	parse_args(argc, argv, &o);
	memset(&d, 0, sizeof d);
	plan(&o, &d, &m, &refm);
	open_samples(o.out);

	catch_signals(on_signal);

	d.l = open_launcher(&o, &m, t_base);
	warm_reference(&d);
	drive_run(&d);
	if (!o.quiet)
		summary(&d);
	write_samples(o.out, &d);
	d.l->ops->close(d.l);
	return 0;
}
