/* fbtext - the text of feedback.txt, from a run's run.json.
 *
 *   fbtext --run DIR [--bundle NAME] [--contents LIST] [--health FILE]
 *   fbtext --run DIR --services-table
 *
 * Prints, ready to paste into Feedback Assistant: title, area, type,
 * description, steps to reproduce, expected and actual results with the
 * run's own numbers, the known workaround, what to attach, and sources
 * (only public ones listed in the kit's evidence notes).  A Linux run or a
 * calibration-gate run is said to be what it is: not evidence of macOS
 * behaviour.  A simulated run (launcher sim:...) launched nothing: it is
 * refused, with one line and exit 2, and nothing is printed.
 * --services-table prints the cases' "services" fields (added by newer
 * kits) as "case<TAB>field<TAB>value" lines, or nothing.  The text is a
 * model read from the run (micro/report/feedback.h) and words over it.
 * scripts/feedback runs this and redacts the result. */
#define _POSIX_C_SOURCE 200809L
#include "feedback.h"
#include "opts.h"
#include "launcherspec.h"
#include "runjson.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fputs("usage: fbtext --run DIR [--bundle NAME] [--contents LIST] [--kit COMMIT]\n"
	      "              [--from WHERE] [--home URL] [--logs KEPT,TOTAL] [--health FILE]\n"
	      "       fbtext --run DIR --services-table\n"
	      "  --run DIR         a run folder (or its run.json)\n"
	      "  --bundle NAME     the archive feedback.txt tells to attach\n"
	      "  --contents LIST   comma-separated files in that archive\n"
	      "  --kit COMMIT      the kit's commit (git), said beside its version;\n"
	      "                    without it the kit is \"a copy of execlag VERSION\"\n"
	      "  --from WHERE      where that commit comes from: a git remote's URL\n"
	      "                    (no credentials) or \"a local clone\"\n"
	      "  --home URL        the kit's home page, where its README names one\n"
	      "  --logs KEPT,TOTAL bytes of log excerpts the archive keeps, of the run's\n"
	      "  --health FILE     the run's health record (health.tsv): its assessment's\n"
	      "                    line and the log lines it quoted go in the text\n"
	      "  --services-table  print cases[].services as case<TAB>field<TAB>value\n"
	      "Prints the text of feedback.txt (scripts/feedback redacts it).\n"
	      "Exit: 0 done, 2 bad usage, a run that cannot be read, or a simulated run\n"
	      "(it launched nothing and is never sent to Apple).\n", f);
}

struct args {
	const char *dir, *health;
	int table;
	struct feedback_kit kit;
};

/* An empty value is none given. */
static const char *given(const char *v)
{
	return v && *v ? v : NULL;
}

static void parse(int argc, char **argv, struct args *o)
{
	const char *logs = NULL;
	const struct opt opts[] = {
		OPT_VALUE("--run", &o->dir), OPT_VALUE("--bundle", &o->kit.bundle),
		OPT_VALUE("--contents", &o->kit.contents), OPT_VALUE("--kit", &o->kit.commit),
		OPT_VALUE("--home", &o->kit.home), OPT_VALUE("--from", &o->kit.from),
		OPT_VALUE("--logs", &logs), OPT_VALUE("--health", &o->health),
		OPT_FLAG("--services-table", &o->table), OPT_END
	};

	opts_parse(argc, argv, opts, OPTS_NONE, usage);
	o->kit.commit = given(o->kit.commit);
	o->kit.home = given(o->kit.home);
	o->kit.from = given(o->kit.from);
	if (logs && (!strchr(logs, ',') ||
		     sscanf(logs, "%ld,%ld", &o->kit.logs_kept, &o->kit.logs_total) != 2 ||
		     o->kit.logs_kept < 0 || o->kit.logs_total < 0))
		die(EXIT_USAGE, "--logs needs KEPT,TOTAL in bytes, not '%s' (try --help)", logs);
	if (!o->dir)
		die(EXIT_USAGE, "--run DIR is required (try --help)");
}

/* The run in DIR; a simulated one is refused: it is never sent to Apple. */
static void load(struct runjson *r, const char *dir)
{
	runjson_load(r, "", dir, NULL);
	if (launcher_is_sim(runjson_condition(r, "launcher")))
		die(EXIT_USAGE, "%s is a simulated run (launcher %s): it launched nothing and "
		    "is not evidence; it is never sent to Apple", dir,
		    runjson_condition(r, "launcher"));
}

int main(int argc, char **argv)
{
	struct args o = { NULL, NULL, 0, { NULL, NULL, NULL, NULL, NULL, -1, -1, NULL } };
	struct health_record health;
	struct runjson r;
	struct feedback fb;

	progname = "fbtext";
	parse(argc, argv, &o);
	load(&r, o.dir);
	if (o.health) {
		int rc = healthfile_read(o.health, &health);

		if (rc != 0)
			die(EXIT_USAGE, rc == -1 ? "cannot read the health record %s" :
				"%s is not a health record", o.health);
		o.kit.health = &health;
	}
	feedback_of_run(&fb, &r, &o.kit);
	if (o.table)
		feedback_services_table(stdout, &fb);
	else
		feedback_text(stdout, &fb);
	if (fflush(stdout) != 0 || ferror(stdout))
		die(EXIT_FAIL, "cannot write to stdout:");
	feedback_free(&fb);
	if (o.kit.health)
		healthfile_free(&health);
	runjson_free(&r);
	return EXIT_OK;
}
