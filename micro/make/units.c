/* units.c - the compiled kinds' units, compiled or from a template
 * (units.h). */
#define _POSIX_C_SOURCE 200809L
#include "units.h"
#include "compile.h"
#include "made.h"
#include "newfile.h"
#include "padding.h"
#include "prelaunch.h"
#include "tmplstore.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* A new placeholder plen long, unique to this compile. */
static char *new_placeholder(size_t plen)
{
	char *head = xasprintf("execlag-template:%ld:%llu:", (long)getpid(),
			       (unsigned long long)now_ns());
	size_t hl = strlen(head);
	char *ph = xmalloc(plen + 1);

	memset(ph, 'x', plen);
	memcpy(ph, head, hl < plen ? hl : plen);
	ph[plen] = '\0';
	free(head);
	return ph;
}

/* Where the placeholder, the padding and the build ID are in t's bytes;
 * t->at_nonce is -1 where the placeholder or the padding is not there
 * exactly once. */
static void template_find(struct tmpl *t)
{
	char padhead[64];
	size_t pl;
	uint64_t x;

	t->at_nonce = find_once(t->bytes, t->len, t->ph, t->plen);
	if (t->pad > 0) {
		pl = t->pad < (long)sizeof padhead ? (size_t)t->pad : sizeof padhead;
		x = pad_seed(t->ph);
		pad_fill(&x, padhead, pl);
		t->at_pad = find_once(t->bytes, t->len, padhead, pl);
		if (t->at_pad < 0 || (size_t)t->at_pad + (size_t)t->pad > t->len)
			t->at_nonce = -1;
	}
	t->at_bid = find_build_id(t->bytes, t->len, &t->bidlen);
}

/* The template for units of kind u named as long as stem whose nonces are
 * at most plen long: kept in EXECLAG_TEMPLATES, or compiled (and kept
 * there).  Its placeholder is plen long (so the template is about the size
 * of the longest artifact's own build), unique to the compile, and its
 * file is named PREFIX-tttt, as long as stem (the source's name is in the
 * program's symbols).  0, or -1 where the placeholder or the padding is
 * not in the bytes exactly once (a compiler that splits or repeats them:
 * nothing is kept, the caller compiles). */
static int template_get(enum unit u, const char *stem, size_t plen, struct tmpl *t)
{
	const char *ext = u == U_LIB ? LIB_EXT : "";
	char *tstem = xstrdup(stem), *tpath, *key, *kept = NULL;
	size_t i;
	int fresh = 0;

	for (i = strlen(mk.prefix) + 1; tstem[i]; i++)
		tstem[i] = 't';
	tpath = xasprintf("%s/%s%s", mk.workdir, tstem, ext);
	memset(t, 0, sizeof *t);
	t->plen = plen;
	t->pad = u == U_HOST ? 0 : mk.pad_bytes;
	t->at_pad = -1;
	key = tmplstore_key(u, plen, tstem);
	t->bytes = tmplstore_load(key, plen, &kept, &t->len);
	if (t->bytes) {
		t->ph = kept;
	} else {
		t->ph = new_placeholder(plen);
		compile_units(1, u, 1, tstem, t->ph);
		stop_if_interrupted();
		t->bytes = tmplstore_read(tpath, &t->len);
		if (!t->bytes)
			die(EXIT_FAIL, "cannot read %s:", tpath);
		unlink(tpath);
		fresh = 1;
	}
	template_find(t);
	if (t->at_nonce >= 0 && fresh)
		tmplstore_save(key, t->ph, t->bytes, t->len);
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

/* t's bytes made the unit's with nonce: the nonce over the placeholder
 * (the rest of it NUL, so the program's string is the nonce), its own
 * padding over the template's and its own build ID (from its nonce, as a
 * link of its own gives it) over the template's. */
static void template_fill(struct tmpl *t, const char *nonce)
{
	char bid[64];
	uint64_t x;

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
}

/* A unit's bytes written to a new file and renamed into place at final,
 * as a compiler's output is. */
static void unit_write(const char *final, const char *bytes, size_t len)
{
	char *tmp = xasprintf("%s.tmp", final);
	int fd;

	newfile_refuse(final);
	newfile_refuse(tmp);
	fd = newfile_open(tmp);
	newfile_write(fd, bytes, len, tmp);
	if (fchmod(fd, 0755) != 0)
		die(EXIT_FAIL, "cannot chmod %s:", tmp);
	newfile_close(fd, tmp, 0);
	if (mk.quarantine)
		newfile_quarantine(tmp);
	newfile_publish(tmp, final);
	free(tmp);
}

/* units_in_memory's put for units_from_template: artifact i's file,
 * ext (the unit's file name ending) its ctx */
static void unit_put_file(void *ext, long i, const char *bytes, size_t len)
{
	char *final = slot_path(i, ext);

	unit_write(final, bytes, len);
	free(final);
}

/* Units mk.first .. mk.first+n-1 of kind u (U_EXE or U_LIB) from one
 * template, each a new file; where there is no template, each is
 * compiled. */
static void units_from_template(long n, enum unit u, long njob)
{
	if (units_in_memory(n, u, unit_put_file, (void *)(u == U_LIB ? LIB_EXT : "")) != 0)
		compile_units(n, u, njob, NULL, NULL);
}

int units_in_memory(long n, enum unit u, unit_put *put, void *ctx)
{
	char *stem = slot_stem(mk.first);
	char **nonces = xmalloc((size_t)n * sizeof *nonces);
	size_t plen = 0;
	struct tmpl t;
	long i;
	int ok;

	for (i = 0; i < n; i++) {
		char *s = slot_stem(mk.first + i);

		nonces[i] = make_nonce(s);
		if (strlen(nonces[i]) > plen)
			plen = strlen(nonces[i]);
		free(s);
	}
	ok = template_get(u, stem, template_plen(plen), &t) == 0;
	for (i = 0; i < n; i++) {
		if (ok) {
			stop_if_interrupted();
			template_fill(&t, nonces[i]);
			put(ctx, mk.first + i, t.bytes, t.len);
		}
		free(nonces[i]);
	}
	free(nonces);
	free(stem);
	if (!ok)
		return -1;
	free(t.bytes);
	free(t.ph);
	return 0;
}

/* One unit named stem from its own template; 0, or -1 where there is none. */
static int unit_from_own_template(enum unit u, const char *stem)
{
	char *nonce = make_nonce(stem);
	char *final = xasprintf("%s/%s%s", mk.workdir, stem, u == U_LIB ? LIB_EXT : "");
	struct tmpl t;
	int ok = template_get(u, stem, template_plen(strlen(nonce)), &t) == 0;

	if (ok) {
		stop_if_interrupted();
		template_fill(&t, nonce);
		unit_write(final, t.bytes, t.len);
		free(t.bytes);
		free(t.ph);
	}
	free(final);
	free(nonce);
	return ok ? 0 : -1;
}
#else
int units_in_memory(long n, enum unit u, unit_put *put, void *ctx)
{
	(void)n;
	(void)u;
	(void)put;
	(void)ctx;
	return -1;
}
#endif

void make_units(long n, enum unit u, long njob)
{
#if !defined(__APPLE__)
	if (mk.simulated || mk.from_template) {
		units_from_template(n, u, njob);
		return;
	}
#endif
	compile_units(n, u, njob, NULL, NULL);
}

void make_unit(enum unit u, const char *stem)
{
#if !defined(__APPLE__)
	if (mk.simulated && unit_from_own_template(u, stem) == 0)
		return;
#endif
	compile_units(1, u, 1, stem, NULL);
}

/* Whether the run's placements share one launched base (EXECLAG_SHARED_BASE=1,
 * which make remedies' run sets: docs/remedies.md), so that what they make
 * alike is made once: WORKDIR/shared-base-sPAD, made and launched by the
 * first mkfresh of the run that needs it and taken as it is by the rest.
 * Every placement copies, links or renames from the base and changes only
 * its own slots, never the base. */
static int base_shared(const char *what)
{
	const char *v = getenv("EXECLAG_SHARED_BASE");

	return v && strcmp(v, "1") == 0 && strcmp(what, "base") == 0;
}

/* Where the run's launched unit WHAT is: the shared base where the run's
 * placements share one, else this run's own (run_path).  The manifest's
 * link_from names it too (exe-freshlink's links are made from it). */
char *launched_unit_path(const char *what)
{
	if (base_shared(what))
		return xasprintf("%s/shared-%s-s%ld", mk.workdir, what, mk.pad_bytes);
	return run_path(what);
}

char *launched_unit(enum unit u, const char *what)
{
	char *stem = xasprintf("%s-%s", mk.prefix, what);
	char *path = run_path(what), *shared = NULL;

	if (base_shared(what)) {
		shared = launched_unit_path(what);
		if (is_exec_file(shared)) {
			/* made and launched by an earlier placement of the run */
			free(stem);
			free(path);
			return shared;
		}
	}
	if (mk.first > 0) {
		made_before(path);
	} else {
		make_unit(u, stem);
		stop_if_interrupted();
		/* made as this run's own (a template knows its stem), then
		 * put where the run's next placements find it */
		if (shared && rename(path, shared) != 0)
			die(EXIT_FAIL, "cannot rename %s to %s:", path, shared);
		if (shared) {
			free(path);
			path = shared;
		}
		if (!mk.simulated)
			prelaunch(path);
	}
	free(stem);
	return path;
}
