/* advise - the plain lines for a finished run (advice.h): what a new
 * program costs here, the cause and the one thing to do; with --brief, the
 * four lines make repro ends with (report.md begins with them too); with
 * --doctor, make doctor's whole answer and its exit status.
 *
 *   advise --run DIR [--case NAME] [--doctor | --brief]
 *
 * Reads DIR/run.json (docs/run.schema.json), and for a hang with --doctor
 * the log excerpt of the hung configuration (raw/NAME.log.ndjson). */
#define _POSIX_C_SOURCE 200809L
#include "advice.h"
#include "logexcerpt.h"
#include "opts.h"
#include "runjson.h"
#include "util.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fputs("usage: advise --run DIR [--case NAME] [--doctor | --brief]\n"
	      "Print the plain lines for the finished run in DIR (its run.json): the cause of\n"
	      "what a new program costs there and the one thing to do, for the case NAME\n"
	      "(default: exe, else the run's first case).\n"
	      "  --doctor  make doctor's answer: the machine's state first, then those lines,\n"
	      "            last the verdict with the penalty and its interval in ms\n"
	      "  --brief   at most four lines (cost, queue, cause, do), of exe, else the\n"
	      "            first case: what make repro ends with and report.md begins with\n"
	      "Exit: 0 done; with --doctor 0 none, 1 penalty, 3 unclear, 4 hang; 2 bad usage or a\n"
	      "run.json that cannot be read.\n", f);
}

static const char *cond_get(const void *ctx, const char *key)
{
	return advice_json_get(ctx, key);
}

static const char *or(const char *s, const char *fallback)
{
	return s && *s ? s : fallback;
}

/* make doctor's state lines: the machine, how the kit was started, the
 * probe. */
static void state_lines(const json_t *cond, const json_t *c, const struct advice_probe *p, FILE *f)
{
	const char *os = or(cond_get(cond, "os"), "unknown");
	const json_t *first = json_object_get(c, "first_median_ms");
	const json_t *repeat = json_object_get(c, "repeat_median_ms");
	const char *launcher = cond_get(cond, "launcher");
	char fb[32], rb[32], pb[96];

	fputs("execlag doctor: does a new program pay on its first launch here, and what to do\n", f);
	if (strcmp(os, "Darwin") == 0) {
		fprintf(f, "SIP: %s\n", or(cond_get(cond, "sip"), "unknown"));
		fprintf(f, "responsible app: %s — Developer Tools: %s\n",
			or(cond_get(cond, "responsible_app"), "unknown"),
			or(cond_get(cond, "devtools"), "unknown"));
		fprintf(f, "XProtect: %s, launch scans %s\n", or(cond_get(cond, "xprotect_version"), "unknown"),
			or(cond_get(cond, "xprotect_launch_scans"), "unknown"));
	} else {
		fprintf(f, "system: %s (%s): no first-launch assessment, the control\n", os,
			or(cond_get(cond, "os_name"), "unknown"));
		fprintf(f, "watchers: fanotify listeners: %s; known agents: %s\n",
			or(cond_get(cond, "fanotify_listeners"), "unknown"),
			or(cond_get(cond, "agents"), "unknown"));
	}
	fprintf(f, "started: %s (ssh: %s, tmux/screen: %s, launchd job: %s)\n",
		or(cond_get(cond, "started_via"), "unknown"), or(cond_get(cond, "ssh"), "unknown"),
		or(cond_get(cond, "multiplexer"), "unknown"), or(cond_get(cond, "launchd_job"), "unknown"));
	fprintf(f, "network: %s (interface %s)\n", or(cond_get(cond, "network"), "unknown"),
		or(cond_get(cond, "network_interface"), "unknown"));
	if (cond_get(cond, "gate.active") && strcmp(cond_get(cond, "gate.active"), "1") == 0)
		fprintf(f, "gate: the calibration gate held the launches (latency %s ms, workers %s, key %s)\n",
			or(cond_get(cond, "gate.latency_ms"), "?"), or(cond_get(cond, "gate.workers"), "?"),
			or(cond_get(cond, "gate.key"), "?"));
	if (launcher && strncmp(launcher, "sim:", 4) == 0)
		fprintf(f, "SIMULATED: %s — nothing was launched; the times are the model's\n", launcher);
	if (p->verdict == ADVICE_HANG) {
		fprintf(f, "probe: new programs (%s), each to be launched twice, one at a time, each "
			"launch bounded: one did not start\n", or(p->kase, "none"));
		return;
	}
	fprintf(f, "probe: %ld new programs (%s), each launched twice, one at a time: first %s ms, "
		"repeat %s ms (medians); a first launch costs %s more\n",
		p->pairs >= 0 ? p->pairs : 0L, or(p->kase, "none"),
		json_is_number(first) ? num2(json_number_value(first), fb, sizeof fb) : "?",
		json_is_number(repeat) ? num2(json_number_value(repeat), rb, sizeof rb) : "?",
		advice_penalty_text(p, pb, sizeof pb));
}

/* The excerpt's lines that name the hung program or are the kernel's ASP
 * lines, at most 5 of each. */
struct hang_log {
	FILE *f;
	const char *prog;
	int named, asp;
};

static void log_line(const struct logex_event *ev, void *ctx)
{
	struct hang_log *h = ctx;
	const char *msg = ev->message, *proc = ev->image;

	if (msg && strstr(msg, h->prog) && h->named < 5) {
		fprintf(h->f, "log: %s: %s\n", proc ? proc : "?", msg);
		h->named++;
	} else if (msg && strstr(msg, "ASP: Security policy would not") && h->asp < 5) {
		fprintf(h->f, "log: %s: %s\n", proc ? proc : "?", msg);
		h->asp++;
	}
}

/* The unified log's lines of the hung configuration's window that name the
 * hung program, and the kernel's ASP lines (entireio/cli#1065 quotes one
 * beginning "ASP: Security policy would not"): at most 5 of each. */
static void hang_log(const char *dir, const json_t *c, const struct advice_probe *p, FILE *f)
{
	const json_t *h = NULL, *cfg, *first;
	char *path, *prog;
	size_t i;
	int named, asp, lines;
	struct hang_log log = { NULL, NULL, 0, 0 };
	struct logex_counts n;

	json_array_foreach(json_object_get(c, "configs"), i, cfg)
		if (json_object_get(cfg, "hang") == p->hang)
			h = cfg;
	first = json_array_get(json_object_get(p->hang, "launches"), 0);
	if (!h || !first)
		return;
	path = xasprintf("%s/raw/%s-t%lld-%s.log.ndjson", dir, p->kase,
			 (long long)json_integer_value(json_object_get(h, "threads")),
			 json_string_value(json_object_get(h, "class")));
	prog = xasprintf("%s-t%lld-%s-%04lld", p->kase,
			 (long long)json_integer_value(json_object_get(h, "threads")),
			 json_string_value(json_object_get(h, "class")),
			 (long long)json_integer_value(json_object_get(first, "index")));
	log.f = f;
	log.prog = prog;
	if (logex_each(path, log_line, &log, &n) != 0) {
		fprintf(f, "log: no excerpt of the window (the unified log is read on macOS)\n");
		free(path);
		free(prog);
		return;
	}
	named = log.named;
	asp = log.asp;
	lines = (int)n.lines;
	if (!named)
		fprintf(f, "log: none of the window's %d lines names %s\n", lines, prog);
	if (!asp)
		fprintf(f, "log: no kernel line beginning \"ASP: Security policy would not\" (the "
			"beginning entireio/cli#1065 quotes; no whole line of a hang is published)\n");
	free(path);
	free(prog);
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *name = NULL;
	int doctor = 0, brief = 0;
	const struct opt opts[] = {
		OPT_VALUE("--run", &dir), OPT_VALUE("--case", &name),
		OPT_FLAG("--doctor", &doctor), OPT_FLAG("--brief", &brief), OPT_END
	};
	struct runjson rj;
	json_t *run, *cond, *c;
	struct advice_probe p;
	char *path, why[8];

	progname = "advise";
	opts_parse(argc, argv, opts, OPTS_NONE, usage);
	if (!dir)
		die(EXIT_USAGE, "--run DIR is required (try --help)");
	if (brief && (doctor || name))
		die(EXIT_USAGE, "--brief goes alone: it speaks of exe, else the run's first case (try --help)");
	path = xasprintf("%s/run.json", dir);
	runjson_read(&rj, path, RUNJSON_DIE | RUNJSON_NO_CASES_OK, why, sizeof why);
	free(path);
	run = rj.json;
	cond = rj.conditions;
	if (brief) {
		advice_brief(stdout, run, "");
		if (fflush(stdout) != 0 || ferror(stdout))
			die(EXIT_FAIL, "cannot write to stdout:");
		runjson_free(&rj);
		return EXIT_OK;
	}
	c = (json_t *)advice_probe_of_run(run, name, &p);
	if (name && !c)
		die(EXIT_USAGE, "%s/run.json has no case '%s'", dir, name);
	if (doctor)
		state_lines(cond, c, &p, stdout);
	if (doctor && p.verdict == ADVICE_HANG) {
		advice_hang(stdout, cond_get, cond, p.hang, "");
		hang_log(dir, c, &p, stdout);
	}
	advice_write(stdout, cond_get, cond, &p);
	if (doctor && p.verdict == ADVICE_HANG)
		advice_hang_fixes(stdout, cond_get, cond, "");
	if (doctor)
		advice_verdict_line(stdout, &p);
	if (fflush(stdout) != 0 || ferror(stdout))
		die(EXIT_FAIL, "cannot write to stdout:");
	runjson_free(&rj);
	return doctor ? advice_exit_status(p.verdict) : EXIT_OK;
}
