/* advise - the plain lines for a finished run (advice.h): what a new
 * program costs here, the cause and the one thing to do; with --brief, the
 * four lines make repro ends with (report.md begins with them too); with
 * --doctor, make doctor's whole answer and its exit status.  With --health,
 * the checker's state from a health record as conditions lines, for make
 * repro and make measure (checkercond.h).
 *
 *   advise --run DIR [--case NAME] [--doctor | --brief]
 *   advise --health FILE
 *
 * Reads DIR/run.json (docs/run.schema.json), and for a hang with --doctor
 * the log excerpt of the hung configuration (raw/NAME.log.ndjson).  The
 * advice is a model (advice_model.h) read from those, and words over it. */
#define _POSIX_C_SOURCE 200809L
#include "advice.h"
#include "checkercond.h"
#include "opts.h"
#include "runjson.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>

static void usage(FILE *f)
{
	fputs("usage: advise --run DIR [--case NAME] [--doctor | --brief]\n"
	      "       advise --health FILE\n"
	      "Print the plain lines for the finished run in DIR (its run.json): the cause of\n"
	      "what a new program costs there and the one thing to do, for the case NAME\n"
	      "(default: exe, else the run's first case).\n"
	      "  --doctor  make doctor's answer: the machine's state first, then those lines,\n"
	      "            last the verdict with the penalty and its interval in ms\n"
	      "  --brief   at most four lines (cost, queue, cause, do), of exe, else the\n"
	      "            first case: what make repro ends with and report.md begins with\n"
	      "  --health FILE  the checker's state, why and its figures from the health\n"
	      "            record FILE (scripts/probe/health's, docs/formats.md), as the\n"
	      "            checker.* lines of conditions.txt\n"
	      "Exit: 0 done; with --doctor 0 none, 1 penalty, 3 unclear, 4 hang (or the\n"
	      "checker hung), 5 the checker exhausted, 6 the checker storming; 2 bad usage,\n"
	      "or a run.json or health record that cannot be read.\n", f);
}

struct args {
	const char *dir, *name, *health;
	int doctor, brief;
};

static void parse(int argc, char **argv, struct args *o)
{
	const struct opt opts[] = {
		OPT_VALUE("--run", &o->dir), OPT_VALUE("--case", &o->name), OPT_VALUE("--health", &o->health),
		OPT_FLAG("--doctor", &o->doctor), OPT_FLAG("--brief", &o->brief), OPT_END
	};

	opts_parse(argc, argv, opts, OPTS_NONE, usage);
	if (o->health && (o->dir || o->name || o->doctor || o->brief))
		die(EXIT_USAGE, "--health goes alone (try --help)");
	if (o->health)
		return;
	if (!o->dir)
		die(EXIT_USAGE, "--run DIR is required (try --help)");
	if (o->brief && (o->doctor || o->name))
		die(EXIT_USAGE, "--brief goes alone: it speaks of exe, else the run's first case (try --help)");
}

/* DIR/run.json, or one line and exit 2. */
static void read_run(struct runjson *rj, const char *dir)
{
	char *path = xasprintf("%s/run.json", dir), why[8];

	runjson_read(rj, path, RUNJSON_DIE | RUNJSON_NO_CASES_OK, why, sizeof why);
	free(path);
}

/* --health FILE: the state and its figures as conditions lines. */
static int health_conditions(const char *path)
{
	struct health_record h;
	struct checker_verdict v;
	int rc = healthfile_read(path, &h);

	if (rc == -1)
		die(EXIT_USAGE, "cannot read the health record %s:", path);
	if (rc != 0)
		die(EXIT_USAGE, "%s is not a health record (its first line is not 'execlag-health<TAB>1')", path);
	checker_decide(&h, &v);
	checker_conditions(stdout, &h, &v);
	if (fflush(stdout) != 0 || ferror(stdout))
		die(EXIT_FAIL, "cannot write to stdout:");
	healthfile_free(&h);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	struct args o = { NULL, NULL, NULL, 0, 0 };
	struct runjson rj;
	struct advice a;
	int status = EXIT_OK;

	progname = "advise";
	parse(argc, argv, &o);
	if (o.health)
		return health_conditions(o.health);
	read_run(&rj, o.dir);
	if (!advice_of_run(&a, rj.json, o.name) && o.name)
		die(EXIT_USAGE, "%s/run.json has no case '%s'", o.dir, o.name);
	if (o.brief) {
		advice_brief_lines(stdout, &a, "");
	} else if (o.doctor) {
		advice_read_log(&a, o.dir);
		advice_doctor(stdout, &a);
		status = advice_doctor_status(&a);
	} else {
		advice_cause_lines(stdout, &a);
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		die(EXIT_FAIL, "cannot write to stdout:");
	advice_free(&a);
	runjson_free(&rj);
	return status;
}
