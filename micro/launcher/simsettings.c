/* simsettings.c - the simulator's settings (sim.h): their defaults, the
 * words of a "sim:NAME=VALUE ..." launcher (through its one parser,
 * launcherspec.h), each checked here in its own words, the base costs read
 * from a fit, and the settings written back in their canonical order. */
#if defined(__APPLE__)
#define _DARWIN_C_SOURCE /* _SC_NPROCESSORS_ONLN */
#endif
#define _POSIX_C_SOURCE 200809L
#include "sim.h"
#include "launcherspec.h"
#include "util.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The base costs built in: analyze --simfit on a quick run of every case at
 * T = 1 and 2 with 40 artifacts, on the kit's machine (2 cores, Linux;
 * docs/method.md, "The simulator"). */
#include "simbase.h"

static const char *const key_names[SIM_KEYS] = { "inode", "path", "content", "inode-mtime" };

static long online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? n : 1;
}

static int fail(char *err, size_t len, const char *fmt, const char *a, const char *b)
{
	snprintf(err, len, fmt, a, b);
	return -1;
}

static int parse_fit(struct sim_params *p, const char *text, const char *from, char *err,
		     size_t errlen);
static int sim_defaults_parse(struct sim_params *p, char *err, size_t errlen);

/* The settings that are one number in a range: where each goes, and the
 * range its error names. */
static const struct num_setting {
	const char *name;
	size_t off;        /* in struct sim_params */
	int whole;         /* a long, else a double */
	double lo, hi;
	const char *what;  /* "a number of ms from 0 to 60000" */
} num_settings[] = {
	{ "latency", offsetof(struct sim_params, latency_ms), 0, 0, 60000, "a number of ms from 0 to 60000" },
	{ "workers", offsetof(struct sim_params, workers), 1, 1, 64, "a whole number from 1 to 64" },
	{ "every", offsetof(struct sim_params, every_ms), 0, 0, 60000, "a number of ms from 0 to 60000" },
	{ "per_mb", offsetof(struct sim_params, per_mb_ms), 0, 0, 60000, "a number of ms from 0 to 60000" },
	{ "jitter", offsetof(struct sim_params, jitter), 0, 0, 3, "a number from 0 to 3" },
	{ "corr", offsetof(struct sim_params, corr), 0, 0, 0.99, "a number from 0 to 0.99" },
	{ "burst_x", offsetof(struct sim_params, burst_x), 0, 1, 100, "a number from 1 to 100" },
	{ "cpus", offsetof(struct sim_params, cpus), 1, 1, 1024, "a whole number from 1 to 1024" },
	{ "wedge", offsetof(struct sim_params, wedge), 1, 0, 1000000, "a whole number from 0 to 1000000" },
	{ "storm", offsetof(struct sim_params, storm), 1, 0, 100000, "a whole number of lines a second from 0 to 100000" },
	{ "kill", offsetof(struct sim_params, kill), 0, 0, 1, "a share from 0 to 1" },
};

/* sim_defaults: P as a spec without settings leaves it.  The built-in fit
 * is parsed once a process and copied after (simrate parses a spec a run:
 * the parse was most of its time); sim_params holds no pointers. */
static int sim_defaults(struct sim_params *p, char *err, size_t errlen)
{
	static struct sim_params parsed;
	static int have;

	if (!have) {
		if (sim_defaults_parse(&parsed, err, errlen) != 0)
			return -1;
		have = 1;
	}
	*p = parsed;
	return 0;
}

static int sim_defaults_parse(struct sim_params *p, char *err, size_t errlen)
{
	int k;

	memset(p, 0, sizeof *p);
	p->workers = 1;
	p->key = SIM_KEY_INODE;
	p->burst_x = 2.0;
	p->corr = -1; /* the fit's */
	p->cpus = online_cpus();
	p->seed = 1;
	if (parse_fit(p, sim_default_fit, "the built-in fit", err, errlen) != 0)
		return -1;
	/* a kind the built-in fit has no rows of launches like exe until a
	 * machine's are measured (quarantined: no Mac's fit yet) */
	for (k = 0; k < SIM_KINDS; k++)
		if (p->base[k].n == 0)
			p->base[k] = p->base[K_EXE];
	snprintf(p->base_from, sizeof p->base_from, "default");
	return 0;
}

/* set_number: NAME=V for a setting of num_settings: 0, or -1 with ERR; 1
 * when NAME is none of them. */
static int set_number(struct sim_params *p, const char *name, const char *v, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < sizeof num_settings / sizeof num_settings[0]; i++) {
		const struct num_setting *ns = &num_settings[i];
		void *at = (char *)p + ns->off;
		int bad;

		if (strcmp(name, ns->name) != 0)
			continue;
		bad = ns->whole ? parse_long(v, (long)ns->lo, (long)ns->hi, at)
				: parse_double(v, ns->lo, ns->hi, at);
		if (bad)
			snprintf(err, errlen, "sim %s '%s' is not %s", ns->name, v, ns->what);
		return bad ? -1 : 0;
	}
	return 1;
}

/* set_word: NAME=V for the settings that are words (key, on, exempt,
 * bursts, exhausted, seed, base): 0, or -1 with ERR; 1 when NAME is none of them. */
static int set_word(struct sim_params *p, const char *name, const char *v, char *err, size_t errlen)
{
	long n;
	int k;

	if (strcmp(name, "key") == 0) {
		for (k = 0; k < SIM_KEYS && strcmp(v, key_names[k]) != 0; k++)
			;
		if (k == SIM_KEYS)
			return fail(err, errlen, "sim key '%s' is not one of inode, path, content, inode-mtime%s", v, "");
		p->key = (enum sim_key)k;
	} else if (strcmp(name, "on") == 0) {
		if (strcmp(v, "exec") != 0 && strcmp(v, "open") != 0)
			return fail(err, errlen, "sim on '%s' is not exec or open%s", v, "");
		p->on_open = v[0] == 'o';
	} else if (strcmp(name, "exempt") == 0 || strcmp(name, "bursts") == 0 ||
		   strcmp(name, "exhausted") == 0) {
		if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
			return fail(err, errlen, "sim %s '%s' is not 0 or 1", name, v);
		*(name[0] == 'b' ? &p->bursts : name[2] == 'e' ? &p->exempt : &p->exhausted) = v[0] == '1';
	} else if (strcmp(name, "seed") == 0) {
		if (parse_long(v, 0, 2147483647L, &n) != 0)
			return fail(err, errlen, "sim seed '%s' is not a whole number from 0 to 2147483647%s", v, "");
		p->seed = (uint64_t)n;
	} else if (strcmp(name, "base") == 0) {
		if (strcmp(v, "default") != 0) /* the costs built in */
			return sim_load_base(p, v, err, errlen);
	} else {
		return 1;
	}
	return 0;
}

/* sim_setting: one NAME=VALUE word of a spec into P (TOK, whose first
 * NAME_LEN chars are its name: launcher_next_setting); SEEN holds the
 * names set so far, " a b ", so that none is set twice. */
static int sim_setting(struct sim_params *p, const char *tok, size_t name_len, char *seen,
		       size_t seenlen, char *err, size_t errlen)
{
	const char *v;
	char name[40];
	int rc;

	if (name_len == 0 || tok[name_len] != '=' || name_len >= sizeof name)
		return fail(err, errlen, "sim setting '%s' is not NAME=VALUE%s", tok, "");
	memcpy(name, tok, name_len);
	name[name_len] = '\0';
	v = tok + name_len + 1;
	if (strlen(seen) + strlen(name) + 2 < seenlen) {
		char pat[48];

		snprintf(pat, sizeof pat, " %s ", name);
		if (strstr(seen, pat))
			return fail(err, errlen, "sim sets %s twice%s", name, "");
		strcat(seen, name);
		strcat(seen, " ");
	}
	if ((rc = set_number(p, name, v, err, errlen)) != 1 || (rc = set_word(p, name, v, err, errlen)) != 1)
		return rc;
	return fail(err, errlen,
		    "sim setting '%s' is unknown (use latency workers key on every per_mb "
		    "exempt bursts burst_x cpus seed base corr jitter wedge exhausted storm kill)%s", name, "");
}

/* The words of spec through the one parser of a launcher's settings
 * (launcherspec.h); each checked and set here. */
int sim_parse(const char *spec, struct sim_params *p, char *err, size_t errlen)
{
	const char *at = spec ? spec : "";
	struct launcher_word w;
	char seen[512] = " ";
	int rc = sim_defaults(p, err, errlen);

	while (rc == 0 && launcher_next_setting(&at, &w)) {
		char *tok = xasprintf("%.*s", (int)w.len, w.at);

		rc = sim_setting(p, tok, w.name_len, seen, sizeof seen, err, errlen);
		free(tok);
	}
	return rc;
}

/* The fit lines of text (after its first line) into p.  Which kinds the
 * text fits is a bit each in an int. */
_Static_assert(SIM_KINDS < 31, "parse_fit keeps a bit a kind in an int");
static int parse_fit(struct sim_params *p, const char *text, const char *from, char *err,
		     size_t errlen)
{
	char *copy = xstrdup(text), *line, *save = NULL;
	long n = 0;
	int got = 0;

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *fld[4], *q, *qsave = NULL;
		struct sim_fit fit;
		int nf, k, j = 0;

		n++;
		if (n == 1 && strcmp(line, "execlag-simbase\t1") == 0)
			continue;
		if (n == 1) {
			snprintf(err, errlen, "sim base: %s is not a fit (first line 'execlag-simbase<TAB>1')", from);
			free(copy);
			return -1;
		}
		if (line[0] == '#')
			continue;
		nf = split_tabs(line, fld, 4);
		if (nf == 2 && strcmp(fld[0], "correlation") == 0) {
			if (parse_double(fld[1], 0, 0.99, &p->fit_corr) != 0)
				goto bad;
			continue;
		}
		k = nf == 3 ? sim_kind(fld[0]) : -1;
		if (k < 0 || parse_long(fld[1], 1, 1024, &fit.threads) != 0)
			goto bad;
		for (q = strtok_r(fld[2], ",", &qsave); q && j < SIM_QUANTILES; q = strtok_r(NULL, ",", &qsave), j++)
			if (parse_double(q, 0.001, 60000, &fit.q[j]) != 0 || (j > 0 && fit.q[j] < fit.q[j - 1]))
				goto bad;
		if (j != SIM_QUANTILES || q)
			goto bad;
		if (got == 0 || !(got & (1 << k))) /* a kind the file fits replaces the default */
			p->base[k].n = 0;
		got |= 1 << k;
		if (sim_base_add(&p->base[k], &fit) != 0)
			goto bad;
		continue;
bad:
		snprintf(err, errlen, "sim base: %s:%ld: want KIND<TAB>THREADS<TAB>%d ascending quantiles in ms, comma-separated, or correlation<TAB>R",
			 from, n, SIM_QUANTILES);
		free(copy);
		return -1;
	}
	free(copy);
	if (!got) {
		snprintf(err, errlen, "sim base: %s fits no kind", from);
		return -1;
	}
	return 0;
}

int sim_load_base(struct sim_params *p, const char *path, char *err, size_t errlen)
{
	FILE *f;
	char *buf = NULL, *text = NULL;
	size_t cap = 0, len = 0;
	int rc;

	if (!*path)
		return fail(err, errlen, "sim base needs the path of a fit (analyze --simfit)%s%s", "", "");
	f = fopen(path, "r");
	if (!f)
		return fail(err, errlen, "sim base: cannot read %s%s", path, "");
	while (read_line(f, &buf, &cap)) {
		size_t l = strlen(buf);

		text = xrealloc(text, len + l + 2);
		memcpy(text + len, buf, l);
		len += l;
		text[len++] = '\n';
		text[len] = '\0';
		if (len > 1 << 20)
			break;
	}
	fclose(f);
	free(buf);
	rc = parse_fit(p, text ? text : "", path, err, errlen);
	free(text);
	if (rc == 0)
		snprintf(p->base_from, sizeof p->base_from, "%s", path);
	return rc;
}

void sim_describe(const struct sim_params *p, char *buf, size_t len)
{
	char jit[120] = "";

	if (p->jitter > 0) /* the gate has none: said only where set */
		snprintf(jit, sizeof jit, " jitter=%g", p->jitter);
	if (p->wedge > 0) /* likewise: a wedged checker only where asked for */
		snprintf(jit + strlen(jit), sizeof jit - strlen(jit), " wedge=%ld", p->wedge);
	if (p->exhausted) /* and a sick one (issue 43) */
		snprintf(jit + strlen(jit), sizeof jit - strlen(jit), " exhausted=1");
	if (p->storm > 0)
		snprintf(jit + strlen(jit), sizeof jit - strlen(jit), " storm=%ld", p->storm);
	if (p->kill > 0) /* and a checker that refuses */
		snprintf(jit + strlen(jit), sizeof jit - strlen(jit), " kill=%g", p->kill);
	snprintf(buf, len,
		 "latency=%g workers=%ld key=%s on=%s every=%g per_mb=%g exempt=%d bursts=%d "
		 "burst_x=%g cpus=%ld seed=%llu base=%s corr=%g%s",
		 p->latency_ms, p->workers, key_names[p->key], p->on_open ? "open" : "exec",
		 p->every_ms, p->per_mb_ms, p->exempt, p->bursts, p->burst_x, p->cpus,
		 (unsigned long long)p->seed, p->base_from, sim_corr(p), jit);
}
