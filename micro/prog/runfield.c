/* runfield - fields of a finished run's run.json, for the kit's shell
 * scripts and make check's pattern tests, so that neither needs jq.
 *
 *   runfield --run RUN --check
 *   runfield --run RUN [--f2] [--or TEXT] PATH...
 *
 * RUN is a run folder or its run.json, checked as compare and fbtext check
 * it (runjson.c): what is not a run the kit reads is one line and exit 2.
 * A PATH is keys joined by '/' (a key may hold dots: conditions/gate.active);
 * in an array a segment is an index, '*' (every element), KEY=VALUE[,KEY=VALUE]
 * (the elements whose members print as those values) or a name (the element
 * whose "name" is it): cases/exe/penalty_ms/median,
 * cases/exe/configs/class=P,threads=1/verdict, and every case's name is
 * the segments cases, * and name joined by '/'.  A PATH sim:NAME is the
 * setting NAME of a simulated run's launcher (conditions/launcher,
 * "sim:latency=20 workers=1 ...", read by launcher_setting, the one
 * reader of those settings): scripts/runs and make check ask it.  Each value found is one
 * line: a string as it is, a number as JSON writes it (with --f2 with two
 * decimals, the kit's one number format, util.c num2, and null as n/a), an
 * object or array as compact JSON.  A PATH that finds nothing (or null)
 * prints TEXT with --or, else nothing. */
#define _POSIX_C_SOURCE 200809L
#include "runjson.h"
#include "launcherspec.h"
#include "opts.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fputs("usage: runfield --run RUN --check\n"
	      "       runfield --run RUN [--f2] [--or TEXT] PATH...\n"
	      "  --run RUN   a run folder or its run.json (checked as make compare checks it)\n"
	      "  --check     only check that RUN is a run this kit reads\n"
	      "  --f2        numbers with two decimals (num2), null as n/a\n"
	      "  --or TEXT   print TEXT for a PATH that finds nothing or null\n"
	      "A PATH is keys joined by '/'; in an array: an index, '*', KEY=VALUE[,KEY=VALUE]\n"
	      "or an element's name: cases/exe/penalty_ms/median, conditions/gate.active,\n"
	      "cases/*/name, cases/exe/configs/class=P,threads=1/verdict.  One line a value.\n"
	      "sim:NAME is the setting NAME of a simulated run's launcher: sim:latency.\n"
	      "Exit: 0 every PATH found a value, 1 one found none (without --or), 2 bad\n"
	      "usage or RUN is not a run.\n", f);
}

static int f2_mode;

/* A scalar as text: the shortest %g that reads back the same. */
static void put_number(double v)
{
	char buf[64];
	int prec;

	if (f2_mode) {
		fputs(num2(v, buf, sizeof buf), stdout);
		return;
	}
	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, stdout);
}

/* The value as one line; returns 0 for null (nothing printed). */
static int put_value(const json_t *v)
{
	char *text;

	if (!v || json_is_null(v))
		return 0;
	if (json_is_string(v))
		fputs(json_string_value(v), stdout);
	else if (json_is_integer(v) && !f2_mode)
		printf("%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_number(v))
		put_number(json_number_value(v));
	else if (json_is_boolean(v))
		fputs(json_is_true(v) ? "true" : "false", stdout);
	else {
		text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
		fputs(text ? text : "", stdout);
		free(text);
	}
	putchar('\n');
	return 1;
}

/* A scalar member as the text put_value prints, into buf; 0 when it is no
 * scalar. */
static int scalar_text(const json_t *v, char *buf, size_t len)
{
	if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, len, "%.17g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "true" : "false");
	else
		return 0;
	return 1;
}

/* Does element EL meet SEL ("key=value,key=value", len bytes)? */
static int matches(const json_t *el, const char *sel, size_t len)
{
	char cond[512], have[512], *save = NULL, *part, *eq;

	if (!json_is_object(el) || len >= sizeof cond)
		return 0;
	memcpy(cond, sel, len);
	cond[len] = '\0';
	for (part = strtok_r(cond, ",", &save); part; part = strtok_r(NULL, ",", &save)) {
		eq = strchr(part, '=');
		if (!eq)
			return 0;
		*eq = '\0';
		if (!scalar_text(json_object_get(el, part), have, sizeof have) ||
		    strcmp(have, eq + 1) != 0)
			return 0;
	}
	return 1;
}

static int is_index(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len > 9)
		return 0;
	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* Walk PATH (the rest of it) from V, printing every value at its end;
 * returns how many were printed. */
static int walk(const json_t *v, const char *path)
{
	const char *slash = strchr(path, '/');
	size_t len = slash ? (size_t)(slash - path) : strlen(path);
	const char *rest = slash ? slash + 1 : NULL;
	char key[512];
	const json_t *el;
	size_t i;
	int n = 0;

	if (!v)
		return 0;
	if (len == 0 && !rest)
		return put_value(v);
	if (len >= sizeof key)
		return 0;
	memcpy(key, path, len);
	key[len] = '\0';
	if (json_is_object(v)) {
		el = json_object_get(v, key);
		return rest ? walk(el, rest) : put_value(el);
	}
	if (!json_is_array(v))
		return 0;
	json_array_foreach(v, i, el) {
		int hit;

		if (strcmp(key, "*") == 0)
			hit = 1;
		else if (is_index(key, len))
			hit = i == strtoul(key, NULL, 10);
		else if (strchr(key, '='))
			hit = matches(el, key, len);
		else
			hit = json_is_object(el) && json_is_string(json_object_get(el, "name")) &&
			      strcmp(json_string_value(json_object_get(el, "name")), key) == 0;
		if (hit)
			n += rest ? walk(el, rest) : put_value(el);
	}
	return n;
}

/* sim:NAME: the setting of the run's simulated launcher, printed; 0 when
 * the run was not simulated or its launcher has no such setting. */
static int put_setting(const struct runjson *r, const char *name)
{
	char buf[512];
	const char *v = launcher_setting(runjson_condition(r, "launcher"), name, buf, sizeof buf);

	if (!v)
		return 0;
	puts(v);
	return 1;
}

struct args {
	const char *where, *or_text;
	int check, first_path;
};

static void parse(int argc, char **argv, struct args *o)
{
	const struct opt opts[] = {
		OPT_VALUE("--run", &o->where), OPT_VALUE("--or", &o->or_text),
		OPT_FLAG("--check", &o->check), OPT_FLAG("--f2", &f2_mode), OPT_END
	};

	o->first_path = opts_parse(argc, argv, opts, OPTS_AFTER, usage);
	if (!o->where)
		die(EXIT_USAGE, "--run RUN is required (try --help)");
	if (o->check && o->first_path < argc)
		die(EXIT_USAGE, "--check takes no PATH (try --help)");
	if (!o->check && o->first_path >= argc)
		die(EXIT_USAGE, "which field? give a PATH, e.g. cases/exe/verdict (try --help)");
}

/* Each PATH's values, a line each (sim:NAME, the simulated launcher's
 * setting); returns 1 when one found none and there
 * is nothing to print in its place. */
static int print_paths(const struct runjson *r, int argc, char **argv, const struct args *o)
{
	int i, missing = 0;

	for (i = o->first_path; i < argc; i++) {
		if (strncmp(argv[i], "sim:", 4) == 0 ? put_setting(r, argv[i] + 4)
						      : walk(r->json, argv[i]) > 0)
			continue;
		if (o->or_text)
			printf("%s\n", o->or_text);
		else if (f2_mode)
			puts("n/a");
		else
			missing = 1;
	}
	return missing;
}

int main(int argc, char **argv)
{
	struct args o = { NULL, NULL, 0, 0 };
	struct runjson r;
	int missing = 0;

	progname = "runfield";
	parse(argc, argv, &o);
	runjson_load(&r, "", o.where, NULL);
	if (!o.check)
		missing = print_paths(&r, argc, argv, &o);
	runjson_free(&r);
	if (fflush(stdout) != 0 || ferror(stdout))
		die(EXIT_FAIL, "cannot write to stdout:");
	return missing ? EXIT_FAIL : EXIT_OK;
}
