/* util.c - error reporting, parsing, clock and atomic writes. */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

const char *progname = "execlag";

static void vreport(const char *fmt, va_list ap)
{
	int saved = errno;
	size_t len = strlen(fmt);

	fprintf(stderr, "%s: ", progname);
	vfprintf(stderr, fmt, ap);
	if (len > 0 && fmt[len - 1] == ':')
		fprintf(stderr, " %s", strerror(saved));
	fputc('\n', stderr);
}

void die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
	exit(status);
}

void warnx_(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die(EXIT_FAIL, "out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die(EXIT_FAIL, "out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	int n;
	char *s;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die(EXIT_FAIL, "cannot format a string");
	s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

const char *num2(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (snprintf(buf, len, "%.2f", v) > 0 && strcmp(buf, "-0.00") == 0)
		snprintf(buf, len, "0.00"); /* a value that rounds to zero has no sign */
	return buf;
}

const char *size_text(long bytes, char *buf, size_t len)
{
	if (bytes >= 1048576L && bytes % 1048576L == 0)
		snprintf(buf, len, "%ld MiB", bytes / 1048576L);
	else if (bytes >= 1048576L)
		snprintf(buf, len, "%.1f MiB", (double)bytes / 1048576.0);
	else if (bytes >= 1024 && bytes % 1024 == 0)
		snprintf(buf, len, "%ld KiB", bytes / 1024);
	else if (bytes >= 1024)
		snprintf(buf, len, "%.1f KiB", (double)bytes / 1024.0);
	else
		snprintf(buf, len, "%ld B", bytes);
	return buf;
}

int launcher_is_sim(const char *launcher)
{
	return launcher && strncmp(launcher, "sim", 3) == 0 &&
	       (launcher[3] == ':' || launcher[3] == '\0');
}

const char *launcher_setting(const char *launcher, const char *name, char *buf, size_t len)
{
	size_t n = strlen(name);
	const char *p;

	if (!launcher_is_sim(launcher) || len == 0)
		return NULL;
	for (p = launcher + 3; *p;) {
		size_t w;

		while (*p == ':' || *p == ' ' || *p == '\t')
			p++;
		w = strcspn(p, " \t");
		if (w > n && strncmp(p, name, n) == 0 && p[n] == '=') {
			size_t v = w - n - 1;

			if (v >= len)
				v = len - 1;
			memcpy(buf, p + n + 1, v);
			buf[v] = '\0';
			return buf;
		}
		p += w;
	}
	return NULL;
}

int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !(v >= min && v <= max))
		return -1;
	*out = v;
	return 0;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int split_tabs(char *line, char **fields, int max)
{
	int n = 0;
	size_t len = strlen(line);

	if (len > 0 && line[len - 1] == '\n')
		line[--len] = '\0';
	if (len > 0 && line[len - 1] == '\r')
		line[--len] = '\0';
	while (n < max) {
		fields[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

void strip_eol(char *line)
{
	size_t n = strlen(line);

	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
}

char *read_line(FILE *f, char **buf, size_t *cap)
{
	size_t len = 0;
	int c;

	if (!*buf) {
		*cap = 256;
		*buf = xmalloc(*cap);
	}
	while ((c = getc(f)) != EOF) {
		if (len + 2 > *cap) {
			*cap *= 2;
			*buf = xrealloc(*buf, *cap);
		}
		(*buf)[len++] = (char)c;
		if (c == '\n')
			break;
	}
	if (len == 0)
		return NULL;
	(*buf)[len] = '\0';
	return *buf;
}

int each_line(const char *path, int (*fn)(char *line, void *ctx), void *ctx)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL, *line;
	size_t cap = 0;

	if (!f)
		return -1;
	while ((line = read_line(f, &buf, &cap)) != NULL) {
		strip_eol(line);
		if (fn(line, ctx) != 0)
			break;
	}
	fclose(f);
	free(buf);
	return 0;
}

char *parent_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *d;

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	d = xstrdup(path);
	d[slash - path] = '\0';
	return d;
}

/* Less than this free is full: a failed linker has removed its output by
 * the time we look, and what it freed is no more than that. */
#define FS_FULL_BYTES (1024.0 * 1024.0)

int fs_full(const char *dir)
{
	struct statvfs sv;

	if (statvfs(dir, &sv) != 0)
		return 0;
	return (double)sv.f_bavail * (double)sv.f_frsize < FS_FULL_BYTES ||
	       (sv.f_files > 0 && sv.f_favail == 0);
}

void die_if_full(int status, const char *dir)
{
	int e = errno;

#ifdef EDQUOT
	if (e == EDQUOT)
		e = ENOSPC;
#endif
	/* no errno (a stdio or library failure): the disk decides */
	if (e == ENOSPC || (e == 0 && fs_full(dir)))
		die(status, "no space left in %s", dir);
	errno = e;
}

void die_if_compile_full(int status, const char *workdir)
{
	const char *tmpdir = getenv("TMPDIR");

	if (fs_full(workdir))
		die(status, "no space left in %s", workdir);
	if (!tmpdir || !*tmpdir)
		tmpdir = "/tmp";
	if (fs_full(tmpdir))
		die(status, "no space left in %s (the compiler's temporaries)", tmpdir);
}

int atomic_open(struct atomic_file *af, const char *path)
{
	size_t n = strlen(path) + 16;
	int fd;

	af->path = xstrdup(path);
	af->tmp = xmalloc(n);
	snprintf(af->tmp, n, "%s.tmp.XXXXXX", path);
	fd = mkstemp(af->tmp);
	if (fd < 0) {
		free(af->path);
		free(af->tmp);
		af->path = af->tmp = NULL;
		return -1;
	}
	fchmod(fd, 0644);
	fcntl(fd, F_SETFD, FD_CLOEXEC); /* not for the programs a writer launches */
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		close(fd);
		unlink(af->tmp);
		return -1;
	}
	return 0;
}

int atomic_commit(struct atomic_file *af)
{
	int rc = 0;

	if (fflush(af->fp) != 0 || ferror(af->fp) || fsync(fileno(af->fp)) != 0)
		rc = -1;
	if (fclose(af->fp) != 0)
		rc = -1;
	af->fp = NULL;
	if (rc == 0 && rename(af->tmp, af->path) != 0)
		rc = -1;
	if (rc != 0) {
		int e = errno; /* the caller reports why */

		unlink(af->tmp);
		errno = e;
	}
	free(af->tmp);
	free(af->path);
	af->tmp = af->path = NULL;
	return rc;
}

void atomic_abort(struct atomic_file *af)
{
	int e = errno; /* the caller reports why */

	if (af->fp)
		fclose(af->fp);
	if (af->tmp)
		unlink(af->tmp);
	free(af->tmp);
	free(af->path);
	af->fp = NULL;
	af->tmp = af->path = NULL;
	errno = e;
}

int is_exec_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int find_in_path(const char *prog)
{
	const char *path = getenv("PATH"), *p, *end;
	int found = 0;

	if (strchr(prog, '/'))
		return is_exec_file(prog);
	if (!path || !*path)
		path = "/usr/bin:/bin";
	for (p = path;; p = end + 1) {
		size_t len;
		char *cand;

		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		len = (size_t)(end - p);
		cand = len ? xasprintf("%.*s/%s", (int)len, p, prog) : xasprintf("./%s", prog);
		found = is_exec_file(cand);
		free(cand);
		if (found || !*end)
			break;
	}
	return found;
}

char **split_blanks(const char *s, const char *dflt, int extra, int *argc)
{
	char *copy, *tok, *save = NULL, **v;
	int n = 0;

	if (!s)
		s = "";
	copy = xstrdup(s);
	v = xmalloc((strlen(s) / 2 + 2 + (size_t)extra) * sizeof *v);
	for (tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
		v[n++] = tok;
	if (n == 0)
		v[n++] = xstrdup(dflt);
	v[n] = NULL;
	*argc = n;
	return v;
}

void spawn_outcome(int err, int st, int *exit_status, int *sig)
{
	*exit_status = -1;
	*sig = 0;
	if (err == 0 && WIFEXITED(st))
		*exit_status = WEXITSTATUS(st);
	else if (err == 0 && WIFSIGNALED(st))
		*sig = WTERMSIG(st);
}

void catch_signals(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void size_summary(uint64_t *v, size_t n, uint64_t *median, uint64_t *p90, uint64_t *largest)
{
	size_t r;

	*median = *p90 = *largest = 0;
	if (n == 0)
		return;
	qsort(v, n, sizeof *v, u64_cmp);
	*median = n % 2 ? v[n / 2] : v[n / 2 - 1] / 2 + v[n / 2] / 2 + (v[n / 2 - 1] % 2 + v[n / 2] % 2) / 2;
	r = (n * 9 + 9) / 10; /* ceil(0.9 n) */
	*p90 = v[(r ? r : 1) - 1];
	*largest = v[n - 1];
}
