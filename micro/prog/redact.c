/* redact - copy stdin to stdout with identifying values replaced by
 * placeholders, for make feedback.
 *
 *   EXECLAG_REDACT='<user><TAB>jappleseed<NL>...' redact <in >out
 *   EXECLAG_REDACT=... redact IN OUT [IN OUT]...
 *
 * The second form redacts each file IN into the file OUT (created, or
 * emptied first), in one process: scripts/feedback redacts a run's files
 * so, a process for all of them.
 * Every occurrence of a value becomes its placeholder: in any ASCII case,
 * wherever it stands (inside a word, next to _ or a digit), in lines of
 * any length or none, in binary data.  Where values overlap, the one that
 * starts first wins, and of those starting at the same byte the longest
 * (so /Users/jappleseed is <home>, not /Users/<user>).  The output is never
 * scanned again, so a placeholder is never matched itself.
 *
 * The values come through the environment, not a file or the command
 * line: no list of them is ever left on disk.  One pass in fixed memory,
 * time linear in the input (each byte is compared with at most the values
 * that start with it).  No temporary files; a signal just ends it.
 * Exit: 0 done, 1 read or write error, 2 bad usage. */
#define _POSIX_C_SOURCE 200809L
#include "opts.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ENV_NAME "EXECLAG_REDACT"
#define CHUNK (256 * 1024)

struct value {
	const unsigned char *low; /* lower-case (ASCII) */
	size_t len;
	const char *ph;
	size_t phlen;
};

static struct value *vals;
static size_t nvals;
/* by lower-case first byte: indices into vals, longest first */
static size_t *first[256];
static size_t nfirst[256];
static unsigned char lower[256];
static unsigned char starts[256]; /* any case of a first byte */
static char obuf[CHUNK];

static void usage(FILE *f)
{
	fputs("usage: " ENV_NAME "=LIST redact <in >out\n"
	      "       " ENV_NAME "=LIST redact IN OUT [IN OUT]...\n"
	      "  LIST: lines of PLACEHOLDER<TAB>VALUE\n"
	      "Copies stdin to stdout with every VALUE (any ASCII case, anywhere)\n"
	      "replaced by its PLACEHOLDER; given pairs of files, each IN into its\n"
	      "OUT (created or emptied), in turn.  scripts/feedback runs this.\n"
	      "Exit: 0 done, 1 read or write error, 2 bad usage.\n", f);
}

static int longer_first(const void *a, const void *b)
{
	size_t la = vals[*(const size_t *)a].len, lb = vals[*(const size_t *)b].len;

	return la < lb ? 1 : la > lb ? -1 : 0;
}

/* Parse LIST (modified in place); returns the longest value's length. */
static size_t load(char *list)
{
	size_t cap = 0, maxlen = 0, i;
	char *line, *next, *tab;
	int c;

	for (c = 0; c < 256; c++)
		lower[c] = (unsigned char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
	for (line = list; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (*line == '\0')
			continue;
		tab = strchr(line, '\t');
		if (!tab || tab == line || tab[1] == '\0')
			die(EXIT_USAGE, ENV_NAME ": a line is not PLACEHOLDER<TAB>VALUE");
		*tab = '\0';
		if (nvals == cap) {
			cap = cap ? 2 * cap : 16;
			vals = xrealloc(vals, cap * sizeof *vals);
		}
		vals[nvals].ph = line;
		vals[nvals].phlen = strlen(line);
		vals[nvals].low = (unsigned char *)tab + 1;
		vals[nvals].len = strlen(tab + 1);
		for (i = 0; i < vals[nvals].len; i++)
			((unsigned char *)tab)[1 + i] = lower[(unsigned char)tab[1 + i]];
		if (vals[nvals].len > maxlen)
			maxlen = vals[nvals].len;
		nvals++;
	}
	for (i = 0; i < nvals; i++)
		nfirst[vals[i].low[0]]++;
	for (c = 0; c < 256; c++) {
		if (nfirst[c])
			first[c] = xmalloc(nfirst[c] * sizeof(size_t));
		nfirst[c] = 0;
	}
	for (i = 0; i < nvals; i++) {
		c = vals[i].low[0];
		first[c][nfirst[c]++] = i;
	}
	for (c = 0; c < 256; c++) {
		if (nfirst[c] > 1)
			qsort(first[c], nfirst[c], sizeof(size_t), longer_first);
		if (nfirst[c]) {
			starts[c] = 1;
			if (c >= 'a' && c <= 'z')
				starts[c - 'a' + 'A'] = 1;
		}
	}
	return maxlen;
}

/* The longest value at p (n bytes available), or NULL. */
static const struct value *match(const unsigned char *p, size_t n)
{
	size_t *cand = first[lower[*p]];
	size_t k, j, nc = nfirst[lower[*p]];

	for (k = 0; k < nc; k++) {
		const struct value *v = &vals[cand[k]];

		if (v->len > n)
			continue;
		for (j = 1; j < v->len && lower[p[j]] == v->low[j]; j++)
			;
		if (j == v->len)
			return v;
	}
	return NULL;
}

/* the input's fd and names of the input and the output, for errors */
static int in_fd = STDIN_FILENO;
static const char *in_name = "the input";
static const char *out_name = "the output";
static FILE *out;

static void put(const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, out) != n)
		die(EXIT_FAIL, "cannot write %s:", out_name);
}

/* Read more input after the have bytes kept in buf; returns 1 at its end. */
static int fill(unsigned char *buf, size_t cap, size_t *have)
{
	for (;;) {
		ssize_t r = read(in_fd, buf + *have, cap - *have);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			die(EXIT_FAIL, "cannot read %s:", in_name);
		}
		*have += (size_t)r;
		return r == 0;
	}
}

/* Write buf[0, limit) with every value that starts there replaced (a value
 * may run on past limit, up to have); returns how far it got. */
static size_t replace(const unsigned char *buf, size_t limit, size_t have)
{
	size_t i, run;

	for (i = run = 0; i < limit;) {
		const struct value *v;

		if (!starts[buf[i]] || !(v = match(buf + i, have - i))) {
			i++;
			continue;
		}
		put(buf + run, i - run);
		put(v->ph, v->phlen);
		i += v->len;
		run = i;
	}
	put(buf + run, i - run);
	return i;
}

/* in_fd to out, redacted, in one pass through a buffer of fixed size
 * (buf, of CHUNK + maxlen bytes). */
static void redact(size_t maxlen, unsigned char *buf)
{
	/* a value is only looked for where all of it could be in the buffer:
	 * up to maxlen - 1 bytes are kept back for the next read */
	size_t cap = CHUNK + maxlen, have = 0, limit, done;
	int eof = 0;

	setvbuf(out, obuf, _IOFBF, sizeof obuf);
	while (!eof || have) {
		if (!eof)
			eof = fill(buf, cap, &have);
		if (eof)
			limit = have;
		else if (have >= maxlen && have - maxlen + 1 >= CHUNK / 2)
			limit = have - maxlen + 1;
		else
			continue; /* read more first */
		done = replace(buf, limit, have);
		memmove(buf, buf + done, have - done);
		have -= done;
	}
	if (fflush(out) != 0 || ferror(out))
		die(EXIT_FAIL, "cannot write %s:", out_name);
}

int main(int argc, char **argv)
{
	static const struct opt none[] = { OPT_END }; /* files, or stdin and stdout; the environment */
	const char *env;
	unsigned char *buf;
	size_t maxlen;
	int at;

	progname = "redact";
	at = opts_parse(argc, argv, none, OPTS_AFTER, usage);
	if ((argc - at) % 2)
		die(EXIT_USAGE, "unexpected argument '%s': the values come in " ENV_NAME " (try --help)",
		    argv[argc - 1]); /* a file alone: pairs only, IN OUT */
	env = getenv(ENV_NAME);
	if (!env)
		die(EXIT_USAGE, ENV_NAME " is not set (see --help)");
	maxlen = load(xstrdup(env));
	buf = xmalloc(CHUNK + maxlen);
	if (at == argc) {
		out = stdout;
		redact(maxlen, buf);
		return EXIT_OK;
	}
	for (; at < argc; at += 2) {
		in_name = argv[at];
		out_name = argv[at + 1];
		in_fd = open(in_name, O_RDONLY);
		if (in_fd < 0)
			die(EXIT_FAIL, "cannot read %s:", in_name);
		out = fopen(out_name, "w");
		if (!out)
			die(EXIT_FAIL, "cannot write %s:", out_name);
		redact(maxlen, buf);
		if (fclose(out) != 0)
			die(EXIT_FAIL, "cannot write %s:", out_name);
		close(in_fd);
	}
	return EXIT_OK;
}
