/* gateset_linux.c - the calibration gate's settings (gateset.h). */
#define _GNU_SOURCE
#include "gateset.h"
#include "opts.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

struct gate_settings gs = {
	.latency_ms = -1, .workers = -1, .key = -1, .exempt_pid = -1,
};

static const char *const key_names[] = { "inode", "path", "content", "inode-mtime", NULL };
static const char *const on_names[] = { "exec", "open", NULL };

/* What a setting's value is: a number of ms (a double in min..max), a
 * whole number in min..max, or one of words (its index). */
enum value_type { V_MS, V_WHOLE, V_WORD };

struct setting {
	const char *opt;
	enum value_type type;
	void *to;                       /* double * (V_MS), else long * */
	long min, max;
	const char *const *words;       /* V_WORD's, NULL-ended */
	int required;
	const char *must;               /* a bad value is told "OPT must be MUST: VALUE" */
};

/* The settings with a value, in the order their values are checked: its
 * option, its value's type, where it goes, its range, its words, whether
 * it is required, and what a bad value is told (then ": VALUE"). */
static const struct setting settings[] = {
	{ "--latency-ms", V_MS, &gs.latency_ms, 0, 60000, NULL, 1, "a number of ms in 0..60000 (e.g. 20 or 0.5)" },
	{ "--every-ms", V_MS, &gs.every_ms, 0, 60000, NULL, 0, "a number of ms in 0..60000 (e.g. 3 or 0.5)" },
	{ "--per-mb-ms", V_MS, &gs.per_mb_ms, 0, 60000, NULL, 0, "a number of ms in 0..60000 (e.g. 2 or 0.5)" },
	{ "--workers", V_WHOLE, &gs.workers, 1, 64, NULL, 1, "an integer in 1..64" },
	{ "--key", V_WORD, &gs.key, 0, 0, key_names, 1, "inode, path, content or inode-mtime" },
	{ "--on", V_WORD, &gs.on_open, 0, 0, on_names, 0, "exec or open" },
	{ "--exempt-pid", V_WHOLE, &gs.exempt_pid, 1, INT_MAX, NULL, 0, "a process id" },
	{ "--wedge", V_WHOLE, &gs.wedge, 0, 1000000, NULL, 0, "a whole number in 0..1000000" },
	{ "--exhausted", V_WHOLE, &gs.exhausted, 0, 1, NULL, 0, "0 or 1" },
	{ "--kill", V_MS, &gs.kill, 0, 1, NULL, 0, "a share in 0..1 (e.g. 0.25)" },
};
#define N_SETTINGS (sizeof settings / sizeof settings[0])

/* The value v of setting s into its place; a bad one ends here. */
static void check_value(const struct setting *s, const char *v)
{
	long i;

	switch (s->type) {
	case V_MS:
		if (parse_double(v, (double)s->min, (double)s->max, s->to) == 0)
			return;
		break;
	case V_WHOLE:
		if (parse_long(v, s->min, s->max, s->to) == 0)
			return;
		break;
	case V_WORD:
		for (i = 0; s->words[i]; i++)
			if (strcmp(v, s->words[i]) == 0) {
				*(long *)s->to = i;
				return;
			}
		break;
	}
	die(EXIT_USAGE, "%s must be %s: %s", s->opt, s->must, v);
}

/* Whether setting s was given (or has its value by default). */
static int is_set(const struct setting *s)
{
	return s->type == V_MS ? *(double *)s->to >= 0 : *(long *)s->to >= 0;
}

/* What every run needs was given, and each --dir is a directory: the roots. */
static void check_required(void)
{
	const char *bad;
	size_t i;

	if (gs.n_dirs == 0)
		die(EXIT_USAGE, "--dir is required (see --help)");
	for (i = 0; i < N_SETTINGS; i++)
		if (settings[i].required && !is_set(&settings[i]))
			die(EXIT_USAGE, "%s is required (see --help)", settings[i].opt);
	if (tree_set_roots(gs.dirs, gs.n_dirs, &bad) != 0) {
		if (errno == ENOTDIR)
			die(EXIT_USAGE, "--dir %s: not a directory", bad);
		die(EXIT_USAGE, "--dir %s:", bad);
	}
}

void gateset_parse(int argc, char **argv, void (*usage)(FILE *))
{
	const char *given[N_SETTINGS] = { NULL };
	struct opt opts[N_SETTINGS + 5];
	size_t i, n = 0;

	opts[n++] = (struct opt)OPT_LIST("--dir", gs.dirs, &gs.n_dirs, TREE_MAX_ROOTS);
	opts[n++] = (struct opt)OPT_VALUE("--log", &gs.log);
	opts[n++] = (struct opt)OPT_VALUE("--ready-file", &gs.ready);
	opts[n++] = (struct opt)OPT_VALUE("--heartbeat", &gs.heartbeat);
	for (i = 0; i < N_SETTINGS; i++)
		opts[n++] = (struct opt)OPT_VALUE(settings[i].opt, &given[i]);
	opts[n] = (struct opt)OPT_END;
	i = (size_t)opts_parse(argc, argv, opts, OPTS_AFTER, usage);
	if (i < (size_t)argc)
		die(EXIT_USAGE, "unexpected argument %s (see --help)", argv[i]);
	for (i = 0; i < N_SETTINGS; i++)
		if (given[i])
			check_value(&settings[i], given[i]);
	check_required();
}

const char *gateset_key_name(void)
{
	return key_names[gs.key];
}

void gateset_start_line(json_t *o)
{
	json_object_set_new(o, "latency_ms", json_real(gs.latency_ms));
	json_object_set_new(o, "workers", json_integer(gs.workers));
	json_object_set_new(o, "key", json_string(key_names[gs.key]));
	json_object_set_new(o, "on", json_string(on_names[gs.on_open]));
	json_object_set_new(o, "every_ms", json_real(gs.every_ms));
	json_object_set_new(o, "per_mb_ms", json_real(gs.per_mb_ms));
	if (gs.wedge > 0)
		json_object_set_new(o, "wedge", json_integer(gs.wedge));
	if (gs.exhausted)
		json_object_set_new(o, "exhausted", json_integer(gs.exhausted));
	if (gs.kill > 0)
		json_object_set_new(o, "kill", json_real(gs.kill));
	json_object_set_new(o, "dir", json_string(tree_first_root()));
	tree_log_start(o);
	json_object_set_new(o, "exempt_pid",
	                    gs.exempt_pid > 0 ? json_integer(gs.exempt_pid) : json_null());
}
