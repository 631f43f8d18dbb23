/* mkfresh.c - make N fresh artifacts of one kind in a work folder and write
 * a manifest (docs/formats.md) that micro/launch runs from.
 *
 * Its steps: read the command line, plan the run (mkrun.h: the kind, the
 * counts, the names and the work folder, each checked), make each artifact
 * by its kind's maker (micro/make/makers.h: new files, or placements from a
 * launched program), put what was made on disk, write the manifest.
 *
 * Every artifact is a file directly in WORKDIR named PREFIX-NNNN (+ ".sh",
 * ".so"/".dylib").  Artifacts that carry a nonce differ in their bytes.  A
 * file that has been launched is never opened for writing again: a new file
 * is written and renamed over it (docs/macos.md §7).  Nothing opens, reads
 * or stats an artifact between its last write and its first timed launch
 * (micro/make/newfile.h, docs/method.md).
 *
 * On any failure or on SIGINT/SIGTERM every file made so far is removed and
 * no manifest is written.  Exit: 0 ok, 1 failure, 2 usage, 4 a program it
 * launches while making (a base, a host) did not end within EXECLAG_HANG_S
 * seconds (30): killed, a hang, 5 the kind cannot be made on this machine
 * (n/a: exe-clone without clones), 130 interrupted.
 *
 * --simulated (a run that launches nothing) and --template (make doctor's
 * probe): the compiled artifacts from one template each, not one compiler
 * an artifact (micro/make/units.h).
 */
#if defined(__APPLE__)
#define _DARWIN_C_SOURCE
#endif
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700 /* realpath (POSIX.1-2008, XSI) */
#include "compile.h"
#include "fsflush.h"
#include "kinds.h"
#include "made.h"
#include "makers.h"
#include "mkmanifest.h"
#include "mkrun.h"
#include "opts.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_COUNT 100000L
#define MAX_JOBS 1024L
#define MAX_PAD (64L * 1024 * 1024) /* --size: at most 64 MiB of padding */

/* ---- --help ---- */

/* kinds_with: the names of the kinds that compile something (compiled 1)
 * or take a payload (0), in the table's order, joined by SEP ("a, b and c"
 * where SEP is NULL); a static buffer. */
static const char *kinds_with(int compiled, const char *sep)
{
	static char buf[1024];
	size_t len = 0;
	int k, n = 0, of = 0;

	for (k = 0; k < N_KINDS; k++)
		of += compiled ? kind_table[k].compiled : kind_table[k].payload;
	buf[0] = '\0';
	for (k = 0; k < N_KINDS && len < sizeof buf; k++) {
		if (!(compiled ? kind_table[k].compiled : kind_table[k].payload))
			continue;
		n++;
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s",
					n == 1 ? "" : sep ? sep : n == of ? " and " : ", ",
					kind_table[k].name);
	}
	return buf;
}

/* kind_list: "kinds: a, b, ..." at most 78 columns a line, each kind made
 * on some platforms only followed by "(macOS only)" (its platforms). */
static void kind_list(FILE *f)
{
	static const char *const words[][2] = {
		{ "darwin", "macOS" }, { "linux", "Linux" }, { "other", "other" },
	};
	size_t col = 0;
	int k;

	for (k = 0; k < N_KINDS; k++) {
		char item[256], where[128] = "";
		const char *p = kind_table[k].platforms;
		size_t i;

		if (strcmp(p, "any") != 0) {
			for (i = 0; i < sizeof words / sizeof words[0]; i++)
				if (kind_platforms_have(p, words[i][0]))
					snprintf(where + strlen(where), sizeof where - strlen(where),
						 "%s%s", *where ? ", " : "", words[i][1]);
			snprintf(where + strlen(where), sizeof where - strlen(where), " only");
		}
		snprintf(item, sizeof item, "%s%s%s%s%s", kind_table[k].name, *where ? " (" : "",
			 where, *where ? ")" : "", k + 1 < N_KINDS ? "," : "");
		if (k == 0)
			col = (size_t)fprintf(f, "kinds: %s", item);
		else if (col + 1 + strlen(item) > 78)
			col = (size_t)fprintf(f, "\n       %s", item) - 1;
		else
			col += (size_t)fprintf(f, " %s", item);
	}
	fputc('\n', f);
}

static void usage(FILE *f)
{
	fputs(
"usage: mkfresh --kind KIND --count N --dir WORKDIR --prefix NAME --manifest FILE\n"
"               [--case NAME] [--payload ok|kill|fail] [--cc CC] [--jobs J]\n"
"               [--size BYTES] [--first I] [--simulated] [--template]\n"
"       mkfresh --help\n"
"\n"
"Make N fresh artifacts of KIND directly in WORKDIR (which must exist), named\n"
"NAME-0000 ... (scripts end in .sh, libraries in " LIB_EXT "), and write the\n"
"manifest FILE atomically (format: docs/formats.md).\n"
"\n", f);
	kind_list(f);
	fputs(
"  --count N     1..100000\n"
"  --case NAME   the case name in the manifest (default: KIND)\n"
"  --payload P   ok (exit 0), kill (die by SIGKILL), fail (exit 3);\n", f);
	fprintf(f, "                kill and fail only for %s\n", kinds_with(0, ", "));
	fputs(
"  --cc CC       C compiler (default: $CC, else cc); may hold arguments\n"
"  --jobs J      compilers run at once (default: online CPUs)\n"
"  --size BYTES  pad each compiled program (exe kinds, the dylib's library)\n"
"                with BYTES of its own random bytes in a read-only data\n"
"                section: digits, k (KiB) or m (MiB) after; at most 64m\n"
"  --first I     make artifacts I .. I+N-1 of a run that made 0 .. I-1 into\n"
"                the same WORKDIR with the same PREFIX (their base or host\n"
"                is used again, not made); the manifest lists all I+N\n"
"  --simulated   for a simulated run, which launches nothing: a compiled\n"
"                kind is compiled once, as a template, and each artifact is\n"
"                its bytes with the artifact's own nonce (and padding) in\n"
"                them; nothing is launched while making.  With\n"
"                EXECLAG_TEMPLATES (a folder) the templates are kept there\n"
"                for the next mkfresh of the same shape\n"
"  --template    the same for a real run's artifacts (make doctor's probe on\n"
"                Linux): each a new file with its own nonce, padding and\n"
"                build ID; a base or host is compiled and launched as\n"
"                without it.  On macOS, where the linker signs what it\n"
"                builds, each is compiled\n"
"\n"
"exit: 0 ok, 1 failure, 2 usage, 5 not applicable here (\"n/a: WHY\": exe-clone\n"
"where the file system has no clones), 130 interrupted.  On failure, n/a or\n"
"interrupt every file made is removed and no manifest is written.\n", f);
}

/* ---- the command line ---- */

/* The command line, as given. */
struct mk_opts {
	const char *kind, *count, *dir, *prefix, *manifest, *case_name, *payload;
	const char *cc, *jobs, *size, *first;
	int simulated, from_template;
};

static void parse_args(int argc, char **argv, struct mk_opts *o)
{
	const struct opt opts[] = {
		/* what to make, and where */
		OPT_VALUE("--kind", &o->kind), OPT_VALUE("--count", &o->count),
		OPT_VALUE("--first", &o->first), OPT_VALUE("--case", &o->case_name),
		OPT_VALUE("--dir", &o->dir), OPT_VALUE("--prefix", &o->prefix),
		OPT_VALUE("--manifest", &o->manifest),
		/* how */
		OPT_VALUE("--payload", &o->payload), OPT_VALUE("--size", &o->size),
		OPT_VALUE("--cc", &o->cc), OPT_VALUE("--jobs", &o->jobs),
		OPT_FLAG("--simulated", &o->simulated), OPT_FLAG("--template", &o->from_template),
		OPT_END
	};

	memset(o, 0, sizeof *o);
	opts_parse(argc, argv, opts, OPTS_NONE, usage);
	if (!o->kind)
		die(EXIT_USAGE, "missing --kind (see --help)");
	if (!o->count)
		die(EXIT_USAGE, "missing --count (see --help)");
	if (!o->dir)
		die(EXIT_USAGE, "missing --dir (see --help)");
	if (!o->prefix)
		die(EXIT_USAGE, "missing --prefix (see --help)");
	if (!o->manifest)
		die(EXIT_USAGE, "missing --manifest (see --help)");
}

/* ---- the plan: the run's settings, each checked ---- */

/* --kind: made here. */
static void plan_kind(const char *name)
{
	if (kind_find(name) < 0)
		die(EXIT_USAGE, "unknown kind '%s' (see --help)", name);
	mk.kind = (enum kind)kind_find(name);
	if (!kind_made_here(mk.kind)) {
		if (strcmp(kind_table[mk.kind].platforms, "darwin") == 0)
			die(EXIT_USAGE, "%s is a macOS-only case", kind_table[mk.kind].name);
		die(EXIT_USAGE, "%s is a case of %s only", kind_table[mk.kind].name,
		    kind_table[mk.kind].platforms);
	}
}

/* --count, --first and --jobs (default: the online CPUs); the count. */
static long plan_numbers(const struct mk_opts *o)
{
	long count;

	if (parse_long(o->count, 1, MAX_COUNT, &count) != 0)
		die(EXIT_USAGE, "--count: '%s' is not a whole number in 1..%ld",
		    o->count, MAX_COUNT);
	if (o->first && parse_long(o->first, 0, MAX_COUNT - count, &mk.first) != 0)
		die(EXIT_USAGE, "--first: '%s' is not a whole number in 0..%ld "
		    "(with --count %ld)", o->first, MAX_COUNT - count, count);
	if (o->jobs) {
		if (parse_long(o->jobs, 1, MAX_JOBS, &mk.njob) != 0)
			die(EXIT_USAGE, "--jobs: '%s' is not a whole number in 1..%ld",
			    o->jobs, MAX_JOBS);
		return count;
	}
#if defined(_SC_NPROCESSORS_ONLN)
	mk.njob = sysconf(_SC_NPROCESSORS_ONLN);
#else
	mk.njob = 1;
#endif
	if (mk.njob < 1)
		mk.njob = 1;
	if (mk.njob > MAX_JOBS)
		mk.njob = MAX_JOBS;
	return count;
}

/* BYTES, BYTESk (KiB) or BYTESm (MiB), 0..MAX_PAD; -1 when not that. */
static long parse_size(const char *s)
{
	char digits[16];
	size_t len = strlen(s);
	long v, unit = 1;

	if (len > 0 && (s[len - 1] == 'k' || s[len - 1] == 'K'))
		unit = 1024, len--;
	else if (len > 0 && (s[len - 1] == 'm' || s[len - 1] == 'M'))
		unit = 1024L * 1024, len--;
	if (len == 0 || len >= sizeof digits)
		return -1;
	memcpy(digits, s, len);
	digits[len] = '\0';
	if (parse_long(digits, 0, MAX_PAD / unit, &v) != 0)
		return -1;
	return v * unit;
}

/* --payload and --size: for the kinds whose row takes them. */
static void plan_payload_size(const struct mk_opts *o)
{
	if (o->payload) {
		if (!strcmp(o->payload, "ok"))
			mk.payload = P_OK;
		else if (!strcmp(o->payload, "kill"))
			mk.payload = P_KILL;
		else if (!strcmp(o->payload, "fail"))
			mk.payload = P_FAIL;
		else
			die(EXIT_USAGE, "--payload: '%s' is not ok, kill or fail",
			    o->payload);
		if (mk.payload != P_OK && !kind_table[mk.kind].payload)
			die(EXIT_USAGE, "--payload %s is only for %s", o->payload,
			    kinds_with(0, NULL));
	}
	if (o->size) {
		mk.pad_bytes = parse_size(o->size);
		if (mk.pad_bytes < 0)
			die(EXIT_USAGE, "--size: '%s' is not a size from 0 to 64m "
			    "(digits, then k or m)", o->size);
		if (mk.pad_bytes > 0 && !kind_table[mk.kind].compiled)
			die(EXIT_USAGE, "--size is only for the compiled kinds (%s)",
			    kinds_with(1, ", "));
	}
}

static int has_tab_nl(const char *s)
{
	return strpbrk(s, "\t\n\r") != NULL;
}

/* --prefix, --case, --dir and --manifest: names and the work folder
 * (mk.workdir, its real path); returns the case's name. */
static const char *plan_names(const struct mk_opts *o)
{
	const char *case_name = o->case_name ? o->case_name : kind_table[mk.kind].name;
	struct stat st;

	mk.prefix = o->prefix;
	if (!*mk.prefix || strspn(mk.prefix, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "abcdefghijklmnopqrstuvwxyz0123456789._-") !=
	    strlen(mk.prefix) || strlen(mk.prefix) > 200)
		die(EXIT_USAGE, "--prefix: '%s' must be 1-200 of A-Z a-z 0-9 . _ -",
		    mk.prefix);
	if (!*case_name || has_tab_nl(case_name))
		die(EXIT_USAGE, "--case: empty or contains a tab or newline");
	if (has_tab_nl(o->dir) || has_tab_nl(o->manifest))
		die(EXIT_USAGE, "paths must not contain a tab or newline");
	if (stat(o->dir, &st) != 0)
		die(EXIT_USAGE, "WORKDIR %s:", o->dir);
	if (!S_ISDIR(st.st_mode))
		die(EXIT_USAGE, "WORKDIR %s: not a directory", o->dir);
	if (access(o->dir, W_OK | X_OK) != 0)
		die(EXIT_USAGE, "WORKDIR %s: not writable:", o->dir);
	mk.workdir = realpath(o->dir, NULL);
	if (!mk.workdir)
		die(EXIT_USAGE, "WORKDIR %s:", o->dir);
	if (has_tab_nl(mk.workdir))
		die(EXIT_USAGE, "paths must not contain a tab or newline");
	return case_name;
}

/* The run (mk) from the command line, each value checked, and the
 * compiler where the kind compiles; *count artifacts, named case_name. */
static const char *plan(const struct mk_opts *o, long *count)
{
	const char *case_name;

	plan_kind(o->kind);
	*count = plan_numbers(o);
	plan_payload_size(o);
	case_name = plan_names(o);
	mk.simulated = o->simulated;
	mk.from_template = o->from_template;
	if (kind_table[mk.kind].compiled)
		compile_setup(o->cc);
	return case_name;
}

/* ---- the end ---- */

static int finished; /* manifest committed: keep everything */

/* At exit, unless the manifest was written: stop the compilers, remove what
 * was made and the manifest's temporary file. */
static void cleanup(void)
{
	if (finished)
		return;
	compile_stop();
	made_undo();
	mkmanifest_abort();
}

/* Write what was made to disk, so the first launch does not race the
 * kernel's writeback of its pages (a cost of having just written the
 * file, not of its being new) - through the file system, never by
 * opening an artifact (fsflush.h). */
static void flush_workdir(void)
{
	if (fsflush_dir(mk.workdir) != 0) {
		die_if_full(EXIT_FAIL, mk.workdir);
		die(EXIT_FAIL, "cannot write %s to disk:", mk.workdir);
	}
}

int main(int argc, char **argv)
{
	struct mk_opts o;
	const struct maker *m;
	const char *case_name;
	long count;

	progname = "mkfresh";
	parse_args(argc, argv, &o);
	case_name = plan(&o, &count);
	m = maker_of(mk.kind);

	made_catch_signals();
	if (atexit(cleanup) != 0)
		die(EXIT_FAIL, "atexit failed");
	mkmanifest_open(o.manifest);

	m->make(m->place, count);
	stop_if_interrupted();
	flush_workdir();
	mkmanifest_write(case_name, m, mk.first + count);
	finished = 1;
	return EXIT_OK;
}
