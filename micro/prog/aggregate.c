/* aggregate - many machines' runs in one table.
 *
 *   aggregate --dir DIR [--out PREFIX] [--quiet]
 *
 * Reads every run.json under DIR (recursively; symbolic links are not
 * followed, folders whose name starts with '.' are passed over, as is
 * anything deeper than MAX_DEPTH) and writes one row per run:
 * the machine class (chip, model, OS and version, cores - never a host or
 * user name), the conditions (SIP, assessments, Developer Tools, network,
 * calibration gate; a simulated run's model, labelled "simulated"), and
 * per case the penalty with its interval, the
 * verdict and the serialisation.  Output: PREFIX.md, PREFIX.csv and
 * PREFIX.svg (default PREFIX: DIR/aggregate; a PREFIX ending in '/' or
 * naming a folder is that folder's aggregate), each written atomically; the
 * Markdown is printed too; a PREFIX inside a run folder is refused.  A file
 * that is not a readable execlag run.json of schema_version 1 is skipped
 * with one warning line on stderr. */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700 /* realpath (POSIX.1-2008, XSI) */
#include "aggtable.h"
#include "report.h"
#include "runjson.h"
#include "opts.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_DEPTH 8
#define CELL_MAX 128

static void usage(FILE *f)
{
	fputs("usage: aggregate --dir DIR [--out PREFIX] [--quiet]\n"
	      "  Reads every run.json under DIR (recursively; symbolic links and\n"
	      "  folders starting with '.' are not followed) and writes one table,\n"
	      "  one row per run: machine class, conditions, penalty per case with\n"
	      "  its interval, verdicts, serialisation.\n"
	      "  --out PREFIX  write PREFIX.md, PREFIX.csv, PREFIX.svg (default\n"
	      "                DIR/aggregate); a PREFIX that ends in / or names a folder\n"
	      "                gets aggregate.md, .csv and .svg inside it.  Never inside\n"
	      "                a run folder (one holding a run.json): a run's own files\n"
	      "                are not overwritten.\n"
	      "  --quiet       write the files, print only warnings\n"
	      "  A run.json that cannot be read, is not an execlag run or is of\n"
	      "  another schema_version is skipped with a warning.\n"
	      "Exit: 0 done, 1 could not write, 2 bad usage or no readable run.\n", f);
}

/* ---- finding the files ----------------------------------------------------------- */

struct paths {
	char **v;
	size_t n, cap;
};

static void add_path(struct paths *p, const char *path)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 64;
		p->v = xrealloc(p->v, p->cap * sizeof *p->v);
	}
	p->v[p->n++] = xstrdup(path);
}

static void walk(const char *dir, int depth, struct paths *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d) {
		warnx_("warning: %s: cannot open, passed over: %s", dir, strerror(errno));
		return;
	}
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(dir) + strlen(e->d_name) + 2;
		char *path;
		struct stat st;

		if (e->d_name[0] == '.')
			continue; /* ".", "..", and runs still being made (.<id>.partial) */
		path = xmalloc(n);
		snprintf(path, n, "%s/%s", dir, e->d_name);
		if (lstat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode) && depth < MAX_DEPTH)
				walk(path, depth + 1, out);
			else if (S_ISREG(st.st_mode) && strcmp(e->d_name, "run.json") == 0)
				add_path(out, path);
		}
		free(path);
	}
	closedir(d);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- Markdown ---------------------------------------------------------------------- */

static void md_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* "19.92 [18.94, 20.39] slowdown, serialised" */
static const char *penalty_cell(const struct cell *c, char *buf, size_t len)
{
	char a[32], b[32], m[32];
	int serial = strcmp(c->serialisation, "n/a") != 0;

	if (isnan(c->median))
		snprintf(buf, len, "- %s%s%s", c->verdict, serial ? ", " : "",
			 serial ? c->serialisation : "");
	else if (isnan(c->low))
		snprintf(buf, len, "%s [no interval] %s%s%s", num2(c->median, m, sizeof m),
			 c->verdict, serial ? ", " : "", serial ? c->serialisation : "");
	else
		snprintf(buf, len, "%s [%s, %s] %s%s%s", num2(c->median, m, sizeof m),
			 num2(c->low, a, sizeof a), num2(c->high, b, sizeof b), c->verdict,
			 serial ? ", " : "", serial ? c->serialisation : "");
	return buf;
}

/* The columns of both tables before the cases; Markdown folds the
 * conditions into one column, CSV keeps one column each. */
enum { F_ROW, F_RUN, F_CHIP, F_MODEL, F_OS, F_ARCH, F_CORES, F_SIP, F_ASSESS,
       F_DEVTOOLS, F_NETWORK, F_GATE, N_FIXED };

static const char *fixed_value(const struct row *r, int col, char *buf, size_t len,
			       size_t index)
{
	switch (col) {
	case F_ROW: snprintf(buf, len, "%zu", index + 1); return buf;
	case F_RUN: return r->run_id;
	case F_CHIP: return r->chip;
	case F_MODEL: return r->model;
	case F_OS: return r->os;
	case F_ARCH: return r->arch;
	case F_CORES: return r->cores;
	case F_SIP: return r->sip;
	case F_ASSESS: return r->assessments;
	case F_DEVTOOLS: return r->devtools;
	case F_NETWORK: return r->network;
	default: return r->gate;
	}
}

/* "SIP enabled, assessments enabled, Developer Tools unknown, online":
 * what was recorded, leaving out what does not apply (n/a). */
static const char *conditions_text(const struct row *r, char *buf, size_t len)
{
	static const char *const label[] = { "SIP ", "assessments ", "Developer Tools ", "" };
	const char *value[] = { r->sip, r->assessments, r->devtools, r->network };
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < 4; i++) {
		if (strcmp(value[i], "n/a") == 0)
			continue;
		snprintf(buf + used, len - used, "%s%s%s", used ? ", " : "", label[i], value[i]);
		used = strlen(buf);
	}
	return buf;
}

static const char *const md_head[] = {
	"#", "run", "chip", "model", "OS", "cores", "conditions", "gate"
};
#define N_MD_HEAD (sizeof md_head / sizeof md_head[0])

static const char *md_value(const struct row *r, size_t col, char *buf, size_t len,
			    size_t index)
{
	static const int from[] = { F_ROW, F_RUN, F_CHIP, F_MODEL, F_OS, F_CORES, -1, F_GATE };

	if (from[col] < 0)
		return conditions_text(r, buf, len);
	return fixed_value(r, from[col], buf, len, index);
}

/* "150.00 ▲": the median penalty and the verdict as a symbol */
static const char *compact_cell(const struct cell *c, char *buf, size_t len)
{
	char m[32];
	const char *sym = strcmp(c->verdict, "slowdown") == 0 ? "▲" :
			  strcmp(c->verdict, "none") == 0 ? "·" :
			  strcmp(c->verdict, "hang") == 0 ? "✖" : "?";

	snprintf(buf, len, "%s %s", isnan(c->median) ? "-" : num2(c->median, m, sizeof m), sym);
	return buf;
}

/* cell_fmt: a case cell's text for one table. */
typedef const char *(*cell_fmt)(const struct cell *, char *, size_t);

/* md_cell: one Markdown table cell, "| TEXT ". */
static void md_cell(FILE *f, const char *s)
{
	fputs("| ", f);
	md_text(f, s);
	fputc(' ', f);
}

/* write_case_heads: one header cell per case. */
static void write_case_heads(const struct agg_table *t, FILE *f)
{
	size_t j;

	for (j = 0; j < t->n_cases; j++)
		md_cell(f, t->cases[j]);
}

/* write_case_cells: row R's cell of each case in FMT, MISSING where the
 * run did not measure the case, then the cache key ending the row. */
static void write_case_cells(const struct agg_table *t, const struct row *r, cell_fmt fmt,
			     const char *missing, FILE *f)
{
	char buf[CELL_MAX];
	size_t j;

	for (j = 0; j < t->n_cases; j++) {
		const struct cell *c = agg_cell(r, t->cases[j]);

		md_cell(f, c ? fmt(c, buf, sizeof buf) : missing);
	}
	md_cell(f, r->cache_key);
	fputs("|\n", f);
}

/* Under the screen table, where any row is simulated: which, and that
 * those rows are no machine's evidence. */
static void write_simulated_note(const struct agg_table *t, FILE *f)
{
	size_t i, n = 0;

	for (i = 0; i < t->n_rows; i++) {
		if (strcmp(t->rows[i].group, "simulated") != 0)
			continue;
		fprintf(f, "%s #%zu", n++ ? "," : "Simulated:", i + 1);
	}
	if (n)
		fprintf(f, " — %s made by the kit's simulator: nothing was launched, the "
			"times are a seeded model's; a test of the kit, not evidence of any "
			"machine.\n\n", n == 1 ? "this run was" : "these runs were");
}

/* The table for a screen: machine, condition, and per case the penalty
 * with a symbol; the intervals are in the full table and the CSV. */
static void write_compact(const struct agg_table *t, FILE *f)
{
	size_t i, j;

	fputs("Penalty in ms per case: ▲ slowdown, · none, ? inconclusive, ✖ hang, – not run "
	      "(intervals: the full table below and the CSV).\n\n", f);
	fputs("| # | machine | condition ", f);
	write_case_heads(t, f);
	fputs("| key |\n|---:|---|---", f);
	for (j = 0; j < t->n_cases; j++)
		fputs("|---:", f);
	fputs("|---|\n", f);
	for (i = 0; i < t->n_rows; i++) {
		const struct row *r = &t->rows[i];

		fprintf(f, "| %zu | ", i + 1);
		md_text(f, r->chip);
		fputs(", ", f);
		md_text(f, r->os);
		fputs(" | ", f);
		md_text(f, r->group);
		fputc(' ', f);
		write_case_cells(t, r, compact_cell, "–", f);
	}
	fputc('\n', f);
	write_simulated_note(t, f);
}

static void write_markdown(const struct agg_table *t, const char *svg_name, FILE *f)
{
	char buf[CELL_MAX];
	size_t i, j;

	size_t n_sim = 0;

	for (i = 0; i < t->n_rows; i++)
		n_sim += strcmp(t->rows[i].group, "simulated") == 0;
	fprintf(f, "# execlag aggregate — %zu run%s", t->n_rows, t->n_rows == 1 ? "" : "s");
	if (n_sim)
		fprintf(f, " (%zu simulated)", n_sim);
	fputs("\n\n", f);
	write_compact(t, f);
	fputs("## Full table\n\n", f);
	fputs("One row per run. Penalty: the median of first − repeat launch time "
	      "of the same file, in ms, with its 95% interval, then the verdict and, "
	      "where more than one thread count was measured, the serialisation "
	      "(docs/method.md). Machines are described by chip, model, OS and "
	      "cores only.\n\n", f);
	for (j = 0; j < N_MD_HEAD; j++)
		fprintf(f, "| %s ", md_head[j]);
	write_case_heads(t, f);
	fputs("| cache key |\n", f);
	fputs("|---:", f);
	for (j = 1; j < N_MD_HEAD + t->n_cases + 1; j++)
		fputs("|---", f);
	fputs("|\n", f);
	for (i = 0; i < t->n_rows; i++) {
		const struct row *r = &t->rows[i];

		for (j = 0; j < N_MD_HEAD; j++)
			md_cell(f, md_value(r, j, buf, sizeof buf, i));
		write_case_cells(t, r, penalty_cell, "not run", f);
	}
	fputc('\n', f);
	if (t->skipped)
		fprintf(f, "%zu file%s skipped (not a readable execlag run.json of "
			"schema_version %d).\n\n", t->skipped, t->skipped == 1 ? " was" : "s were",
			RUNJSON_SCHEMA_VERSION);
	fprintf(f, "![Penalty per case and machine, log scale](%s)\n", svg_name);
}

/* ---- CSV ------------------------------------------------------------------------------ */

static void csv_field(FILE *f, const char *s, int last)
{
	if (strpbrk(s, ",\"\r\n") || (*s && (s[0] == ' ' || s[strlen(s) - 1] == ' '))) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

static void csv_num(FILE *f, double v)
{
	char buf[32];

	if (isnan(v))
		buf[0] = '\0';
	else
		snprintf(buf, sizeof buf, "%.6g", v);
	csv_field(f, buf, 0);
}

static void write_csv(const struct agg_table *t, FILE *f)
{
	static const char *const fixed[N_FIXED] = {
		"row", "run_id", "chip", "model", "os", "arch", "cores", "sip", "assessments",
		"devtools", "network", "gate"
	};
	static const char *const per_case[] = {
		"penalty_ms", "ci_low_ms", "ci_high_ms", "verdict", "serialisation"
	};
	char buf[CELL_MAX];
	size_t i, j, k;

	for (j = 0; j < N_FIXED; j++)
		csv_field(f, fixed[j], 0);
	for (j = 0; j < t->n_cases; j++)
		for (k = 0; k < 5; k++) {
			snprintf(buf, sizeof buf, "%s.%s", t->cases[j], per_case[k]);
			csv_field(f, buf, 0);
		}
	csv_field(f, "cache_key", 1);
	for (i = 0; i < t->n_rows; i++) {
		const struct row *r = &t->rows[i];

		for (k = 0; k < N_FIXED; k++)
			csv_field(f, fixed_value(r, (int)k, buf, sizeof buf, i), 0);
		for (j = 0; j < t->n_cases; j++) {
			const struct cell *c = agg_cell(r, t->cases[j]);

			csv_num(f, c ? c->median : NAN);
			csv_num(f, c ? c->low : NAN);
			csv_num(f, c ? c->high : NAN);
			csv_field(f, c ? c->verdict : "not run", 0);
			csv_field(f, c ? c->serialisation : "", 0);
		}
		csv_field(f, r->cache_key, 1);
	}
}

/* ---- main ------------------------------------------------------------------------------ */

static char *joined(const char *prefix, const char *suffix)
{
	size_t n = strlen(prefix) + strlen(suffix) + 1;
	char *p = xmalloc(n);

	snprintf(p, n, "%s%s", prefix, suffix);
	return p;
}

/* All three complete in temporaries before any is renamed. */
static void write_outputs(const struct agg_table *t, const char *prefix)
{
	static const char *const suffix[3] = { ".md", ".csv", ".svg" };
	struct atomic_file out[3];
	char *path[3];
	const char *svg_name;
	int i, k;

	svg_name = strrchr(prefix, '/') ? strrchr(prefix, '/') + 1 : prefix;
	for (i = 0; i < 3; i++) {
		path[i] = joined(prefix, suffix[i]);
		if (atomic_open(&out[i], path[i]) != 0) {
			for (k = 0; k < i; k++)
				atomic_abort(&out[k]);
			die(EXIT_FAIL, "%s: cannot create:", path[i]);
		}
	}
	{
		char *svg_file = joined(svg_name, ".svg");

		write_markdown(t, svg_file, out[0].fp);
		free(svg_file);
	}
	write_csv(t, out[1].fp);
	report_svg_aggregate(t, out[2].fp);
	for (i = 0; i < 3; i++)
		if (ferror(out[i].fp)) {
			for (k = 0; k < 3; k++)
				atomic_abort(&out[k]);
			die(EXIT_FAIL, "%s: cannot write", path[i]);
		}
	for (i = 0; i < 3; i++) {
		if (atomic_commit(&out[i]) != 0) {
			for (k = i + 1; k < 3; k++)
				atomic_abort(&out[k]);
			die(EXIT_FAIL, "%s: cannot write:", path[i]);
		}
		free(path[i]);
	}
}

/* The prefix of the three files: OUT, or OUT/aggregate where OUT ends in
 * '/' or names a folder (else "dir/" would write dir/.md, hidden); without
 * OUT, DIR/aggregate. */
static char *out_prefix(const char *dir, const char *out)
{
	struct stat st;
	char *d, *p;
	size_t n;

	if (out && out[strlen(out) - 1] != '/' && !(stat(out, &st) == 0 && S_ISDIR(st.st_mode)))
		return xstrdup(out);
	d = xstrdup(out ? out : dir);
	n = strlen(d);
	while (n > 1 && d[n - 1] == '/')
		d[--n] = '\0';
	p = joined(d, strcmp(d, "/") == 0 ? "aggregate" : "/aggregate");
	free(d);
	return p;
}

/* The files go into a folder that is there, and never into a run folder
 * (one holding a run.json, at any depth above them): a run's own report.md,
 * run.json and raw/ are not ours to overwrite. */
static void check_destination(const char *prefix)
{
	char *folder = parent_dir(prefix), *real, *rj, *cut;
	struct stat st;

	if (stat(folder, &st) != 0 ? errno == ENOENT || errno == ENOTDIR : !S_ISDIR(st.st_mode))
		die(EXIT_USAGE, "%s: no such folder to write the aggregate into", folder);
	real = realpath(folder, NULL);
	free(folder);
	if (!real)
		return; /* unreadable: creating the files will say why */
	for (;;) {
		rj = joined(real, strcmp(real, "/") == 0 ? "run.json" : "/run.json");
		if (lstat(rj, &st) == 0)
			die(EXIT_USAGE, "%s.md would be inside the run folder %s, whose files are "
			    "the run's own: give --out (make: OUT=) a place outside it", prefix, real);
		free(rj);
		if (strcmp(real, "/") == 0)
			break;
		cut = strrchr(real, '/');
		cut[cut == real ? 1 : 0] = '\0';
	}
	free(real);
}

static void parse_args(int argc, char **argv, const char **dir, const char **out,
		       int *quiet)
{
	const struct opt opts[] = {
		OPT_VALUE("--dir", dir), OPT_VALUE("--out", out), OPT_FLAG("--quiet", quiet), OPT_END
	};

	*dir = *out = NULL;
	*quiet = 0;
	opts_parse(argc, argv, opts, OPTS_NONE, usage);
	if (!*dir || !**dir)
		die(EXIT_USAGE, "--dir DIR is required: the folder of runs (try --help)");
	if (*out && !**out)
		die(EXIT_USAGE, "--out needs a path prefix, e.g. results/aggregate");
}

int main(int argc, char **argv)
{
	struct agg_table t;
	struct paths found = { NULL, 0, 0 };
	struct stat st;
	const char *dir, *out;
	char *prefix, why[512];
	int quiet;
	size_t i;

	progname = "aggregate";
	parse_args(argc, argv, &dir, &out, &quiet);
	if (stat(dir, &st) != 0)
		die(EXIT_USAGE, "%s: no such folder of runs:", dir);
	if (!S_ISDIR(st.st_mode))
		die(EXIT_USAGE, "%s: not a folder (give the folder that holds the runs)", dir);

	prefix = out_prefix(dir, out);
	check_destination(prefix);

	walk(dir, 0, &found);
	if (found.n > 1)
		qsort(found.v, found.n, sizeof *found.v, cmp_str);
	memset(&t, 0, sizeof t);
	t.rows = xmalloc((found.n + 1) * sizeof *t.rows);
	for (i = 0; i < found.n; i++) {
		if (runrow_read(found.v[i], &t.rows[t.n_rows], why, sizeof why) == 0)
			t.n_rows++;
		else {
			warnx_("warning: %s: %s; skipped", found.v[i], why);
			t.skipped++;
		}
		free(found.v[i]);
	}
	free(found.v);
	if (t.n_rows == 0)
		die(EXIT_USAGE, "%s: no readable run.json (%zu skipped): nothing to aggregate",
		    dir, t.skipped);
	agg_collect_cases(&t);

	write_outputs(&t, prefix);
	if (!quiet) {
		char *svg_file = joined(strrchr(prefix, '/') ? strrchr(prefix, '/') + 1 : prefix, ".svg");

		write_markdown(&t, svg_file, stdout);
		free(svg_file);
		if (fflush(stdout) != 0 || ferror(stdout))
			die(EXIT_FAIL, "cannot write to stdout:");
	}
	free(prefix);
	for (i = 0; i < t.n_rows; i++)
		runrow_free(&t.rows[i]);
	free(t.rows);
	for (i = 0; i < t.n_cases; i++)
		free(t.cases[i]);
	free(t.cases);
	return EXIT_OK;
}
