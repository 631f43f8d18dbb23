/* mkfresh.c - make N fresh artifacts of one kind in a work folder and write
 * a manifest (docs/formats.md) that micro/launch runs from.
 *
 * Every artifact is a file directly in WORKDIR named PREFIX-NNNN (+ ".sh",
 * ".so"/".dylib").  Artifacts that carry a nonce differ in their bytes.  A
 * file that has been launched is never opened for writing again: a new file
 * is written and renamed over it (docs/macos.md §7).
 *
 * On any failure or on SIGINT/SIGTERM every file made so far is removed and
 * no manifest is written.  Exit: 0 ok, 1 failure, 2 usage, 4 a program it
 * launches while making (a base, a host) did not end within EXECLAG_HANG_S
 * seconds (30): killed, a hang, 130 interrupted.
 *
 * --simulated: the artifacts are for a simulated run (launch --launcher
 * sim:...), which launches none of them, so none waits for a compiler of
 * its own: each compiled kind's program (or library) is compiled once, as a
 * template whose nonce is a placeholder, and every artifact is the
 * template's bytes with its own nonce written over the placeholder (and its
 * own padding over the template's): about the same size, unique bytes, no
 * compiler per artifact; with EXECLAG_TEMPLATES (a folder) the templates
 * are kept there for the next mkfresh of the same shape.  Not on macOS, where the linker signs what it
 * builds and a program whose bytes changed after is killed at its launch
 * (docs/macos.md §7): there each is compiled.  Nothing is launched
 * while making (no base, host or rewrite launch).  A real run's artifacts
 * are made as without it.
 *
 * --template: a real run's compiled artifacts (exe, the dylib's libraries)
 * made from a template as --simulated makes them, so that make doctor's
 * probe spends its seconds launching, not compiling (docs/method.md, "make
 * doctor's probe").  Each artifact is a new file with bytes of its own
 * (nonce, padding, GNU build ID), written and renamed into place as a
 * compiler's output is; the template is kept in EXECLAG_TEMPLATES, so a
 * configuration's later looks (--first) compile none.  A base or a host is
 * still compiled and launched as without it.  Not on macOS (as above):
 * there each is compiled, as without it.
 */
#if defined(__APPLE__)
#define _DARWIN_C_SOURCE
#endif
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700 /* realpath (POSIX.1-2008, XSI) */
#include "fsflush.h"
#include "kinds.h"
#include "quarantine.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__APPLE__)
#define LIB_EXT ".dylib"
#else
#define LIB_EXT ".so"
#endif

#define MAX_COUNT 100000L
#define MAX_JOBS 1024L
#define MAX_PAD (64L * 1024 * 1024) /* --size: at most 64 MiB of padding */

extern char **environ;

/* The kinds are the table's (kinds.h, from cases/kinds): a kind's row says
 * whether it compiles something (compiled) and accepts --payload kill|fail
 * (payload); make_kind says how it is made. */

enum payload { P_OK, P_KILL, P_FAIL };

/* What a compiler job builds. */
enum unit { U_EXE, U_LIB, U_HOST };

struct cjob {
	pid_t pid;      /* 0 = slot free (or already reaped) */
	char *src, *out, *final, *err;
	char *pad;      /* the padding's bytes (--size), or NULL */
};

/* ---- run-wide state (the atexit cleanup reads it) ---- */

static enum kind kind;
static enum payload payload = P_OK;
static const char *prefix;
static char *workdir;           /* realpath of --dir */
static char **cc_argv;          /* $CC split at blanks */
static int cc_argc;
static int quarantine;          /* set the quarantine xattr on exes */
static long pad_bytes;          /* --size: random bytes in each program */
static long first;              /* --first: the index of the first artifact made */
static int simulated;           /* --simulated: for a run that launches nothing */
static int from_template;       /* --template: a real run's artifacts from a template */
static const char *forced_nonce; /* the template's placeholder, while it compiles */

static volatile sig_atomic_t got_signal;

static char **made;             /* every path this run may have created */
static size_t nmade, capmade;
static struct cjob *jobs;       /* running compilers */
static int njobs;
static struct atomic_file manifest;
static int manifest_open;
static const char *manifest_path; /* --manifest, for messages */
static int finished;            /* manifest committed: keep everything */

static unsigned long nonce_counter;

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
"exit: 0 ok, 1 failure, 2 usage, 130 interrupted.  On failure or interrupt\n"
"every file made is removed and no manifest is written.\n", f);
}

/* ---- tracking what was made, and undoing it ---- */

/* Record path before the call that may create it; untrack_last() if that
 * call fails, so a file that was not ours is never removed. */
static void track(const char *path)
{
	if (nmade == capmade) {
		capmade = capmade ? capmade * 2 : 64;
		made = xrealloc(made, capmade * sizeof *made);
	}
	made[nmade++] = xstrdup(path);
}

static void untrack_last(void)
{
	if (nmade > 0)
		free(made[--nmade]);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Reap every finished compiler without blocking; returns how many run. */
static int reap_jobs(void)
{
	int i, st, left = 0;
	pid_t r;

	for (i = 0; i < njobs; i++) {
		if (jobs[i].pid <= 0)
			continue;
		r = waitpid(jobs[i].pid, &st, WNOHANG);
		if (r == jobs[i].pid || (r < 0 && errno != EINTR))
			jobs[i].pid = 0;        /* reaped, or not ours */
		else
			left++;
	}
	return left;
}

static void signal_jobs(int sig)
{
	int i;

	for (i = 0; i < njobs; i++)
		if (jobs[i].pid > 0) {
			kill(-jobs[i].pid, sig);    /* its process group */
			kill(jobs[i].pid, sig);
		}
}

/* Stop the running compilers before their files are removed.  A compiler
 * of these tiny sources ends within a blink, and a compiler driver that
 * ends by itself has waited for its own children (cc1, as, ld), so once it
 * is reaped nothing of it can still write into WORKDIR; letting it finish is
 * the portable way to know that (5 s, 1 s once interrupted).  One that hangs is ended: SIGTERM to its
 * process group (each compiler leads its own), then SIGKILL. */
static void stop_jobs(void)
{
	/* interrupted: a second for them (a tiny compile ends well within it),
	 * so the caller's stop is not kept waiting by one that never ends */
	uint64_t t = now_ns(), grace = got_signal ? 1000000000u : 5000000000u;
	int i, st;

	while (reap_jobs() > 0 && now_ns() - t < grace)
		sleep_ms(2);
	if (reap_jobs() == 0)
		return;
	signal_jobs(SIGTERM);
	t = now_ns();
	while (reap_jobs() > 0 && now_ns() - t < 1000000000u)
		sleep_ms(2);
	signal_jobs(SIGKILL);
	for (i = 0; i < njobs; i++)
		if (jobs[i].pid > 0) {
			while (waitpid(jobs[i].pid, &st, 0) < 0 && errno == EINTR)
				;
			jobs[i].pid = 0;
		}
	sleep_ms(50);   /* the group's other members die with it */
}

static void cleanup(void)
{
	size_t i;

	if (finished)
		return;
	stop_jobs();
	for (i = nmade; i-- > 0;)
		unlink(made[i]);
	if (manifest_open) {
		manifest_open = 0;
		atomic_abort(&manifest);
	}
}

static void on_signal(int sig)
{
	got_signal = sig;
}

static void check_interrupt(void)
{
	if (got_signal) {
		warnx_("interrupted by signal %d; removing what was made",
		       (int)got_signal);
		exit(130);
	}
}

/* ---- files ---- */

static void write_all(int fd, const char *buf, size_t len, const char *path)
{
	while (len > 0) {
		ssize_t w = write(fd, buf, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			die_if_full(EXIT_FAIL, workdir);
			die(EXIT_FAIL, "cannot write %s:", path);
		}
		buf += w;
		len -= (size_t)w;
	}
}

/* Create path, which must not exist, for writing (mode 0600 until the
 * caller's fchmod); tracked, so a failure later removes it. */
static int open_new(const char *path)
{
	int fd;

	track(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		untrack_last();
		die_if_full(EXIT_FAIL, workdir);
		die(EXIT_FAIL, "cannot create %s:", path);
	}
	return fd;
}

/* Create path (it must not exist) with the given content and mode. */
static void write_new(const char *path, const char *data, mode_t mode)
{
	int fd = open_new(path);

	write_all(fd, data, strlen(data), path);
	if (fchmod(fd, mode) != 0)
		die(EXIT_FAIL, "cannot chmod %s:", path);
	if (fsync(fd) != 0 || close(fd) != 0) {
		die_if_full(EXIT_FAIL, workdir);
		die(EXIT_FAIL, "cannot write %s:", path);
	}
}

/* Copy src to the new file dst with read/write (no platform calls). */
static void copy_new(const char *src, const char *dst, mode_t mode)
{
	char buf[65536];
	int in, out;
	ssize_t r;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		die(EXIT_FAIL, "cannot open %s:", src);
	out = open_new(dst);
	for (;;) {
		r = read(in, buf, sizeof buf);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			die(EXIT_FAIL, "cannot read %s:", src);
		}
		if (r == 0)
			break;
		write_all(out, buf, (size_t)r, dst);
	}
	close(in);
	if (fchmod(out, mode) != 0)
		die(EXIT_FAIL, "cannot chmod %s:", dst);
	if (fsync(out) != 0 || close(out) != 0) {
		die_if_full(EXIT_FAIL, workdir);
		die(EXIT_FAIL, "cannot write %s:", dst);
	}
}

static void refuse_existing(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0)
		die(EXIT_FAIL, "%s already exists; refusing to replace it",
		    path);
}

/* Give the finished temporary file its final name (which must be new). */
static void publish(const char *tmp, const char *final)
{
	refuse_existing(final);
	track(final);
	if (rename(tmp, final) != 0)
		die(EXIT_FAIL, "cannot rename %s to %s:", tmp, final);
}

static char *slot_path(long i, const char *ext)
{
	return xasprintf("%s/%s-%04ld%s", workdir, prefix, i, ext);
}

/* A string unique to this artifact: name, pid, wall and monotonic clock,
 * and a counter.  prefix is restricted to [A-Za-z0-9._-], so the nonce can
 * be put in a C string literal or a shell comment as it is. */
static char *make_nonce(const char *stem)
{
	return xasprintf("execlag:%s:%ld:%lld:%llu:%lu", stem, (long)getpid(),
			 (long long)time(NULL), (unsigned long long)now_ns(),
			 ++nonce_counter);
}

/* com.apple.quarantine as a download would leave it (docs/macos.md §6). */
static void set_quarantine(const char *path)
{
	if (quarantine_set(path) != 0)
		die(EXIT_FAIL, "cannot set com.apple.quarantine on %s:", path);
}

/* ---- processes ---- */

/* posix_spawn with stdin/stdout on /dev/null, stderr on errfd (or
 * /dev/null), default signal handling, its own process group.  Returns 0 or
 * an errno value. */
static int spawn_quiet(const char *file, char *const argv[], int search,
		       int errfd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, dfl;
	int rc;

	if ((rc = posix_spawn_file_actions_init(&fa)) != 0)
		return rc;
	if ((rc = posix_spawnattr_init(&at)) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		return rc;
	}
	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	sigaddset(&dfl, SIGQUIT);
	sigaddset(&dfl, SIGHUP);
	sigaddset(&dfl, SIGPIPE);
	if (!rc)
		rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null",
						      O_RDONLY, 0);
	if (!rc)
		rc = posix_spawn_file_actions_addopen(&fa, 1, "/dev/null",
						      O_WRONLY, 0);
	if (!rc)
		rc = errfd >= 0 ?
		     posix_spawn_file_actions_adddup2(&fa, errfd, 2) :
		     posix_spawn_file_actions_addopen(&fa, 2, "/dev/null",
						      O_WRONLY, 0);
	if (!rc)
		rc = posix_spawnattr_setsigmask(&at, &none);
	if (!rc)
		rc = posix_spawnattr_setsigdefault(&at, &dfl);
	if (!rc)
		rc = posix_spawnattr_setpgroup(&at, 0);
	if (!rc)
		rc = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP |
					      POSIX_SPAWN_SETSIGMASK |
					      POSIX_SPAWN_SETSIGDEF);
	if (!rc)
		rc = search ? posix_spawnp(pid, file, &fa, &at, argv, environ)
			    : posix_spawn(pid, file, &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	return rc;
}

/* Launch argv[0] once and wait for it: its exit status does not matter,
 * only that it has been launched.  Untimed, so by fork and exec: the child
 * is on its own at once (posix_spawn on Linux does not return before the
 * child's execve has passed a first-launch check), and one that does not
 * end within EXECLAG_HANG_S seconds (30) is killed, its process group with
 * it: mkfresh then exits 4, a hang (no launch of the kit waits for ever). */
static void prelaunch(char *const argv[])
{
	const char *hs = getenv("EXECLAG_HANG_S");
	double bound = 30;
	uint64_t t0 = now_ns(), t;
	pid_t pid, r;
	int st, fd;

	if (hs && *hs && parse_double(hs, 0.1, 3600, &bound) != 0)
		die(EXIT_USAGE, "EXECLAG_HANG_S '%s' is not a number of seconds from 0.1 to 3600", hs);
	pid = fork();
	if (pid < 0)
		die(EXIT_FAIL, "cannot launch %s: fork:", argv[0]);
	if (pid == 0) {
		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid);
	for (;;) {
		r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			return;
		if (r < 0 && errno != EINTR)
			die(EXIT_FAIL, "waitpid:");
		if (got_signal) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			return; /* the caller sees the signal */
		}
		if (now_ns() - t0 > (uint64_t)(bound * 1e9))
			break;
		sleep_ms(2);
	}
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	for (t = now_ns(); now_ns() - t < 2000000000u;) {
		if (waitpid(pid, &st, WNOHANG) == pid) {
			pid = 0;
			break;
		}
		sleep_ms(5);
	}
	if (pid)
		fprintf(stderr, "mkfresh: process %ld did not end 2 s after SIGKILL: left behind\n",
			(long)pid);
	fprintf(stderr, "mkfresh: hang: %s did not end within %g s: killed\n", argv[0], bound);
	cleanup();
	finished = 1;
	exit(4);
}

static void no_compiler(void)
{
	die(EXIT_USAGE, "no C compiler: %s not found (install one, or set CC)",
	    cc_argv[0]);
}

/* ---- sources ---- */

/* s with every backslash and double quote escaped by a backslash. */
static char *escape_quoted(const char *s)
{
	char *out = xmalloc(2 * strlen(s) + 1), *o = out;

	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			*o++ = '\\';
		*o++ = *s;
	}
	*o = '\0';
	return out;
}

/* The padding (--size): the bytes of the file pad, by the assembler's
 * .incbin, in a read-only data section, as execlag_pad; a program that
 * refers to it keeps it.  The path is quoted twice: for the assembler's
 * string, then for C's. */
static char *pad_block(const char *pad)
{
	char *once, *twice, *text;

	if (!pad)
		return xstrdup("");
	once = escape_quoted(pad);
	twice = escape_quoted(once);
	text = xasprintf(
		"__asm__(\n"
		"#if defined(__APPLE__)\n"
		"\t\".section __TEXT,__const\\n\"\n"
		"#else\n"
		"\t\".section .rodata\\n\"\n"
		"#endif\n"
		"\t\".p2align 4\\n\"\n"
		"\t\"execlag_pad:\\n\"\n"
		"\t\".incbin \\\"%s\\\"\\n\"\n"
		"\t\".text\\n\");\n"
		"extern const unsigned char execlag_pad[] __asm__(\"execlag_pad\");\n",
		twice);
	free(once);
	free(twice);
	return text;
}

static char *source_for(enum unit u, const char *nonce, const char *pad)
{
	char *block = pad_block(pad), *text;

	switch (u) {
	case U_LIB:
		text = xasprintf(
			"%s"
			"const char *execlag_nonce(void);\n"
			"const char *execlag_nonce(void){ return \"%s\"; }\n"
			"%s",
			block, nonce, pad ?
			"const unsigned char *execlag_padding(void);\n"
			"const unsigned char *execlag_padding(void){ return execlag_pad; }\n" : "");
		break;
	case U_HOST:
		text = xasprintf(
			"#include <dlfcn.h>\n"
			"#include <stdio.h>\n"
			"static const char nonce[] = \"%s\";\n"
			"int main(int argc, char **argv)\n"
			"{\n"
			"\tvoid *h;\n"
			"\tconst char *(*f)(void);\n"
			"\tif (argc != 2)\n"
			"\t\treturn argc > 99 ? nonce[argc %% (int)sizeof nonce] : 3;\n"
			"\th = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);\n"
			"\tif (!h) { fprintf(stderr, \"%%s\\n\", dlerror()); return 3; }\n"
			"\t*(void **)&f = dlsym(h, \"execlag_nonce\");\n"
			"\tif (!f) { fprintf(stderr, \"%%s\\n\", dlerror()); return 3; }\n"
			"\tputs(f());\n"
			"\treturn 0;\n"
			"}\n", nonce);
		break;
	case U_EXE:
	default:
		text = xasprintf(
			"%s%s"
			"static const char nonce[] = \"%s\";\n"
			"int main(int argc, char **argv){ (void)argv;%s "
			"return argc > 99 ? nonce[argc %% (int)sizeof nonce]%s : %d; }\n",
			payload == P_KILL ? "#include <signal.h>\n" : "",
			block, nonce,
			payload == P_KILL ? " raise(SIGKILL);" : "",
			pad ? " + execlag_pad[argc]" : "",
			payload == P_FAIL ? 3 : 0);
		break;
	}
	free(block);
	return text;
}

/* The padding's generator, seeded by the artifact's nonce (xorshift64*:
 * every artifact its own). */
static uint64_t pad_seed(const char *nonce)
{
	uint64_t x = 0xcbf29ce484222325u;
	const char *c;

	for (c = nonce; *c; c++)
		x = (x ^ (unsigned char)*c) * 0x100000001b3u;
	return x ? x : 1;
}

/* The next len bytes of the padding from generator *x into buf (len at
 * most sizeof(uint64_t[8192])). */
static void pad_fill(uint64_t *x, char *buf, size_t len)
{
	uint64_t w[8192];
	size_t i;

	for (i = 0; i < sizeof w / sizeof w[0]; i++) {
		*x ^= *x >> 12;
		*x ^= *x << 25;
		*x ^= *x >> 27;
		w[i] = *x * 0x2545f4914f6cdd1du;
	}
	memcpy(buf, w, len);
}

/* Write pad_bytes of random bytes to the new file path, from a generator
 * seeded by the artifact's nonce. */
static void write_pad(const char *path, const char *nonce)
{
	uint64_t x = pad_seed(nonce);
	char buf[65536];
	long left = pad_bytes;
	int fd;

	fd = open_new(path);
	while (left > 0) {
		size_t len = left < (long)sizeof buf ? (size_t)left : sizeof buf;

		pad_fill(&x, buf, len);
		write_all(fd, buf, len, path);
		left -= (long)len;
	}
	if (close(fd) != 0) {
		die_if_full(EXIT_FAIL, workdir);
		die(EXIT_FAIL, "cannot write %s:", path);
	}
}

/* ---- compiling ---- */

/* Start compiling unit u named stem (e.g. "exe-0003") into job j. */
static void start_job(struct cjob *j, enum unit u, const char *stem)
{
	const char *argv[32 + 16];
	char *nonce, *text;
	int n = 0, i, fd, rc;

	j->src = xasprintf("%s/%s.c", workdir, stem);
	j->final = xasprintf("%s/%s%s", workdir, stem,
			     u == U_LIB ? LIB_EXT : "");
	j->out = xasprintf("%s.tmp", j->final);
	j->err = xasprintf("%s/%s.cc-err", workdir, stem);

	refuse_existing(j->final);
	refuse_existing(j->out);
	nonce = forced_nonce ? xstrdup(forced_nonce) : make_nonce(stem);
	if (pad_bytes > 0 && u != U_HOST) {
		j->pad = xasprintf("%s/%s.pad", workdir, stem);
		refuse_existing(j->pad);
		write_pad(j->pad, nonce);
	}
	text = source_for(u, nonce, j->pad);
	write_new(j->src, text, 0644);
	free(text);
	free(nonce);

	fd = open_new(j->err);
	track(j->out);

	for (i = 0; i < cc_argc; i++)
		argv[n++] = cc_argv[i];
	argv[n++] = "-O0";
	if (u == U_LIB) {
		argv[n++] = "-shared";
		argv[n++] = "-fPIC";
	}
	argv[n++] = "-o";
	argv[n++] = j->out;
	argv[n++] = j->src;
#if defined(__linux__)
	if (u == U_HOST)
		argv[n++] = "-ldl";
#endif
	argv[n] = NULL;

	rc = spawn_quiet(cc_argv[0], (char *const *)argv, 1, fd, &j->pid);
	close(fd);
	if (rc != 0) {
		j->pid = 0;
		if (rc == ENOENT)
			no_compiler();
		errno = rc;
		die(EXIT_FAIL, "cannot run %s:", cc_argv[0]);
	}
}

/* First line of a compiler's stderr, for the one-line error message. */
static char *first_line(const char *path)
{
	char buf[512];
	FILE *f = fopen(path, "r");
	size_t len;

	if (!f)
		return xstrdup("(no message)");
	if (!fgets(buf, sizeof buf, f))
		buf[0] = '\0';
	fclose(f);
	len = strcspn(buf, "\r\n");
	buf[len] = '\0';
	return xstrdup(len ? buf : "(no message)");
}

/* A compiler that failed for want of space says so somewhere in its
 * output, or (its own stderr unwritable) nothing at all. */
static void compile_full(const char *errpath)
{
	char buf[512];
	const char *nospace = strerror(ENOSPC);
	FILE *f = fopen(errpath, "r");
	int said = 0;

	while (f && !said && fgets(buf, sizeof buf, f))
		said = strstr(buf, nospace) != NULL;
	if (f)
		fclose(f);
	/* the work folder, or the compiler's temporaries in TMPDIR */
	die_if_compile_full(EXIT_FAIL, workdir);
	if (said)
		die(EXIT_FAIL, "no space left in %s", workdir);
}

static void finish_job(struct cjob *j, int st)
{
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		char *line;

		compile_full(j->err);
		line = first_line(j->err);

		if (WIFSIGNALED(st))
			die(EXIT_FAIL, "compiler failed on %s (signal %d): %s",
			    j->src, WTERMSIG(st), line);
		die(EXIT_FAIL, "compiler failed on %s (exit %d): %s",
		    j->src, WEXITSTATUS(st), line);
	}
	unlink(j->src);
	unlink(j->err);
	if (j->pad)
		unlink(j->pad);
	/* No stat or open of the output: chmod tells whether it exists. */
	if (chmod(j->out, 0755) != 0) {
		if (errno == ENOENT)
			die(EXIT_FAIL, "compiler made no %s", j->out);
		die(EXIT_FAIL, "cannot chmod %s:", j->out);
	}
	if (quarantine)
		set_quarantine(j->out);
	publish(j->out, j->final);
	free(j->src);
	free(j->out);
	free(j->final);
	free(j->err);
	free(j->pad);
	j->src = j->out = j->final = j->err = j->pad = NULL;
}

/* Compile n units, at most njob at once.  stem_one names a single unit
 * (base or host); otherwise unit i is PREFIX-NNNN. */
static void compile_units(long n, enum unit u, long njob, const char *stem_one)
{
	long next = 0, done = 0;
	int i, st;
	pid_t pid;

	if (njob > n)
		njob = n;
	jobs = xmalloc((size_t)njob * sizeof *jobs);
	memset(jobs, 0, (size_t)njob * sizeof *jobs);
	njobs = (int)njob;
	while (done < n) {
		check_interrupt();
		if (next < n) {
			for (i = 0; i < njobs && jobs[i].pid != 0; i++)
				;
			if (i < njobs) {
				char *stem = stem_one ? xstrdup(stem_one) :
					xasprintf("%s-%04ld", prefix, first + next);

				start_job(&jobs[i], u, stem);
				free(stem);
				next++;
				continue;
			}
		}
		pid = waitpid(-1, &st, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			die(EXIT_FAIL, "waitpid:");
		}
		for (i = 0; i < njobs && jobs[i].pid != pid; i++)
			;
		if (i == njobs)
			continue;
		jobs[i].pid = 0;
		finish_job(&jobs[i], st);
		done++;
	}
	free(jobs);
	jobs = NULL;
	njobs = 0;
}

/* ---- a simulated run's artifacts: one template per compiled unit ---- */

#if !defined(__APPLE__)

/* Where needle (len > 0) is in hay, if it is there exactly once; else -1. */
static long find_once(const char *hay, size_t hlen, const char *needle, size_t len)
{
	long at = -1;
	size_t i;

	for (i = 0; i + len <= hlen; i++)
		if (hay[i] == needle[0] && memcmp(hay + i, needle, len) == 0) {
			if (at >= 0)
				return -1;
			at = (long)i;
		}
	return at;
}

/* The whole of the file path into *len bytes (NUL after them), or NULL
 * where it cannot be read. */
static char *read_file(const char *path, size_t *len)
{
	struct stat st;
	char *buf = NULL;
	size_t got = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0)
		goto fail;
	buf = xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size) {
		r = read(fd, buf + got, (size_t)st.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			goto fail;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	*len = got;
	return buf;
fail:
	free(buf);
	close(fd);
	return NULL;
}

/* The whole of the file path into *len bytes: read, or the run fails. */
static char *read_whole(const char *path, size_t *len)
{
	char *buf = read_file(path, len);

	if (!buf)
		die(EXIT_FAIL, "cannot read %s:", path);
	return buf;
}

/* EXECLAG_TEMPLATES (a folder, made if missing): a simulated run's
 * templates kept for the next mkfresh that needs the same one, so that a
 * run (scripts/repro sets it to the run's own scratch) or a test suite
 * (tests/test_helper) compiles each template once, not once a call.  A
 * template is the same one where everything that shapes its bytes but the
 * placeholder is the same: the unit, the payload, the padding's size, the
 * placeholder's length, the length of the source's name (it is in the
 * program's symbols) and the compiler's command.  Its bytes then carry the
 * name of the artifact it was first compiled for (as long): harmless where
 * nothing is launched.  (A compiler told to record the source's folder too,
 * as -g does, records the first one's.)  An entry is written to a new file
 * and renamed into place (two makers at once each see a whole one or none);
 * one that cannot be read or written is compiled as without the folder. */
static char *template_key(enum unit u, size_t plen, const char *stem)
{
	char *key = xasprintf("execlag-template 1\037%d\037%d\037%ld\037%zu\037%zu",
			      (int)u, (int)payload, pad_bytes, plen, strlen(stem));
	int i;

	for (i = 0; i < cc_argc; i++) {
		char *k = xasprintf("%s\037%s", key, cc_argv[i]);

		free(key);
		key = k;
	}
	if (strchr(key, '\n')) {
		free(key);
		return NULL;
	}
	return key;
}

/* The entry's path for key (FNV-1a 64 of the key), NULL without a folder. */
static char *template_path(const char *key)
{
	const char *dir = getenv("EXECLAG_TEMPLATES");
	uint64_t h = 14695981039346656037u;
	const char *c;

	if (!dir || !*dir || !key)
		return NULL;
	for (c = key; *c; c++) {
		h ^= (unsigned char)*c;
		h *= 1099511628211u;
	}
	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		return NULL;
	return xasprintf("%s/%016llx.tmpl", dir, (unsigned long long)h);
}

/* A kept template for key: its bytes (*len) and its placeholder (*ph, plen
 * long), or NULL. */
static char *template_load(const char *key, size_t plen, char **ph, size_t *len)
{
	char *path = template_path(key), *buf, *nl, *out = NULL;
	size_t klen = key ? strlen(key) : 0, size;

	if (!path)
		return NULL;
	buf = read_file(path, &size);
	free(path);
	if (!buf)
		return NULL;
	/* the key, a newline, the placeholder, a newline, the bytes */
	if (size < klen + plen + 2 || memcmp(buf, key, klen) != 0 || buf[klen] != '\n')
		goto out;
	nl = buf + klen + 1 + plen;
	if (*nl != '\n' || memchr(buf + klen + 1, '\n', plen))
		goto out;
	*ph = xmalloc(plen + 1);
	memcpy(*ph, buf + klen + 1, plen);
	(*ph)[plen] = '\0';
	*len = size - klen - plen - 2;
	out = xmalloc(*len ? *len : 1);
	memcpy(out, nl + 1, *len);
out:
	free(buf);
	return out;
}

/* Write all of buf to fd; 0 on success. */
static int write_some(int fd, const char *buf, size_t len)
{
	ssize_t w;

	while (len > 0) {
		w = write(fd, buf, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Keep a template (best effort: a failure leaves no file). */
static void template_store(const char *key, const char *ph, const char *bytes, size_t len)
{
	char *path = template_path(key), *tmp;
	int fd, bad;

	if (!path)
		return;
	tmp = xasprintf("%s.%ld.tmp", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0) {
		bad = write_some(fd, key, strlen(key)) || write_some(fd, "\n", 1) ||
		      write_some(fd, ph, strlen(ph)) || write_some(fd, "\n", 1) ||
		      write_some(fd, bytes, len);
		if (close(fd) != 0 || bad || rename(tmp, path) != 0)
			unlink(tmp);
	}
	free(tmp);
	free(path);
}

/* The descriptor of the GNU build ID note in the bytes of an ELF file of a
 * little-endian machine (the kit's Linux targets), if the note is there
 * exactly once: its offset, its length in *dlen; else -1. */
static long find_build_id(const char *b, size_t len, size_t *dlen)
{
	static const char tail[8] = { 3, 0, 0, 0, 'G', 'N', 'U', 0 };
	const unsigned char *p;
	unsigned long namesz, descsz;
	long at;

	if (len < 16 || memcmp(b, "\177ELF", 4) != 0)
		return -1;
	at = find_once(b, len, tail, sizeof tail);
	if (at < 8)
		return -1;
	p = (const unsigned char *)b + at - 8;
	namesz = p[0] | (unsigned long)p[1] << 8 | (unsigned long)p[2] << 16 | (unsigned long)p[3] << 24;
	descsz = p[4] | (unsigned long)p[5] << 8 | (unsigned long)p[6] << 16 | (unsigned long)p[7] << 24;
	if (namesz != 4 || descsz < 8 || descsz > 64 || (size_t)at + 8 + descsz > len)
		return -1;
	*dlen = descsz;
	return at + 8;
}

/* A compiled template: its bytes, its placeholder, and where the
 * placeholder, the padding (pad bytes, 0: none) and the GNU build ID
 * (bidlen bytes; -1: none) are in the bytes. */
struct tmpl {
	char *bytes, *ph;
	size_t len, plen, bidlen;
	long at_nonce, at_pad, pad, at_bid;
};

/* --simulated: the template for units of kind u named as long as stem
 * whose nonces are at most plen long: kept in EXECLAG_TEMPLATES, or
 * compiled (and kept there).  Its placeholder is plen long (so the template
 * is about the size of the longest artifact's own build), unique
 * to the compile, and its file is named PREFIX-tttt, as long as stem (the
 * source's name is in the program's symbols).  0, or -1 where the
 * placeholder or the padding is not in the bytes exactly once (a compiler
 * that splits or repeats them: nothing is kept, the caller compiles). */
static int template_get(enum unit u, const char *stem, size_t plen, struct tmpl *t)
{
	const char *ext = u == U_LIB ? LIB_EXT : "";
	char *tstem = xstrdup(stem), *tpath, *head, *key, *kept = NULL;
	char padhead[64];
	size_t i, hl, pl;
	int fresh = 0;
	uint64_t x;

	for (i = strlen(prefix) + 1; tstem[i]; i++)
		tstem[i] = 't';
	tpath = xasprintf("%s/%s%s", workdir, tstem, ext);
	memset(t, 0, sizeof *t);
	t->plen = plen;
	t->pad = u == U_HOST ? 0 : pad_bytes;
	t->at_pad = -1;
	key = template_key(u, plen, tstem);
	t->bytes = template_load(key, plen, &kept, &t->len);
	if (t->bytes) {
		t->ph = kept;
	} else {
		head = xasprintf("execlag-template:%ld:%llu:", (long)getpid(),
				 (unsigned long long)now_ns());
		hl = strlen(head);
		t->ph = xmalloc(plen + 1);
		memset(t->ph, 'x', plen);
		memcpy(t->ph, head, hl < plen ? hl : plen);
		t->ph[plen] = '\0';
		free(head);
		forced_nonce = t->ph;
		compile_units(1, u, 1, tstem);
		forced_nonce = NULL;
		check_interrupt();
		t->bytes = read_whole(tpath, &t->len);
		unlink(tpath);
		fresh = 1;
	}
	t->at_nonce = find_once(t->bytes, t->len, t->ph, plen);
	if (t->pad > 0) {
		pl = t->pad < (long)sizeof padhead ? (size_t)t->pad : sizeof padhead;
		x = pad_seed(t->ph);
		pad_fill(&x, padhead, pl);
		t->at_pad = find_once(t->bytes, t->len, padhead, pl);
		if (t->at_pad < 0 || (size_t)t->at_pad + (size_t)t->pad > t->len)
			t->at_nonce = -1;
	}
	t->at_bid = find_build_id(t->bytes, t->len, &t->bidlen);
	if (t->at_nonce >= 0 && fresh)
		template_store(key, t->ph, t->bytes, t->len);
	free(key);
	free(tpath);
	free(tstem);
	if (t->at_nonce < 0) {
		free(t->bytes);
		free(t->ph);
		return -1;
	}
	return 0;
}

/* A placeholder's length for nonces at most n long: n rounded up to 16, so
 * that makers whose nonces differ by a digit (a pid, a count) share a
 * template; an artifact is then at most 15 bytes longer than its own build
 * would be. */
static size_t template_plen(size_t n)
{
	return (n + 15) / 16 * 16;
}

/* One unit from template t: its bytes with nonce over the placeholder (the
 * rest of it NUL, so the program's string is the nonce), its own padding
 * over the template's and its own build ID (from its nonce, as a link of its
 * own gives it) over the template's, written to a new file and renamed into
 * place at final as a compiler's output is. */
static void unit_from_template(struct tmpl *t, const char *nonce, const char *final)
{
	char *tmp = xasprintf("%s.tmp", final), bid[64];
	int fd;
	uint64_t x;

	check_interrupt();
	refuse_existing(final);
	refuse_existing(tmp);
	memset(t->bytes + t->at_nonce, 0, t->plen);
	memcpy(t->bytes + t->at_nonce, nonce, strlen(nonce));
	if (t->at_pad >= 0) {
		long left = t->pad, off = t->at_pad;

		x = pad_seed(nonce);
		while (left > 0) {
			size_t l = left < 65536 ? (size_t)left : 65536;

			pad_fill(&x, t->bytes + off, l);
			off += (long)l;
			left -= (long)l;
		}
	}
	if (t->at_bid >= 0) {
		x = pad_seed(nonce) ^ 0x9e3779b97f4a7c15u;
		pad_fill(&x, bid, t->bidlen);
		memcpy(t->bytes + t->at_bid, bid, t->bidlen);
	}
	fd = open_new(tmp);
	write_all(fd, t->bytes, t->len, tmp);
	if (fchmod(fd, 0755) != 0)
		die(EXIT_FAIL, "cannot chmod %s:", tmp);
	if (close(fd) != 0) {
		die_if_full(EXIT_FAIL, workdir);
		die(EXIT_FAIL, "cannot write %s:", tmp);
	}
	if (quarantine)
		set_quarantine(tmp);
	publish(tmp, final);
	free(tmp);
}

/* --simulated: units first .. first+n-1 of kind u (U_EXE or U_LIB) from one
 * template (template_get); the artifacts' nonces are drawn first.  Where
 * there is no template, each unit is compiled. */
static void units_from_template(long n, enum unit u, long njob)
{
	const char *ext = u == U_LIB ? LIB_EXT : "";
	char *stem = xasprintf("%s-%04ld", prefix, first);
	char **nonces = xmalloc((size_t)n * sizeof *nonces);
	size_t plen = 0;
	struct tmpl t;
	long i;
	int ok;

	for (i = 0; i < n; i++) {
		char *s = xasprintf("%s-%04ld", prefix, first + i);

		nonces[i] = make_nonce(s);
		if (strlen(nonces[i]) > plen)
			plen = strlen(nonces[i]);
		free(s);
	}
	ok = template_get(u, stem, template_plen(plen), &t) == 0;
	for (i = 0; i < n; i++) {
		if (ok) {
			char *final = slot_path(first + i, ext);

			unit_from_template(&t, nonces[i], final);
			free(final);
		}
		free(nonces[i]);
	}
	free(nonces);
	free(stem);
	if (!ok) {
		compile_units(n, u, njob, NULL);
		return;
	}
	free(t.bytes);
	free(t.ph);
}
#endif

/* Units of kind u for artifacts first .. first+n-1: compiled one by one,
 * or for a simulated run or with --template from a template (not on
 * macOS: a signed program whose bytes are changed no longer runs). */
static void make_units(long n, enum unit u, long njob)
{
#if !defined(__APPLE__)
	if (simulated || from_template) {
		units_from_template(n, u, njob);
		return;
	}
#endif
	compile_units(n, u, njob, NULL);
}

/* One unit of kind u named stem (a base, a host): compiled, or for a
 * simulated run from a template as the artifacts are (not on macOS). */
static void make_unit(enum unit u, const char *stem)
{
#if !defined(__APPLE__)
	if (simulated) {
		char *nonce = make_nonce(stem);
		char *final = xasprintf("%s/%s%s", workdir, stem, u == U_LIB ? LIB_EXT : "");
		struct tmpl t;
		int ok = template_get(u, stem, template_plen(strlen(nonce)), &t) == 0;

		if (ok) {
			unit_from_template(&t, nonce, final);
			free(t.bytes);
			free(t.ph);
		}
		free(final);
		free(nonce);
		if (ok)
			return;
	}
#endif
	compile_units(1, u, 1, stem);
}

/* ---- the kinds ---- */

/* The base or host a run before this one (--first) made: there, or the
 * artifacts that follow cannot be made like the ones before. */
static void made_before(const char *path)
{
	if (!is_exec_file(path))
		die(EXIT_USAGE, "--first %ld: no %s: the run that made artifact 0 "
		    "makes it, into the same WORKDIR with the same PREFIX", first, path);
}

static void make_scripts(long n)
{
	const char *tail = payload == P_KILL ? "kill -9 $$" :
			   payload == P_FAIL ? "exit 3" : "exit 0";
	long i;

	for (i = first; i < first + n; i++) {
		char *stem, *path, *nonce, *text;

		check_interrupt();
		stem = xasprintf("%s-%04ld", prefix, i);
		path = slot_path(i, ".sh");
		nonce = make_nonce(stem);
		text = xasprintf("#!/bin/sh\n# execlag nonce %s\n%s\n",
				 nonce, tail);
		refuse_existing(path);
		write_new(path, text, 0755);
		free(stem);
		free(path);
		free(nonce);
		free(text);
	}
}

/* Build PREFIX-base, optionally launch it once; returns its path.  With
 * --first the run before made and launched it: it is used as it is. */
static char *make_base(int launch)
{
	char *stem = xasprintf("%s-base", prefix);
	char *base = xasprintf("%s/%s", workdir, stem);

	if (first > 0) {
		made_before(base);
		free(stem);
		return base;
	}
	make_unit(U_EXE, stem);
	free(stem);
	check_interrupt();
	if (launch && !simulated) {
		char *argv[2] = { base, NULL };

		prelaunch(argv);
	}
	return base;
}

static void make_copies(const char *src, long n)
{
	long i;

	for (i = first; i < first + n; i++) {
		char *slot = slot_path(i, ""), *tmp = slot_path(i, ".tmp");

		check_interrupt();
		refuse_existing(slot);
		copy_new(src, tmp, 0755);
		publish(tmp, slot);
		free(slot);
		free(tmp);
	}
}

/* slot, new: a hard link to base */
static void link_new(const char *base, const char *slot)
{
	refuse_existing(slot);
	track(slot);
	if (link(base, slot) != 0) {
		untrack_last();
		die(EXIT_FAIL, "cannot link %s to %s:", slot, base);
	}
}

static void make_hardlinks(const char *base, long n)
{
	long i;

	for (i = first; i < first + n; i++) {
		char *slot = slot_path(i, "");

		check_interrupt();
		link_new(base, slot);
		free(slot);
	}
}

/* Each slot: a hard link to base (launched before, so a cache keyed by
 * inode or content knows it and only a path-keyed one checks it again),
 * launched at the slot's path, then replaced by a new file with the same
 * bytes (rename over it: new inode, same path).  The launched inode stays
 * linked as base until WORKDIR goes, so its inode number cannot be given
 * to a later file of the run (Linux reuses them).  Linking instead of
 * copying spares a penalty per slot while it is made: N checks of L each
 * on a machine that pays L per new inode. */
static void make_rewrites(const char *base, long n)
{
	long i;

	for (i = first; i < first + n; i++) {
		char *slot = slot_path(i, ""), *nw = slot_path(i, ".new");
		char *argv[2] = { slot, NULL };

		check_interrupt();
		link_new(base, slot);
		if (!simulated)
			prelaunch(argv);
		copy_new(base, nw, 0755);
		if (rename(nw, slot) != 0)
			die(EXIT_FAIL, "cannot rename %s to %s:", nw, slot);
		free(slot);
		free(nw);
	}
}

static const char *system_echo(void)
{
	static const char *const cand[] = { "/bin/echo", "/usr/bin/echo" };
	size_t i;

	for (i = 0; i < sizeof cand / sizeof cand[0]; i++)
		if (is_exec_file(cand[i]))
			return cand[i];
	return NULL;
}

/* ---- manifest ---- */

static void write_manifest(const char *case_name, long n)
{
	FILE *f = manifest.fp;
	char *host = xasprintf("%s/%s-host", workdir, prefix);
	long i;

	fprintf(f, "execlag-manifest\t1\ncase\t%s\nkind\t%s\nn\t%ld\n"
		"workdir\t%s\n", case_name, kind_table[kind].name, n, workdir);
	if (pad_bytes > 0)
		fprintf(f, "pad\t%ld\n", pad_bytes);
	{
		/* the size of an artifact's new file (make measure compares its
		 * command's programs with it); stat reads no byte of it */
		char *obj0 = slot_path(0, kind == K_SCRIPT || kind == K_SCRIPT_VIA_SH ?
				       ".sh" : kind == K_DYLIB ? LIB_EXT : "");
		struct stat st;

		if (stat(obj0, &st) == 0 && S_ISREG(st.st_mode))
			fprintf(f, "bytes\t%lld\n", (long long)st.st_size);
		free(obj0);
	}
	for (i = 0; i < n; i++) {
		char *obj = slot_path(i, kind == K_SCRIPT || kind == K_SCRIPT_VIA_SH ?
				      ".sh" : kind == K_DYLIB ? LIB_EXT : "");

		if (kind == K_SCRIPT_VIA_SH)
			fprintf(f, "artifact\t%ld\t%s\t/bin/sh\t%s\n", i, obj,
				obj);
		else if (kind == K_DYLIB)
			fprintf(f, "artifact\t%ld\t%s\t%s\t%s\n", i, obj, host,
				obj);
		else
			fprintf(f, "artifact\t%ld\t%s\t%s\n", i, obj, obj);
		free(obj);
	}
	free(host);
	check_interrupt();
	manifest_open = 0;
	if (atomic_commit(&manifest) != 0) {
		char *dir = parent_dir(manifest_path);

		die_if_full(EXIT_FAIL, dir);
		die(EXIT_FAIL, "cannot write the manifest %s:", manifest_path);
	}
}

/* ---- main ---- */

static int has_tab_nl(const char *s)
{
	return strpbrk(s, "\t\n\r") != NULL;
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

static const char *need_value(int argc, char **argv, int *i, const char *opt)
{
	if (*i + 1 >= argc)
		die(EXIT_USAGE, "%s needs a value (see --help)", opt);
	return argv[++*i];
}

/* ---- main ---- */

/* The command line, as given. */
struct mk_opts {
	const char *kind, *count, *dir, *manifest, *case_name, *payload;
	const char *cc, *jobs, *size, *first;
};

static void parse_args(int argc, char **argv, struct mk_opts *o)
{
	static const struct { const char *flag; size_t off; } flags[] = {
		{ "--kind", offsetof(struct mk_opts, kind) },
		{ "--count", offsetof(struct mk_opts, count) },
		{ "--dir", offsetof(struct mk_opts, dir) },
		{ "--manifest", offsetof(struct mk_opts, manifest) },
		{ "--case", offsetof(struct mk_opts, case_name) },
		{ "--payload", offsetof(struct mk_opts, payload) },
		{ "--cc", offsetof(struct mk_opts, cc) },
		{ "--jobs", offsetof(struct mk_opts, jobs) },
		{ "--size", offsetof(struct mk_opts, size) },
		{ "--first", offsetof(struct mk_opts, first) },
	};
	int i;
	size_t f;

	memset(o, 0, sizeof *o);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			exit(EXIT_OK);
		}
		if (!strcmp(a, "--prefix")) {
			prefix = need_value(argc, argv, &i, a);
			continue;
		}
		if (!strcmp(a, "--simulated")) {
			simulated = 1;
			continue;
		}
		if (!strcmp(a, "--template")) {
			from_template = 1;
			continue;
		}
		for (f = 0; f < sizeof flags / sizeof flags[0]; f++)
			if (!strcmp(a, flags[f].flag))
				break;
		if (f == sizeof flags / sizeof flags[0])
			die(EXIT_USAGE, "unknown argument '%s' (see --help)", a);
		*(const char **)((char *)o + flags[f].off) = need_value(argc, argv, &i, a);
	}
	if (!o->kind)
		die(EXIT_USAGE, "missing --kind (see --help)");
	if (!o->count)
		die(EXIT_USAGE, "missing --count (see --help)");
	if (!o->dir)
		die(EXIT_USAGE, "missing --dir (see --help)");
	if (!prefix)
		die(EXIT_USAGE, "missing --prefix (see --help)");
	if (!o->manifest)
		die(EXIT_USAGE, "missing --manifest (see --help)");
}

/* --kind, --count, --first and --jobs into kind, *count, first, *njob. */
static void check_numbers(const struct mk_opts *o, long *count, long *njob)
{
	if (kind_find(o->kind) < 0)
		die(EXIT_USAGE, "unknown kind '%s' (see --help)", o->kind);
	kind = (enum kind)kind_find(o->kind);
	if (!kind_made_here(kind)) {
		if (strcmp(kind_table[kind].platforms, "darwin") == 0)
			die(EXIT_USAGE, "%s is a macOS-only case", kind_table[kind].name);
		die(EXIT_USAGE, "%s is a case of %s only", kind_table[kind].name,
		    kind_table[kind].platforms);
	}
	quarantine = kind == K_QUARANTINED;

	if (parse_long(o->count, 1, MAX_COUNT, count) != 0)
		die(EXIT_USAGE, "--count: '%s' is not a whole number in 1..%ld",
		    o->count, MAX_COUNT);
	if (o->first && parse_long(o->first, 0, MAX_COUNT - *count, &first) != 0)
		die(EXIT_USAGE, "--first: '%s' is not a whole number in 0..%ld "
		    "(with --count %ld)", o->first, MAX_COUNT - *count, *count);
	if (o->jobs) {
		if (parse_long(o->jobs, 1, MAX_JOBS, njob) != 0)
			die(EXIT_USAGE, "--jobs: '%s' is not a whole number in 1..%ld",
			    o->jobs, MAX_JOBS);
		return;
	}
#if defined(_SC_NPROCESSORS_ONLN)
	*njob = sysconf(_SC_NPROCESSORS_ONLN);
#else
	*njob = 1;
#endif
	if (*njob < 1)
		*njob = 1;
	if (*njob > MAX_JOBS)
		*njob = MAX_JOBS;
}

/* --payload and --size into payload and pad_bytes. */
static void check_payload_size(const struct mk_opts *o)
{
	if (o->payload) {
		if (!strcmp(o->payload, "ok"))
			payload = P_OK;
		else if (!strcmp(o->payload, "kill"))
			payload = P_KILL;
		else if (!strcmp(o->payload, "fail"))
			payload = P_FAIL;
		else
			die(EXIT_USAGE, "--payload: '%s' is not ok, kill or fail",
			    o->payload);
		if (payload != P_OK && !kind_table[kind].payload)
			die(EXIT_USAGE, "--payload %s is only for %s", o->payload,
			    kinds_with(0, NULL));
	}
	if (o->size) {
		pad_bytes = parse_size(o->size);
		if (pad_bytes < 0)
			die(EXIT_USAGE, "--size: '%s' is not a size from 0 to 64m "
			    "(digits, then k or m)", o->size);
		if (pad_bytes > 0 && !kind_table[kind].compiled)
			die(EXIT_USAGE, "--size is only for the compiled kinds (%s)",
			    kinds_with(1, ", "));
	}
}

/* --prefix, --case, --dir and --manifest: names and the work folder
 * (workdir); returns the case's name. */
static const char *check_names(const struct mk_opts *o)
{
	const char *case_name = o->case_name ? o->case_name : kind_table[kind].name;
	struct stat st;

	if (!*prefix || strspn(prefix, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
			       "abcdefghijklmnopqrstuvwxyz0123456789._-") !=
	    strlen(prefix) || strlen(prefix) > 200)
		die(EXIT_USAGE, "--prefix: '%s' must be 1-200 of A-Z a-z 0-9 . _ -",
		    prefix);
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
	workdir = realpath(o->dir, NULL);
	if (!workdir)
		die(EXIT_USAGE, "WORKDIR %s:", o->dir);
	if (has_tab_nl(workdir))
		die(EXIT_USAGE, "paths must not contain a tab or newline");
	return case_name;
}

/* One base executable, then count artifacts made from it by make. */
static void from_base(void (*make)(const char *, long), long count)
{
	char *base = make_base(1);

	make(base, count);
	free(base);
}

/* The dylib case: its host program (made and launched once, before the
 * libraries), then the libraries. */
static void make_dylibs(long count, long njob)
{
	char *stem = xasprintf("%s-host", prefix);
	char *host = xasprintf("%s/%s", workdir, stem);
	char *hargv[2] = { host, NULL };

	if (first > 0) {
		made_before(host);
	} else {
		make_unit(U_HOST, stem);
		check_interrupt();
		if (!simulated)
			prelaunch(hargv);
	}
	make_units(count, U_LIB, njob);
	free(stem);
	free(host);
}

static void make_kind(long count, long njob, const char *echo)
{
	switch (kind) {
	case K_SCRIPT:
	case K_SCRIPT_VIA_SH:
		make_scripts(count);
		return;
	case K_EXE:
	case K_QUARANTINED:
		make_units(count, U_EXE, njob);
		return;
	case K_EXE_COPY:
		from_base(make_copies, count);
		return;
	case K_EXE_HARDLINK:
		from_base(make_hardlinks, count);
		return;
	case K_EXE_REWRITE:
		from_base(make_rewrites, count);
		return;
	case K_SYSTEM_COPY:
		make_copies(echo, count);
		return;
	case K_DYLIB:
		make_dylibs(count, njob);
		return;
	case N_KINDS:
		break;
	}
	/* a row of cases/kinds with no case above (-Wswitch says so too) */
	die(EXIT_FAIL, "mkfresh has no maker of the kind '%s'",
	    kind < N_KINDS ? kind_table[kind].name : "?");
}

int main(int argc, char **argv)
{
	struct mk_opts o;
	const char *case_name, *echo = NULL;
	long count, njob;

	progname = "mkfresh";
	parse_args(argc, argv, &o);
	check_numbers(&o, &count, &njob);
	check_payload_size(&o);
	case_name = check_names(&o);
	if (kind_table[kind].compiled) {
		cc_argv = split_blanks(o.cc ? o.cc : getenv("CC"), "cc", 0, &cc_argc);
		if (cc_argc > 32)
			die(EXIT_USAGE, "CC has more than 32 words");
		if (!find_in_path(cc_argv[0]))
			no_compiler();
	}
	if (kind == K_SYSTEM_COPY && !(echo = system_echo()))
		die(EXIT_FAIL, "no /bin/echo or /usr/bin/echo to copy");

	catch_signals(on_signal);
	if (atexit(cleanup) != 0)
		die(EXIT_FAIL, "atexit failed");
	manifest_path = o.manifest;
	if (atomic_open(&manifest, o.manifest) != 0) {
		char *dir = parent_dir(o.manifest);

		die_if_full(EXIT_FAIL, dir);
		die(EXIT_USAGE, "cannot write manifest %s:", o.manifest);
	}
	manifest_open = 1;

	make_kind(count, njob, echo);
	check_interrupt();
	/* Write what was made to disk, so the first launch does not race the
	 * kernel's writeback of its pages (a cost of having just written the
	 * file, not of its being new) - through the file system, never by
	 * opening an artifact (fsflush.h). */
	if (fsflush_dir(workdir) != 0) {
		die_if_full(EXIT_FAIL, workdir);
		die(EXIT_FAIL, "cannot write %s to disk:", workdir);
	}
	write_manifest(case_name, first + count);
	finished = 1;
	return EXIT_OK;
}
