/* analyze - turn a run folder's raw samples into verdicts.
 *
 *   analyze --run DIR [--quiet]
 *
 * Reads DIR/conditions.txt and DIR/raw/<name>.samples.tsv (docs/formats.md;
 * beside them each config's manifest and its assessments where there),
 * writes DIR/run.json and DIR/report.md atomically and prints a summary.
 * Any bad input stops it before anything is written: one line on stderr
 * naming the file and line, exit 2. */
#define _POSIX_C_SOURCE 200809L
#include "cases.h"
#include "hfcompare.h"
#include "report.h"
#include "samples.h"
#include "sim.h"
#include "stats.h"
#include "suitefile.h"
#include "suitestats.h"
#include "opts.h"
#include "launcherspec.h"
#include "remediesstats.h"
#include "conditions.h"
#include "util.h"
#include "services_log.h"
#include "killlog.h"
#include "manifest.h"
#include "assessed.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fputs("usage: analyze --run DIR [--quiet]\n"
	      "       analyze --run DIR --simfit\n"
	      "       analyze --hung-index FILE | --stopped FILE | --first-launch FILE\n"
	      "       analyze --durations FILE\n"
	      "       analyze --kill-lines FILE [--of PATH]\n"
	      "  Reads DIR/conditions.txt and DIR/raw/*.samples.tsv, writes\n"
	      "  DIR/run.json and DIR/report.md, prints the results table.\n"
	      "  --quiet  write the files, print nothing\n"
	      "  --simfit print the simulator's base costs fitted to the run's repeat\n"
	      "           launches (for LAUNCHER='sim:... base=FILE'), write nothing\n"
	      "  --hung-index FILE  print the index of the first hung launch that the\n"
	      "           samples file FILE lists (repro's copy test), or nothing\n"
	      "  --stopped FILE  print why launch stopped (slowdown, none, maximum, hang;\n"
	      "           - without sequential stopping) and the artifacts it launched\n"
	      "  --first-launch FILE  print the first launch of artifact 0: its ms (one\n"
	      "           decimal), exit status and signal (repro's copy test), or nothing\n"
	      "  --durations FILE  print every launch's microseconds, one a line, by pass\n"
	      "           and artifact (scripts/tool/bench)\n"
	      "  --kill-lines FILE  print the lines of a log (any layout, or a run's\n"
	      "           log.ndjson) that say the system killed a launch: LINE, FAMILY,\n"
	      "           PID, FILE, changed|same|- (docs/remedies.md, \"The kill\");\n"
	      "           with --of PATH those of the program at PATH and its pids\n"
	      "Exit: 0 done, 1 could not write, 2 bad usage or bad input.\n", f);
}

static char *join_path(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = xmalloc(n);

	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* basename(3) may modify its argument and differs between libcs. */
static char *run_id_of(const char *dir)
{
	size_t end = strlen(dir), start;
	char *id;

	while (end > 1 && dir[end - 1] == '/')
		end--;
	start = end;
	while (start > 0 && dir[start - 1] != '/')
		start--;
	id = xmalloc(end - start + 1);
	memcpy(id, dir + start, end - start);
	id[end - start] = '\0';
	return id;
}

/* ---- conditions.txt (conditions.c reads it) ------------------------------------ */

static void read_conditions(const char *dir, struct run *r)
{
	char *path = join_path(dir, "conditions.txt");

	conditions_read(path, CONDITIONS_STRICT, &r->conditions, &r->n_conditions);
	free(path);
}

/* ---- samples files (samples.c reads each) ------------------------------------------- */

static int has_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), s = strlen(suffix);

	return n > s && strcmp(name + n - s, suffix) == 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* File names of DIR/raw/<name>.samples.tsv, sorted, so the order of cases in the
 * output does not depend on the file system. */
static char **list_samples(const char *raw, size_t *count)
{
	DIR *d = opendir(raw);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;

	if (!d)
		die(EXIT_USAGE, "%s: no samples files, cannot open:", raw);
	while ((e = readdir(d)) != NULL) {
		if (!has_suffix(e->d_name, SAMPLES_SUFFIX))
			continue;
		names = xrealloc(names, (n + 1) * sizeof *names);
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n == 0 && !suite_present(raw)) /* a run of the suite case alone has none */
		die(EXIT_USAGE, "%s: no *%s files", raw, SAMPLES_SUFFIX);
	if (n > 1)
		qsort(names, n, sizeof *names, cmp_str);
	*count = n;
	return names;
}

/* ---- cases --------------------------------------------------------------------------- */

static int cmp_case_result(const void *a, const void *b)
{
	return case_cmp(((const struct case_result *)a)->name,
			((const struct case_result *)b)->name);
}

static struct case_result *case_named(struct run *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->n_cases; i++)
		if (strcmp(r->cases[i].name, name) == 0)
			return &r->cases[i];
	return NULL;
}

static void add_to_case(struct run *r, struct config *c)
{
	struct case_result *cr = case_named(r, c->case_name);
	size_t i;

	if (!cr) {
		r->cases = xrealloc(r->cases, (r->n_cases + 1) * sizeof *r->cases);
		cr = &r->cases[r->n_cases++];
		memset(cr, 0, sizeof *cr);
		cr->name = c->case_name;
		cr->kind = c->kind;
	}
	for (i = 0; i < cr->n_configs; i++)
		if (cr->configs[i]->threads == c->threads &&
		    cr->configs[i]->pad == c->pad &&
		    strcmp(cr->configs[i]->class_name, c->class_name) == 0)
		{
			if (c->pad > 0)
				die(EXIT_USAGE, "%s:1: case %s at T=%ld class %s "
				    "(padding %ld bytes) is also in %s", c->file,
				    c->case_name, c->threads, c->class_name, c->pad,
				    cr->configs[i]->file);
			die(EXIT_USAGE, "%s:1: case %s at T=%ld class %s is also in %s",
			    c->file, c->case_name, c->threads, c->class_name,
			    cr->configs[i]->file);
		}
	cr->configs = xrealloc(cr->configs, (cr->n_configs + 1) * sizeof *cr->configs);
	cr->configs[cr->n_configs++] = c;
}

/* Every samples file of DIR/raw; *SIM_LAUNCHER: the first simulated
 * launcher they name ("meta launcher sim:..."), or NULL: a run whose
 * samples are a model's is labelled simulated even where its
 * conditions.txt does not say so. */
static struct config *read_all_samples(const char *dir, size_t *count, char **sim_launcher)
{
	char *raw = join_path(dir, "raw");
	size_t n, i;
	char **names = list_samples(raw, &n);
	struct config *configs = xmalloc(n * sizeof *configs);

	for (i = 0; i < n; i++) {
		char *path = join_path(raw, names[i]);

		samples_read(path, &configs[i], sim_launcher);
		free(path);
		free(names[i]);
	}
	free(names);
	free(raw);
	*count = n;
	return configs;
}

/* What each config's log excerpt said of the programs the system killed
 * (killlog.h): their paths from its manifest, the kernel's lines naming
 * them; where there is no excerpt or no manifest, nothing is said. */
static void read_kill_logs(struct config *configs, size_t n)
{
	size_t i, j, m;

	for (i = 0; i < n; i++) {
		struct config *c = &configs[i];
		size_t stem = strlen(c->file) - strlen(SAMPLES_SUFFIX);
		char *mpath = xasprintf("%.*s.manifest", (int)stem, c->file);
		char *lpath = xasprintf("%.*s.log.ndjson", (int)stem, c->file);
		const char **paths = xmalloc((c->n_samples + 1) * sizeof *paths);
		struct manifest man;
		struct killlog kl;

		for (j = 0; j < c->n_samples && !c->samples[j].killed; j++)
			;
		if (j < c->n_samples && access(mpath, R_OK) == 0 && access(lpath, R_OK) == 0 &&
		    killlog_read(lpath, &kl) == 0) {
			manifest_read(mpath, &man);
			for (j = m = 0; j < c->n_samples; j++)
				if (c->samples[j].killed && c->samples[j].index < man.n)
					paths[m++] = man.art[c->samples[j].index].object;
			c->kill_log_read = 1;
			for (j = 0; j < kl.n; j++)
				if (killlog_of(&kl, j, paths, m)) {
					c->kill_log_lines++;
					c->kill_log_changed += kl.k[j].changed == 1;
				}
			killlog_free(&kl);
			manifest_free(&man);
		}
		free(paths);
		free(mpath);
		free(lpath);
	}
}

/* The steps each config's artifacts were assessed by before their launch
 * (assessed.h): the file beside its manifest, raw/NAME.manifest.assessed;
 * where there is none (every case but exe-assessed, older and simulated
 * runs), nothing is said. */
static void read_assessments(struct config *configs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct config *c = &configs[i];
		size_t stem = strlen(c->file) - strlen(SAMPLES_SUFFIX);
		char *path = xasprintf("%.*s.manifest.assessed", (int)stem, c->file);

		assessed_read(path, &c->assess, &c->n_assess);
		free(path);
	}
}

/* ---- output --------------------------------------------------------------------------- */

/* The files of an analysed run beside its plots, a writer each (report.h). */
static const struct {
	const char *name;
	report_writer *write;
} outputs[] = {
	{ "run.json", report_write_json },
	{ "report.md", report_write_markdown },
};
#define N_OUTPUTS (sizeof outputs / sizeof outputs[0])

static void abort_outputs(struct atomic_file *out, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++)
		atomic_abort(&out[i]);
}

/* The plots first (report.md links to them; each written whole or not at
 * all), then every output complete in its temporary before any is renamed,
 * so a failure leaves the previous run.json and report.md (or none) behind. */
static void write_outputs(const char *dir, const struct run *r)
{
	struct atomic_file out[N_OUTPUTS];
	char *path[N_OUTPUTS];
	size_t i, k;

	report_write_plots(dir, r); /* exits on failure */
	for (i = 0; i < N_OUTPUTS; i++) {
		path[i] = join_path(dir, outputs[i].name);
		if (atomic_open(&out[i], path[i]) != 0) {
			abort_outputs(out, 0, i);
			die_if_full(EXIT_FAIL, dir);
			die(EXIT_FAIL, "%s: cannot create:", path[i]);
		}
	}
	errno = 0;
	for (i = 0; i < N_OUTPUTS; i++)
		/* a write stdio buffered may fail after its writer returned */
		if (outputs[i].write(r, out[i].fp) != 0 || ferror(out[i].fp)) {
			/* which one, and why: errno as the failed write left it */
			abort_outputs(out, 0, N_OUTPUTS);
			die_if_full(EXIT_FAIL, dir);
			if (errno == 0)
				die(EXIT_FAIL, "%s: cannot write the results (no reason given)", path[i]);
			die(EXIT_FAIL, "%s: cannot write:", path[i]);
		}
	for (i = 0; i < N_OUTPUTS; i++) {
		if (atomic_commit(&out[i]) != 0) {
			int e = errno;

			abort_outputs(out, i + 1, N_OUTPUTS);
			/* A run.json without its report would describe a different run. */
			for (k = 0; k < i; k++)
				unlink(path[k]);
			errno = e;
			die_if_full(EXIT_FAIL, dir);
			die(EXIT_FAIL, "%s: cannot write:", path[i]);
		}
	}
	for (i = 0; i < N_OUTPUTS; i++)
		free(path[i]);
}

/* The simulator's correlation: per configuration with a reference pass,
 * its repeat and reference launches of the same index (the same block,
 * launched one after the other), the median over the configurations. */
static void write_simfit_corr(const struct config *c, size_t n)
{
	double *r = xmalloc((n ? n : 1) * sizeof *r);
	size_t i, j, nr = 0;

	for (i = 0; i < n; i++) {
		long slots = c[i].n > 0 ? c[i].n : 1, m = 0, x;
		double *rep = xmalloc((size_t)slots * sizeof *rep), *ref = xmalloc((size_t)slots * sizeof *ref);
		double *a = xmalloc((size_t)slots * sizeof *a), *b = xmalloc((size_t)slots * sizeof *b), v;

		for (x = 0; x < slots; x++)
			rep[x] = ref[x] = NAN;
		for (j = 0; j < c[i].n_samples; j++) {
			const struct sample *s = &c[i].samples[j];

			if (!stats_sample_ok(s) || s->index < 0 || s->index >= slots)
				continue;
			if (s->pass == PASS_REPEAT)
				rep[s->index] = s->dur_ms;
			else if (s->pass == PASS_REFERENCE)
				ref[s->index] = s->dur_ms;
		}
		for (x = 0; x < slots; x++)
			if (!isnan(rep[x]) && !isnan(ref[x])) {
				a[m] = rep[x];
				b[m++] = ref[x];
			}
		v = sim_fit_corr(a, b, (size_t)m);
		if (!isnan(v))
			r[nr++] = v;
		free(rep);
		free(ref);
		free(a);
		free(b);
	}
	if (nr > 0) {
		stats_sort(r, nr);
		printf("correlation\t%.3f\n", stats_median(r, nr));
	}
	free(r);
}

/* --simfit: the simulator's base costs (sim.h) fitted to this run's
 * repeat launches, one fit per kind and thread count, of class all and no
 * padding, on stdout.  A simulated run is not fitted: it would be the
 * model fitting itself. */
static void write_simfit(const char *dir, const struct config *c, size_t n)
{
	size_t i, j;
	int k, fitted = 0;

	printf("execlag-simbase\t1\n# the repeat launches of %s, by kind and thread count "
	       "(analyze --simfit)\n", dir);
	for (k = 0; k < SIM_KINDS; k++) {
		struct sim_base base;

		memset(&base, 0, sizeof base);
		for (i = 0; i < n; i++) {
			double *ms;
			size_t m = 0;
			struct sim_fit fit;

			if (sim_kind(c[i].kind) != k || c[i].pad != 0 || strcmp(c[i].class_name, "all") != 0)
				continue;
			if (launcher_is_sim(c[i].launcher))
				die(EXIT_USAGE, "%s: a simulated run; fit a real one", c[i].file);
			ms = xmalloc((c[i].n_samples ? c[i].n_samples : 1) * sizeof *ms);
			for (j = 0; j < c[i].n_samples; j++)
				if (c[i].samples[j].pass == PASS_REPEAT && stats_sample_ok(&c[i].samples[j]))
					ms[m++] = c[i].samples[j].dur_ms;
			if (sim_fit(ms, m, c[i].threads, &fit) == 0 && sim_base_add(&base, &fit) == 0)
				fitted++;
			free(ms);
		}
		sim_base_write(stdout, k, &base);
	}
	write_simfit_corr(c, n);
	if (!fitted)
		die(EXIT_USAGE, "%s: no configuration with 6 or more repeat launches to fit", dir);
	if (fflush(stdout) != 0)
		die(EXIT_FAIL, "cannot write to stdout:");
}

static void check_run_folder(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) != 0)
		die(EXIT_USAGE, "%s: no such run folder:", dir);
	if (!S_ISDIR(st.st_mode))
		die(EXIT_USAGE, "%s: not a folder", dir);
}

/* --hung-index, --stopped, --first-launch, --durations FILE: what the
 * scripts ask of a samples file, which samples.c alone reads: the first
 * hang line's launch index; why launch stopped and the artifacts it
 * launched; the first launch of artifact 0; every launch's time. */
enum samples_question { Q_HUNG_INDEX, Q_STOPPED, Q_FIRST_LAUNCH, Q_DURATIONS, Q_COUNT };

static int samples_answer(const char *path, enum samples_question q)
{
	struct config c;
	char *sim = NULL;
	size_t i;

	samples_read(path, &c, &sim);
	if (q == Q_HUNG_INDEX && c.n_hangs > 0)
		printf("%ld\n", c.hangs[0].index);
	if (q == Q_STOPPED)
		printf("%s %ld\n", c.stopped ? c.stopped : "-", c.n);
	for (i = 0; q == Q_FIRST_LAUNCH && i < c.n_samples; i++)
		if (c.samples[i].pass == PASS_FIRST && c.samples[i].index == 0) {
			printf("%.1f %ld %ld\n", c.samples[i].dur_ms, c.samples[i].exit_status,
			       c.samples[i].signal);
			break;
		}
	for (i = 0; q == Q_DURATIONS && i < c.n_samples; i++)
		printf("%.3f\n", c.samples[i].dur_ms * 1000.0);
	if (fflush(stdout) != 0 || ferror(stdout))
		die(EXIT_FAIL, "cannot write to stdout:");
	return EXIT_OK;
}

/* --kill-lines FILE [--of PATH]: the kill lines of a log (killlog.h); with
 * --of, those of the program at PATH. */
static int kill_lines_answer(const char *path, const char *of)
{
	struct killlog kl;
	size_t i;

	if (killlog_read(path, &kl) != 0)
		die(EXIT_USAGE, "%s: cannot open:", path);
	for (i = 0; i < kl.n; i++) {
		if (!killlog_of(&kl, i, &of, of ? 1 : 0))
			continue;
		printf("%ld\t%s\t", kl.line[i], killlog_family_name(kl.k[i].family));
		if (kl.k[i].pid > 0)
			printf("%ld", kl.k[i].pid);
		else
			putchar('-');
		printf("\t%s\t%s\n", kl.k[i].file[0] ? kl.k[i].file : "-",
		       kl.k[i].changed == 1 ? "changed" : kl.k[i].changed == 0 ? "same" : "-");
	}
	killlog_free(&kl);
	if (fflush(stdout) != 0 || ferror(stdout))
		die(EXIT_FAIL, "cannot write to stdout:");
	return EXIT_OK;
}

static void parse_args(int argc, char **argv, const char **dir, int *quiet, int *simfit)
{
	const char *ask[Q_COUNT] = { NULL }; /* by enum samples_question */
	const char *kill_lines = NULL, *of = NULL;
	const char *names[Q_COUNT] = { "--hung-index", "--stopped", "--first-launch", "--durations" };
	const struct opt opts[] = {
		OPT_VALUE("--run", dir), OPT_FLAG("--quiet", quiet), OPT_FLAG("--simfit", simfit),
		OPT_VALUE("--hung-index", &ask[Q_HUNG_INDEX]), OPT_VALUE("--stopped", &ask[Q_STOPPED]),
		OPT_VALUE("--first-launch", &ask[Q_FIRST_LAUNCH]),
		OPT_VALUE("--durations", &ask[Q_DURATIONS]),
		OPT_VALUE("--kill-lines", &kill_lines), OPT_VALUE("--of", &of), OPT_END
	};
	int q, n = 0;

	*dir = NULL;
	*quiet = 0;
	*simfit = 0;
	opts_parse(argc, argv, opts, OPTS_NONE, usage);
	if (of && !kill_lines)
		die(EXIT_USAGE, "--of goes with --kill-lines (try --help)");
	for (q = 0; q < Q_COUNT; q++)
		n += ask[q] != NULL;
	if (kill_lines) {
		if (*dir || *quiet || *simfit || n > 0)
			die(EXIT_USAGE, "--kill-lines goes alone (try --help)");
		exit(kill_lines_answer(kill_lines, of));
	}
	for (q = 0; q < Q_COUNT; q++) {
		if (!ask[q])
			continue;
		if (*dir || *quiet || *simfit || n > 1)
			die(EXIT_USAGE, "%s goes alone (try --help)", names[q]);
		exit(samples_answer(ask[q], (enum samples_question)q));
	}
	if (!*dir || !**dir)
		die(EXIT_USAGE, "--run DIR is required (try --help)");
}

int main(int argc, char **argv)
{
	struct run run;
	struct config *configs;
	size_t n_configs, i;
	const char *dir;
	int quiet, simfit;
	char *sim_launcher = NULL;

	progname = "analyze";
	parse_args(argc, argv, &dir, &quiet, &simfit);
	memset(&run, 0, sizeof run);
	check_run_folder(dir);
	read_conditions(dir, &run);
	configs = read_all_samples(dir, &n_configs, &sim_launcher);
	read_kill_logs(configs, n_configs);
	read_assessments(configs, n_configs);
	if (simfit) {
		write_simfit(dir, configs, n_configs);
		return EXIT_OK;
	}
	if (sim_launcher && !launcher_is_sim(run_condition(&run, "launcher")))
		conditions_set(&run.conditions, &run.n_conditions, "launcher", sim_launcher);
	for (i = 0; i < n_configs; i++) {
		stats_config(&configs[i]);
		add_to_case(&run, &configs[i]);
	}
	if (run.n_cases > 1) /* the guide's order, not the file names' */
		qsort(run.cases, run.n_cases, sizeof *run.cases, cmp_case_result);
	for (i = 0; i < run.n_cases; i++) {
		stats_case(&run.cases[i]);
		stats_case_assessed(&run.cases[i]);
	}
	stats_infer_key(run.cases, run.n_cases, &run.inference);
	run.suite = suite_read(dir);
	run.hyperfine = hf_read(dir, &run);
	run.services_log = services_log_read(dir, &run);
	/* make remedies' run: its placements side by side */
	if (run_condition(&run, "run.role") && strcmp(run_condition(&run, "run.role"), "remedies") == 0)
		run.remedies = stats_remedies(run.cases, run.n_cases);
	/* repro names the run before it is renamed into place. */
	run.run_id = run_condition(&run, "run.id") ? xstrdup(run_condition(&run, "run.id"))
						    : run_id_of(dir);

	write_outputs(dir, &run);
	if (!quiet && (report_print_table(&run, stdout) != 0 || fflush(stdout) != 0))
		die(EXIT_FAIL, "cannot write to stdout:");
	return EXIT_OK;
}
