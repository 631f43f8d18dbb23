/* measure - the answer of make measure: how much of one command's time went
 * to first-launch checks (docs/measure.md).
 *
 *   measure --out DIR --watch FILE --conditions FILE [--logcount FILE]
 *           [--services FILE] [--probe RUN --probe-how ran|reused]
 *           [--probe-how none|failed --probe-note TEXT] [--gate-log FILE]
 *           [--dir PATH] [--id ID] -- COMMAND [ARG...]
 *   measure --program-sizes OUT --watch FILE [--programs FILE] [--probe RUN]
 *   measure --latest-probe RESULTS --like CONDITIONS
 *   measure ... --remedies-in RESULTS -- COMMAND [ARG...]
 *   measure --gate-log FILE
 *   measure --figures MEASURE
 *
 * From what the command's run left (execwatch's result, the unified log's
 * counts, the services' CPU) and the probe's run.json (analyze's verdict on
 * the exe case: the penalty L with its interval, and whether launches
 * queue), it writes DIR/measure.json (docs/measure.schema.json) and
 * DIR/measure.txt, and prints the latter:
 *   W  the command's wall time;  N  the new programs it launched;
 *   L  one check's price;  B = N x L / (checks at once), with L's interval;
 *   B / W, capped at 100%;  the services' CPU;  a projection where it follows.
 * No statistic is made here: L, its interval and the queueing are analyze's.
 * The steps' parts: the model, micro/model/measure.h; its readers,
 * micro/fmt/measurein.c (gatelog.c, measurejson.c); its arithmetic,
 * micro/stats/measurestats.c; its writers, micro/report/measure_text.c and
 * measure_json.c.
 *
 * --latest-probe prints the newest run under RESULTS made on the same
 * machine under the same conditions as CONDITIONS (docs/measure.md) that
 * measured the exe case at T=1, or nothing.  --gate-log FILE alone and
 * --figures read back what a gate held and what a measure found, for
 * scripts/tool/bench-measure. */
#define _POSIX_C_SOURCE 200809L
#include "advice.h"
#include "gatelog.h"
#include "measurein.h"
#include "measurejson.h"
#include "measurestats.h"
#include "measure_json.h"
#include "measure_text.h"
#include "opts.h"
#include "sizesummary.h"
#include "util.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fputs("usage: measure --out DIR --watch FILE --conditions FILE [--logcount FILE]\n"
	      "               [--services FILE] [--probe RUN] [--probe-how HOW]\n"
	      "               [--probe-note TEXT] [--gate-log FILE] [--dir PATH] [--id ID]\n"
	      "               [--remedies-in RESULTS]\n"
	      "               -- COMMAND [ARG...]\n"
	      "       measure --latest-probe RESULTS --like CONDITIONS\n"
	      "       measure --program-sizes OUT --watch FILE [--programs FILE] [--probe RUN]\n"
	      "       measure --gate-log FILE\n"
	      "       measure --figures MEASURE\n"
	      "Write DIR/measure.json and DIR/measure.txt for one measured command and\n"
	      "print the text: wall time W, new programs launched N, one check's price L\n"
	      "(the probe run's exe case, as analyze decided it), the checker's busy time\n"
	      "B = N x L / (checks at once), B's share of W, the services' CPU.\n"
	      "  --watch FILE       execwatch's result (W, status, N on Linux)\n"
	      "  --logcount FILE    scripts/probe/logcount's counts (N on macOS)\n"
	      "  --services FILE    scripts/probe/services' before and after samples\n"
	      "  --conditions FILE  scripts/probe/sysinfo's conditions and the measure's keys\n"
	      "  --probe RUN        the run whose exe case gives L (a run folder)\n"
	      "  --probe-how HOW    ran (made for this measure), reused (PROBE=0),\n"
	      "                     none (PROBE=0, no comparable run), failed\n"
	      "  --probe-note TEXT  why, for none and failed\n"
	      "  --gate-log FILE    the calibration gate's log: what it held\n"
	      "  --sizes FILE       the new programs' sizes (--program-sizes wrote it)\n"
	      "  --size-probe RUN   the run that took L again at their median size\n"
	      "  --size-probe-how ran|failed, --size-probe-note TEXT  how it went\n"
	      "  --dir PATH, --id ID  where the command ran; the measure's id\n"
	      "  --remedies-in RESULTS  the remedy: B again with the placement the newest\n"
	      "                     make remedies run there (same machine and conditions)\n"
	      "                     says to use, a projection\n"
	      "  --latest-probe RESULTS --like CONDITIONS  print the newest comparable run\n"
	      "  --program-sizes OUT  the new programs' sizes (execwatch's, or those of the\n"
	      "                     listed programs that still exist) and the probe's program\n"
	      "                     into OUT; prints the padding in bytes at which L is to be\n"
	      "                     taken again (median more than 4x the probe's), or nothing\n"
	      "  --gate-log FILE alone  what the gate's log says it held (KEY<TAB>VALUE:\n"
	      "                     decisions, held_launches, held_launches_s, unheld_launches,\n"
	      "                     held_s; as measure.json's gate)\n"
	      "  --figures MEASURE  a finished measure's (its folder or measure.json) W, N, L,\n"
	      "                     checks at once and B (KEY<TAB>VALUE)\n"
	      "Exit: 0 done, 1 cannot write or read, 2 bad usage or a file that is not the\n"
	      "kit's.\n", f);
}

/* ---- the measure ------------------------------------------------------------------ */

/* The command line: what to read, where to write, and the command. */
struct margs {
	const char *out, *watch, *logcount, *services, *conds;
	const char *probe, *probe_how, *probe_note, *gate_log;
	const char *sizes, *size_probe, *size_probe_how, *size_probe_note;
	const char *dir, *id, *remedies_in;
	enum m_how how;
	char **cmd; /* the command and its arguments, after -- */
	int ncmd;
};

/* The options, each with a value, then -- and the command; checked. */
static void parse_measure_args(int argc, char **argv, struct margs *m)
{
	static const char *const hows[] = { "none", "ran", "reused", "failed" };
	static const enum m_how how_of[] = { M_HOW_NONE, M_HOW_RAN, M_HOW_REUSED, M_HOW_FAILED };
	const struct opt opts[] = {
		OPT_VALUE("--out", &m->out), OPT_VALUE("--watch", &m->watch),
		OPT_VALUE("--logcount", &m->logcount), OPT_VALUE("--services", &m->services),
		OPT_VALUE("--conditions", &m->conds), OPT_VALUE("--probe", &m->probe),
		OPT_VALUE("--probe-how", &m->probe_how), OPT_VALUE("--probe-note", &m->probe_note),
		OPT_VALUE("--gate-log", &m->gate_log), OPT_VALUE("--dir", &m->dir),
		OPT_VALUE("--id", &m->id), OPT_VALUE("--sizes", &m->sizes),
		OPT_VALUE("--size-probe", &m->size_probe), OPT_VALUE("--size-probe-how", &m->size_probe_how),
		OPT_VALUE("--size-probe-note", &m->size_probe_note),
		OPT_VALUE("--remedies-in", &m->remedies_in), OPT_END
	};
	int i, k;

	memset(m, 0, sizeof *m);
	i = opts_parse(argc, argv, opts, OPTS_AFTER_DASHDASH, usage);
	if (!m->out || !m->watch || !m->conds)
		die(EXIT_USAGE, "--out, --watch and --conditions are required (see --help)");
	if (i >= argc)
		die(EXIT_USAGE, "no command after -- (see --help)");
	m->cmd = argv + i;
	m->ncmd = argc - i;
	if (!m->probe_how)
		m->probe_how = m->probe ? "ran" : "none";
	for (k = 0; k < 4 && strcmp(m->probe_how, hows[k]) != 0; k++)
		;
	if (k == 4)
		die(EXIT_USAGE, "--probe-how '%s' is not ran, reused, none or failed", m->probe_how);
	m->how = how_of[k];
	if (m->size_probe_how && strcmp(m->size_probe_how, "ran") != 0 && strcmp(m->size_probe_how, "failed") != 0)
		die(EXIT_USAGE, "--size-probe-how '%s' is not ran or failed", m->size_probe_how);
}

/* The command as a person reads it: sh -c's string, else the words, quoted
 * where a shell would need it. */
static char *command_line(char **argv, int argc)
{
	size_t cap = 64, len = 0;
	char *s;
	int i;

	if (argc == 3 && strcmp(argv[0], "sh") == 0 && strcmp(argv[1], "-c") == 0)
		return xstrdup(argv[2]);
	s = xmalloc(cap);
	s[0] = '\0';
	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *p;
		int plain = a[0] != '\0';

		for (p = a; *p && plain; p++)
			plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%", *p) != NULL;
		while (len + strlen(a) * 4 + 8 > cap) {
			cap *= 2;
			s = xrealloc(s, cap);
		}
		if (i)
			s[len++] = ' ';
		if (plain) {
			len += (size_t)sprintf(s + len, "%s", a);
		} else {
			s[len++] = '\'';
			for (p = a; *p; p++) {
				if (*p == '\'') {
					memcpy(s + len, "'\\''", 4);
					len += 4;
				} else {
					s[len++] = *p;
				}
			}
			s[len++] = '\'';
		}
		s[len] = '\0';
	}
	return s;
}

static void latest_remedy(struct measure *m, const char *results);

/* Read what the run left: the conditions, W and N, L, the sizes and L at
 * their size, the services, the gate; the newest remedies table. */
static void read_run(const struct margs *a, struct measure *m)
{
	measure_init(m);
	if (measure_read_conditions(m, a->conds) != 0)
		die(EXIT_FAIL, "cannot read %s:", a->conds);
	if (a->logcount)
		measure_read_logcount(m, a->logcount);
	measure_read_watch(m, a->watch);
	measure_read_probe(m, a->probe, a->how, a->probe_note);
	measure_read_sizes(m, a->sizes);
	measure_read_size_probe(m, a->size_probe, a->size_probe_how, a->size_probe_note);
	measure_read_services(m, a->services);
	measure_read_gate(m, a->gate_log);
	if (a->remedies_in)
		latest_remedy(m, a->remedies_in);
	m->cmd.argv = a->cmd;
	m->cmd.argc = a->ncmd;
	m->cmd.line = command_line(a->cmd, a->ncmd);
	m->cmd.dir = a->dir ? xstrdup(a->dir) : NULL;
	m->cmd.id = a->id ? xstrdup(a->id) : NULL;
}

/* The text: the figures, then the cause and the one thing to do for the
 * verdict of the probe whose L B uses (advice.c reads its run.json). */
static char *text_of(const struct margs *a, const struct measure *m)
{
	const char *run = m->used.at_size ? a->size_probe : a->probe;
	struct runjson r;
	struct advice_probe p;
	int have = run && measure_load_run(run, &r) == 0;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		die(EXIT_FAIL, "cannot hold the text in memory:");
	measure_text_write(f, m, have && advice_probe_of_run(r.json, "exe", &p) ? &p : NULL);
	if (fclose(f) != 0)
		die(EXIT_FAIL, "cannot hold the text in memory:");
	if (have)
		runjson_free(&r);
	return buf;
}

static int write_text_file(const char *path, const char *s)
{
	struct atomic_file af;

	if (atomic_open(&af, path) != 0)
		return -1;
	fputs(s, af.fp);
	return atomic_commit(&af);
}

/* DIR/measure.txt, DIR/measure.json, then the text on stdout. */
static void write_measure(const char *out, const struct measure *m, const char *text)
{
	char *path;

	path = xasprintf("%s/measure.txt", out);
	if (write_text_file(path, text) != 0)
		die(EXIT_FAIL, "cannot write %s:", path);
	free(path);
	path = xasprintf("%s/measure.json", out);
	if (measure_json_write(path, m, text) != 0)
		die(EXIT_FAIL, "cannot write %s:", path);
	free(path);
	if (fputs(text, stdout) == EOF || fflush(stdout) != 0)
		die(EXIT_FAIL, "cannot write to stdout:");
}

/* Parse, read what the run left, compute B, then say it and write it. */
static int measure_main(int argc, char **argv)
{
	struct margs a;
	struct measure m;
	char *text;

	parse_measure_args(argc, argv, &a);
	read_run(&a, &m);
	measure_choose_l(&m);
	measure_compute(&m);
	text = text_of(&a, &m);
	write_measure(a.out, &m, text);
	free(text);
	measure_free(&m);
	return EXIT_OK;
}

/* ---- the new programs' sizes ------------------------------------------------------- */

/* The sizes file (docs/formats.md, "Program sizes"), atomically. */
static void write_sizes(const char *out, const char *source, long known, long gone,
			const unsigned long long sz[3], const char *why, long long pb, long long pad,
			int capped)
{
	struct atomic_file af;

	if (atomic_open(&af, out) != 0)
		die(EXIT_FAIL, "cannot write %s:", out);
	fprintf(af.fp, "execlag-sizes\t1\nsource\t%s\n", source);
	if (known > 0)
		fprintf(af.fp, "known\t%ld\ngone\t%ld\nmedian\t%llu\np90\t%llu\nlargest\t%llu\n", known,
			gone, sz[0], sz[1], sz[2]);
	else
		fprintf(af.fp, "why\t%s\ngone\t%ld\n", why, gone);
	if (pb > 0)
		fprintf(af.fp, "probe_bytes\t%lld\n", pb);
	if (pad > 0)
		fprintf(af.fp, "reprobe_pad\t%lld\nreprobe_capped\t%d\n", pad, capped);
	if (atomic_commit(&af) != 0)
		die(EXIT_FAIL, "cannot write %s:", out);
}

/* measure --program-sizes OUT --watch FILE [--programs FILE] [--probe RUN]:
 * the new programs' sizes (Linux: execwatch's `sizes` line, each read at
 * its first launch; macOS: the programs the log named, read now, where they
 * still exist) and the probe's program, into OUT; prints the padding in
 * bytes at which L is to be taken again, or nothing. */
static int sizes_main(int argc, char **argv)
{
	const char *out = NULL, *watch = NULL, *programs = NULL, *probe = NULL;
	const struct opt opts[] = {
		OPT_VALUE("--program-sizes", &out), OPT_VALUE("--watch", &watch),
		OPT_VALUE("--programs", &programs), OPT_VALUE("--probe", &probe), OPT_END
	};
	unsigned long long sz[3] = { 0, 0, 0 };
	long long pb = -1, pad;
	long known = -1, gone = 0;
	int capped;
	char why[300] = "";

	opts_parse(argc, argv, opts, OPTS_NONE, usage);
	if (!out || !watch)
		die(EXIT_USAGE, "--program-sizes OUT needs --watch FILE (see --help)");
	if (programs) {
		uint64_t *v, m, q, x;
		size_t n = measure_listed_sizes(programs, &v, &gone);

		known = (long)n;
		size_summary(v, n, &m, &q, &x);
		sz[0] = m, sz[1] = q, sz[2] = x;
		free(v);
		if (n == 0)
			snprintf(why, sizeof why, gone ? "none of the programs the log named exists any more"
						       : "the log named no program in the command's folders");
	} else {
		measure_watch_sizes(watch, &known, &sz[0], &sz[1], &sz[2], why, sizeof why);
	}
	if (probe)
		pb = measure_probe_bytes(probe, 0);
	pad = measure_reprobe_pad(known, sz[0], pb, &capped);
	write_sizes(out, programs ? "unified log" : "fanotify", known, gone, sz, why, pb, pad, capped);
	if (pad > 0)
		printf("%lld\n", pad);
	return EXIT_OK;
}

/* ---- the latest comparable run ---------------------------------------------------- */

/* What makes two runs comparable: the same machine (its OS, build, kernel,
 * model, CPU, cores, the kit's architecture) and the same conditions (SIP,
 * assessments, Developer Tools, network, terminal, file system, watchers,
 * launcher, gate). */
static const char *const same_keys[] = {
	"os", "os_version", "os_build", "kernel", "arch", "model", "cpu", "ncpu", "core_classes",
	"sip", "sip_custom", "assessments", "devtools", "network", "vpn",
	"terminal", "work_fs", "fanotify_listeners", "agents", "launcher", "gate.active",
	"gate.latency_ms", "gate.workers", "gate.key", "gate.exempt", "gate.on", "gate.every_ms",
	"gate.per_mb_ms", NULL
};

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)b, *(char *const *)a); /* newest first */
}

/* Whether run R was made on the machine and in the conditions of WANT. */
static int same_conditions(const struct runjson *r, const struct measure *want)
{
	int same = 1, k;

	for (k = 0; same && same_keys[k]; k++) {
		const char *v = runjson_condition(r, same_keys[k]);

		same = strcmp(v ? v : "", measure_condition(want, same_keys[k])) == 0;
	}
	return same;
}

/* Whether RUN measured the exe case at T=1 unpadded (a measure's probe at
 * its programs' size, SIZE, prices programs of that size, not the
 * probe's), on the machine and in the conditions of WANT; with REMEDIES,
 * whether it is make remedies' run made there. */
static int comparable(const char *run, const struct measure *want, int remedies)
{
	struct runjson r;
	const json_t *c, *cfg;
	const char *role;
	size_t i;
	int same = 0;

	if (measure_load_run(run, &r) != 0)
		return 0;
	c = rj_case(&r, "exe");
	json_array_foreach(json_object_get(c, "configs"), i, cfg)
		if (rj_long(cfg, "threads") == 1 && rj_pad(cfg) == 0)
			same = 1;
	role = runjson_condition(&r, "run.role");
	if (remedies)
		same = role && strcmp(role, "remedies") == 0;
	same = same && same_conditions(&r, want);
	runjson_free(&r);
	return same;
}

/* The runs under RESULTS, by name (UTC time first), newest first. */
static size_t runs_in(const char *results, char ***names)
{
	DIR *d = opendir(results);
	struct dirent *e;
	size_t n = 0;

	*names = NULL;
	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9' || !strchr(e->d_name, 'T'))
			continue;
		*names = xrealloc(*names, (n + 1) * sizeof **names);
		(*names)[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(*names, n, sizeof **names, name_cmp);
	return n;
}

/* The newest make remedies run under RESULTS made where the measure was:
 * its table into m->remedy, or nothing. */
static void latest_remedy(struct measure *m, const char *results)
{
	char **names;
	size_t n, i;
	int found = 0;

	n = runs_in(results, &names);
	for (i = 0; i < n; i++) {
		char *dir = xasprintf("%s/%s", results, names[i]);

		if (!found && comparable(dir, m, 1))
			found = measure_read_remedy(m, dir);
		free(dir);
		free(names[i]);
	}
	free(names);
}

/* measure --latest-probe RESULTS --like CONDITIONS */
static int latest_main(int argc, char **argv)
{
	const char *results = NULL, *like = NULL;
	const struct opt opts[] = {
		OPT_VALUE("--latest-probe", &results), OPT_VALUE("--like", &like), OPT_END
	};
	struct measure want;
	char **names;
	size_t n, i;

	opts_parse(argc, argv, opts, OPTS_NONE, usage);
	if (!results || !like)
		die(EXIT_USAGE, "usage: measure --latest-probe RESULTS --like CONDITIONS");
	measure_init(&want);
	if (measure_read_conditions(&want, like) != 0)
		die(EXIT_FAIL, "cannot read %s:", like);
	n = runs_in(results, &names);
	for (i = 0; i < n; i++) {
		char *dir = xasprintf("%s/%s", results, names[i]);
		int same = comparable(dir, &want, 0);

		free(dir);
		if (same) {
			printf("%s/%s\n", results, names[i]);
			break;
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	measure_free(&want);
	return EXIT_OK;
}

/* ---- read back: the gate's log, a finished measure ---------------------------------- */

/* measure --gate-log FILE: what the gate held, as measure.json's gate says it. */
static int gate_main(const char *log)
{
	struct gate_held h;
	char why[256];
	int rc = gatelog_read(log, &h, why, sizeof why);

	if (rc == -1)
		die(EXIT_FAIL, "cannot read %s: %s", log, why);
	if (rc != 0)
		die(EXIT_USAGE, "%s: not the calibration gate's log: %s", log, why);
	printf("decisions\t%ld\nheld_launches\t%ld\nheld_launches_s\t%.6g\nunheld_launches\t%ld\nheld_s\t%.6g\n",
	       h.decisions, h.held_launches, h.held_launches_ms / 1000.0, h.unheld_launches, h.held_ms / 1000.0);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
}

/* A figure, or WORD where it is not known. */
static void figure(const char *key, double v, const char *word)
{
	if (isnan(v))
		printf("%s\t%s\n", key, word);
	else
		printf("%s\t%.6g\n", key, v);
}

/* measure --figures MEASURE: W, N, L, checks at once and B, read back. */
static int figures_main(int argc, char **argv)
{
	const char *where = NULL;
	const struct opt opts[] = { OPT_VALUE("--figures", &where), OPT_END };
	struct measure m;
	char why[1024];

	opts_parse(argc, argv, opts, OPTS_NONE, usage);
	if (measurejson_read(where, &m, why, sizeof why) != 0)
		die(EXIT_USAGE, "%s", why);
	figure("wall_s", m.cmd.wall_s, "none");
	figure("fresh_launches", m.n.n >= 0 ? (double)m.n.n : NAN, "unknown");
	figure("penalty_ms", m.probe.l.median, "none");
	printf("checks_queue\t%s\n", m.probe.queue != M_QUEUE_UNREAD ? m_queue_word(m.probe.queue) : "none");
	figure("checker_busy_s", m.answer.have_b ? m.answer.b : NAN, "none");
	measure_free(&m);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
}

int main(int argc, char **argv)
{
	const char *first = argc > 1 ? argv[1] : "";

	progname = "measure";
	if (strcmp(first, "--help") == 0 || strcmp(first, "-h") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(first, "--program-sizes") == 0)
		return sizes_main(argc, argv);
	if (strcmp(first, "--latest-probe") == 0)
		return latest_main(argc, argv);
	if (strcmp(first, "--gate-log") == 0 && argc == 3)
		return gate_main(argv[2]);
	if (strcmp(first, "--figures") == 0)
		return figures_main(argc, argv);
	return measure_main(argc, argv);
}
