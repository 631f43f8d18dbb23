/* measurein.c - what a measured command's run left, read (measurein.h). */
#define _POSIX_C_SOURCE 200809L
#include "measurein.h"
#include "conditions.h"
#include "gatelog.h"
#include "jsonnum.h"
#include "manifest.h"
#include "remediesjson.h"
#include "runjson.h"
#include "services.h"
#include "tabfile.h"
#include "util.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_FIELDS 8
#define MAX_PROGRAMS 50    /* the first new programs kept (measure.json) */
#define MAX_SIZED 200000   /* programs whose size is read (logcount's list) */

void measure_init(struct measure *m)
{
	memset(m, 0, sizeof *m);
	m->n.n = -1;
	m->probe.l.median = m->probe.l.low = m->probe.l.high = NAN;
	m->sizes.known = -1;
	m->sizes.probe_bytes = -1;
	m->sizes.reprobe_pad = -1;
	m->at_size.program_bytes = -1;
	m->at_size.l.median = m->at_size.l.low = m->at_size.l.high = NAN;
}

static void free_list(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void measure_free(struct measure *m)
{
	size_t i;

	free(m->cmd.line);
	free(m->cmd.dir);
	free(m->cmd.id);
	conditions_free(m->conds, m->n_conds);
	free(m->n.fan.tree);
	free_list(m->n.fan.fs, m->n.fan.n_fs);
	for (i = 0; i < m->n.fan.n_programs; i++) {
		free(m->n.fan.programs[i].new_by);
		free(m->n.fan.programs[i].path);
	}
	free(m->n.fan.programs);
	free(m->n.log.start);
	free(m->n.log.end);
	free_list(m->n.log.others, m->n.log.n_others);
	free(m->probe.note);
	free(m->probe.run);
	free(m->probe.run_id);
	free(m->probe.launcher);
	free(m->at_size.note);
	free(m->at_size.run_id);
	free(m->remedy.run_id);
	free(m->remedy.placement);
	free(m->remedy.what);
	free(m->gate.latency_ms);
	free(m->gate.workers);
	free(m->gate.key);
	memset(m, 0, sizeof *m);
}

/* ---- the conditions ------------------------------------------------------------ */

int measure_read_conditions(struct measure *m, const char *path)
{
	return conditions_read(path, CONDITIONS_LENIENT, &m->conds, &m->n_conds);
}

const char *measure_condition(const struct measure *m, const char *key)
{
	const char *v = conditions_get(m->conds, m->n_conds, key);

	return v ? v : "";
}

/* ---- execwatch's result: W, the exit, N from the exec listener --------------------- */

/* How the command ended: its status line, and what interrupted it if anything did. */
static void read_status(const struct tabfile *kv, const char *path, struct measure_command *c)
{
	const char *v = tabfile_get(kv, "status");
	long x;

	if (v && strncmp(v, "exit\t", 5) == 0 && parse_long(v + 5, 0, 255, &x) == 0) {
		c->status = (int)x;
	} else if (v && strncmp(v, "signal\t", 7) == 0 && parse_long(v + 7, 1, 127, &x) == 0) {
		c->signal = (int)x;
		c->status = 128 + (int)x;
	} else if (v && strncmp(v, "not-run\t", 8) == 0) {
		c->not_run = 1;
		c->status = strstr(v, "not found") ? 127 : 126;
		snprintf(c->not_run_why, sizeof c->not_run_why, "%s", v + 8);
	} else {
		die(EXIT_FAIL, "%s: no status line", path);
	}
	v = tabfile_get(kv, "interrupted");
	if (v) {
		const char *tab = strchr(v, '\t');

		snprintf(c->interrupted, sizeof c->interrupted, "%.*s",
			 (int)(tab ? (size_t)(tab - v) : strlen(v)), v);
		snprintf(c->interrupted_how, sizeof c->interrupted_how, "%s", tab ? tab + 1 : "");
	}
}

static void push(char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
}

/* The file systems marked ("fs KIND PATH"), and the first new programs
 * launched ("program MS PID HOW PATH"), at most MAX_PROGRAMS. */
static void read_listed(const struct tabfile *kv, struct measure_fanotify *f)
{
	size_t i;

	for (i = 0; i < kv->n; i++) {
		const char *l = kv->lines[i];
		char *fld[MAX_FIELDS], *line;

		if (strncmp(l, "fs\t", 3) == 0)
			push(&f->fs, &f->n_fs, strchr(l + 3, '\t') ? strchr(l + 3, '\t') + 1 : "");
		if (strncmp(l, "program\t", 8) != 0 || f->n_programs >= MAX_PROGRAMS)
			continue;
		line = xstrdup(l);
		if (split_tabs(line, fld, MAX_FIELDS) == 5) {
			struct measure_program *p;

			f->programs = xrealloc(f->programs, (f->n_programs + 1) * sizeof *f->programs);
			p = &f->programs[f->n_programs++];
			p->at_ms = atof(fld[1]);
			p->new_by = xstrdup(fld[3]);
			p->path = xstrdup(fld[4]);
		}
		free(line);
	}
}

/* N from the exec listener's counts, and the counts themselves. */
static void read_fanotify(const struct tabfile *kv, struct measure_n *n)
{
	struct measure_fanotify *f = &n->fan;
	const char *v;

	n->source = M_FANOTIFY;
	n->n = tabfile_long(kv, "fresh_launches", -1);
	n->n_low = n->n;
	n->n_lower = tabfile_long(kv, "overflow", 0) != 0;
	n->have_counts = 1;
	f->fresh_execs = tabfile_long(kv, "fresh_execs", 0);
	f->old_execs = tabfile_long(kv, "old_execs", 0);
	f->outside = tabfile_long(kv, "outside", 0);
	f->unplaced = tabfile_long(kv, "unplaced", 0);
	v = tabfile_get(kv, "tree");
	f->tree = xstrdup(v ? v : "unknown");
	read_listed(kv, f);
	v = tabfile_get(kv, "new_by");
	if (v) {
		f->have_new_by = 1;
		sscanf(v, "%ld\t%ld", &f->new_by_btime, &f->new_by_ctime);
	}
}

void measure_read_watch(struct measure *m, const char *path)
{
	struct tabfile kv;
	const char *v;

	if (tabfile_read(path, "execlag-execwatch\t1", &kv) != 0)
		die(EXIT_FAIL, "%s: not an execwatch result", path);
	m->cmd.wall_s = (double)tabfile_long(&kv, "wall_ns", 0) / 1e9;
	m->cmd.user_s = (double)tabfile_long(&kv, "user_us", 0) / 1e6;
	m->cmd.sys_s = (double)tabfile_long(&kv, "sys_us", 0) / 1e6;
	read_status(&kv, path, &m->cmd);
	v = tabfile_get(&kv, "watch");
	if (m->n.source != M_SOURCE_NONE) {
		/* N comes from the log */
	} else if (!v || strncmp(v, "on", 2) != 0) {
		snprintf(m->n.why, sizeof m->n.why, "%s",
			 v && strncmp(v, "off\t", 4) == 0 ? v + 4 : "no exec listener ran");
	} else {
		read_fanotify(&kv, &m->n);
	}
	tabfile_free(&kv);
}

int measure_watch_sizes(const char *path, long *known, unsigned long long *median,
			unsigned long long *p90, unsigned long long *largest, char *why, size_t len)
{
	struct tabfile kv;
	const char *v;

	*known = -1;
	if (tabfile_read(path, "execlag-execwatch\t1", &kv) != 0) {
		snprintf(why, len, "%s cannot be read", path);
		return -1;
	}
	v = tabfile_get(&kv, "sizes");
	if (!v || sscanf(v, "%ld\t%llu\t%llu\t%llu", known, median, p90, largest) != 4 || *known <= 0) {
		*known = -1;
		v = tabfile_get(&kv, "watch");
		snprintf(why, len, "%s", v && strncmp(v, "on", 2) == 0
			 ? "the command launched no new program" : "no exec listener ran (N is unknown)");
	}
	tabfile_free(&kv);
	return *known > 0 ? 0 : -1;
}

/* ---- logcount's counts: N from the unified log ------------------------------------ */

static char *value_or_empty(const struct tabfile *kv, const char *key)
{
	const char *v = tabfile_get(kv, key);

	return xstrdup(v ? v : "");
}

/* The checks and programs the log counted. */
static void read_log_counts(const struct tabfile *kv, struct measure_logcount *c)
{
	size_t i;

	c->performscan = tabfile_long(kv, "performscan", 0);
	c->outside = tabfile_long(kv, "outside", 0);
	c->inside = tabfile_long(kv, "inside", 0);
	c->unplaced = tabfile_long(kv, "unplaced", 0);
	c->programs = tabfile_long(kv, "programs", 0);
	c->programs_named = tabfile_long(kv, "programs_named", 0);
	c->programs_capped = tabfile_long(kv, "programs_capped", 0) != 0;
	c->scan_complete = tabfile_long(kv, "scan_complete", 0);
	c->evaluate = tabfile_long(kv, "evaluate", 0);
	c->process_assessment = tabfile_long(kv, "process_assessment", 0);
	c->xprotect_results = tabfile_long(kv, "xprotect_results", 0);
	c->scan_s = tabfile_double(kv, "scan_s");
	c->paired = tabfile_long(kv, "paired", 0);
	c->start = value_or_empty(kv, "start");
	c->end = value_or_empty(kv, "end");
	for (i = 0; i < kv->n; i++)
		if (strncmp(kv->lines[i], "other\t", 6) == 0)
			push(&c->others, &c->n_others, kv->lines[i] + 6);
}

void measure_read_logcount(struct measure *m, const char *path)
{
	struct measure_n *n = &m->n;
	struct tabfile kv;
	const char *result, *msg;

	n->source = M_UNIFIED_LOG;
	n->n = -1;
	if (tabfile_read(path, "execlag-logcount\t1", &kv) != 0) {
		snprintf(n->why, sizeof n->why, "the unified log's counts could not be read");
		return;
	}
	result = tabfile_get(&kv, "result");
	msg = tabfile_get(&kv, "message");
	if (!result || strcmp(result, "ok") != 0) {
		if (result && strcmp(result, "refused") == 0)
			snprintf(n->why, sizeof n->why, "log show refused: %s", msg ? msg : "no message");
		else
			snprintf(n->why, sizeof n->why, "%s", msg ? msg : "log show was not run");
		tabfile_free(&kv);
		return;
	}
	n->n = tabfile_long(&kv, "checks", -1);
	/* the low end: the checks whose program the log names in the command's
	 * folders; the high end adds those it names none for (the command's,
	 * or the background's: docs/measure.md) */
	n->n_low = tabfile_long(&kv, "inside", -1);
	if (n->n_low < 0 || n->n_low > n->n)
		n->n_low = n->n;
	n->have_counts = 1;
	read_log_counts(&kv, &n->log);
	tabfile_free(&kv);
}

/* ---- the probe runs: L, and whether checks queue ------------------------------------ */

int measure_load_run(const char *run, struct runjson *r)
{
	char *path = xasprintf("%s/run.json", run), why[8];
	int rc = runjson_read(r, path, RUNJSON_SKIP | RUNJSON_NO_CASES_OK, why, sizeof why);

	free(path);
	return rc;
}

static char *str_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

int measure_read_remedy(struct measure *m, const char *run)
{
	struct measure_remedy *rm = &m->remedy;
	struct runjson r;
	struct remedies t;
	char why[256];
	int rc;

	if (measure_load_run(run, &r) != 0)
		return 0;
	rc = remediesjson_read(r.json, &t, why, sizeof why);
	if (rc == 1) {
		rm->have_run = 1;
		rm->run_id = str_or_null(r.run_id);
		rm->cost = rm->low = rm->high = NAN;
		if (t.use) {
			rm->placement = xstrdup(t.use->name);
			rm->what = xstrdup(t.use->what);
			rm->cost = t.use->cost_ms;
			rm->low = t.use->cost_low;
			rm->high = t.use->cost_high;
		}
		remediesjson_free(&t);
	}
	runjson_free(&r);
	return rc == 1;
}

/* L with its interval and its reason, as analyze decided it on an exe case. */
static void read_penalty(const json_t *c, struct measure_penalty *l)
{
	const char *v = rj_str(c, "verdict");

	l->median = rj_penalty(c, "median");
	l->low = rj_penalty(c, "ci_low");
	l->high = rj_penalty(c, "ci_high");
	l->verdict = !v ? M_UNKNOWN : strcmp(v, "slowdown") == 0 ? M_SLOWDOWN :
		     strcmp(v, "none") == 0 ? M_NONE : strcmp(v, "inconclusive") == 0 ? M_INCONCLUSIVE : M_UNKNOWN;
	if (l->verdict == M_SLOWDOWN && (isnan(l->median) || isnan(l->low) || isnan(l->high)))
		l->verdict = M_INCONCLUSIVE;
	v = rj_str(c, "reason");
	snprintf(l->reason, sizeof l->reason, "%s", v ? v : "");
}

static void set_note(char **note, const char *why)
{
	free(*note);
	*note = xstrdup(why);
}

void measure_read_probe(struct measure *m, const char *run, enum m_how how, const char *note)
{
	struct measure_probe *p = &m->probe;
	struct runjson r;
	const json_t *c;
	const char *v;

	p->how = how;
	p->note = str_or_null(note);
	p->note_given = note != NULL;
	if (!run)
		return;
	if (measure_load_run(run, &r) != 0) {
		p->state = M_PROBE_UNREADABLE;
		p->how = M_HOW_FAILED;
		set_note(&p->note, "its run.json could not be read");
		return;
	}
	p->run_id = str_or_null(rj_str(r.json, "run_id"));
	p->run = xstrdup(run);
	v = runjson_condition(&r, "launcher");
	p->launcher = xstrdup(v ? v : "spawn");
	p->simulated = v && strncmp(v, "sim", 3) == 0;
	c = rj_case(&r, "exe");
	if (!c) {
		p->state = M_PROBE_NO_EXE;
		set_note(&p->note, "the run has no exe case");
	} else {
		p->state = M_PROBE_READ;
		read_penalty(c, &p->l);
		v = rj_str(c, "serialisation");
		p->queue = v && strcmp(v, "serialised") == 0 ? M_SERIALISED :
			   v && strcmp(v, "parallel") == 0 ? M_PARALLEL : M_UNDETERMINED;
		v = rj_str(c, "serialisation_reason");
		snprintf(p->queue_reason, sizeof p->queue_reason, "%s", v ? v : "");
	}
	runjson_free(&r);
}

void measure_read_size_probe(struct measure *m, const char *run, const char *how, const char *note)
{
	struct measure_at_size *z = &m->at_size;
	struct runjson r;
	const json_t *c = NULL;

	if (m->sizes.reprobe_pad <= 0)
		return;
	z->due = 1;
	z->pad = m->sizes.reprobe_pad;
	z->pad_capped = m->sizes.reprobe_capped;
	z->how = how ? (strcmp(how, "ran") == 0 ? M_HOW_RAN : M_HOW_FAILED) : run ? M_HOW_RAN : M_HOW_FAILED;
	z->note = str_or_null(note);
	z->note_given = note != NULL;
	if (run && measure_load_run(run, &r) == 0) {
		z->read = 1;
		z->run_id = str_or_null(rj_str(r.json, "run_id"));
		z->program_bytes = measure_probe_bytes(run, 1);
		if ((c = rj_case(&r, "exe")) != NULL)
			read_penalty(c, &z->l);
		runjson_free(&r);
	}
	if (!c && run && !note) {
		z->how = M_HOW_FAILED;
		set_note(&z->note, z->read ? "the run has no exe case" : "its run.json could not be read");
	}
}

/* RUN/raw/exe-t1-CLASS[-sSIZE].manifest: mkfresh's manifests of the exe case
 * at T=1 (not the reference's .ref.manifest). */
static int is_exe_t1_manifest(const char *name)
{
	size_t len = strlen(name);

	return strncmp(name, "exe-t1-", 7) == 0 && len >= 9 &&
	       strcmp(name + len - 9, ".manifest") == 0 && !strstr(name, ".ref.");
}

long measure_probe_bytes(const char *run, int padded)
{
	char *raw = xasprintf("%s/raw", run);
	DIR *d = opendir(raw);
	struct dirent *e;
	long found = -1;

	while (d && found < 0 && (e = readdir(d)) != NULL) {
		char *path;
		long pad, bytes;

		if (!is_exe_t1_manifest(e->d_name))
			continue;
		path = xasprintf("%s/%s", raw, e->d_name);
		if (manifest_sizes(path, &pad, &bytes) == 0 && bytes > 0 && (padded ? pad > 0 : pad == 0))
			found = bytes;
		free(path);
	}
	if (d)
		closedir(d);
	free(raw);
	return found;
}

/* ---- the new programs' sizes ------------------------------------------------------- */

size_t measure_listed_sizes(const char *list, uint64_t **v, long *gone)
{
	FILE *f = fopen(list, "r");
	char *buf = NULL, *line;
	size_t cap = 0, n = 0, vcap = 0;

	*v = NULL;
	*gone = 0;
	if (!f)
		return 0;
	while ((line = read_line(f, &buf, &cap)) != NULL && n + (size_t)*gone < MAX_SIZED) {
		struct stat st;

		strip_eol(line);
		if (!line[0])
			continue;
		if (stat(line, &st) != 0 || !S_ISREG(st.st_mode)) {
			(*gone)++;
			continue;
		}
		if (n == vcap) {
			vcap = vcap ? vcap * 2 : 256;
			*v = xrealloc(*v, vcap * sizeof **v);
		}
		(*v)[n++] = (uint64_t)st.st_size;
	}
	fclose(f);
	free(buf);
	return n;
}

void measure_read_sizes(struct measure *m, const char *path)
{
	struct measure_sizes *s = &m->sizes;
	struct tabfile kv;
	const char *v;

	if (!path || tabfile_read(path, "execlag-sizes\t1", &kv) != 0) {
		snprintf(s->why, sizeof s->why, "not read");
		return;
	}
	s->known = tabfile_long(&kv, "known", -1);
	s->gone = tabfile_long(&kv, "gone", 0);
	if ((v = tabfile_get(&kv, "median")))
		s->median = strtoull(v, NULL, 10);
	if ((v = tabfile_get(&kv, "p90")))
		s->p90 = strtoull(v, NULL, 10);
	if ((v = tabfile_get(&kv, "largest")))
		s->largest = strtoull(v, NULL, 10);
	s->probe_bytes = tabfile_long(&kv, "probe_bytes", -1);
	s->reprobe_pad = tabfile_long(&kv, "reprobe_pad", -1);
	s->reprobe_capped = tabfile_long(&kv, "reprobe_capped", 0) != 0;
	v = tabfile_get(&kv, "why");
	snprintf(s->why, sizeof s->why, "%s", v ? v : "");
	tabfile_free(&kv);
}

/* ---- the services, the gate ---------------------------------------------------------- */

void measure_read_services(struct measure *m, const char *path)
{
	struct measure_services *ms = &m->services;
	struct svc_sample before, after;
	struct svc_total tot[N_SERVICES];
	int i, rc;

	if (!path) {
		snprintf(ms->why, sizeof ms->why, "not sampled: the assessment services are macOS's (this is %s)",
			 measure_condition(m, "os")[0] ? measure_condition(m, "os") : "unknown");
		return;
	}
	memset(&before, 0, sizeof before);
	memset(&after, 0, sizeof after);
	memset(tot, 0, sizeof tot);
	rc = services_read(path, "measure", &before, &after, ms->why, sizeof ms->why);
	if (rc == 1)
		snprintf(ms->why, sizeof ms->why, "not sampled");
	if (rc == 0) {
		services_add(tot, &before, &after);
		ms->sampled = 1;
		ms->why[0] = '\0';
		for (i = 0; i < N_SERVICES && i < MEASURE_SERVICES; i++) {
			ms->s[i].name = service_names[i];
			/* to the hundredth, as the measure reports it */
			ms->s[i].cpu_s = tot[i].unknown ? NAN : round(tot[i].cpu_s * 100) / 100;
			ms->s[i].instances = tot[i].instances;
			ms->s[i].ended = tot[i].ended;
		}
	}
	services_free(&before);
	services_free(&after);
}

void measure_read_gate(struct measure *m, const char *log)
{
	struct measure_gate *g = &m->gate;
	char why[256];
	int rc;

	if (!log || strcmp(measure_condition(m, "gate.active"), "1") != 0)
		return;
	g->active = 1;
	g->latency_ms = xstrdup(measure_condition(m, "gate.latency_ms"));
	g->workers = xstrdup(measure_condition(m, "gate.workers"));
	g->key = xstrdup(measure_condition(m, "gate.key"));
	rc = gatelog_read(log, &g->held, why, sizeof why);
	g->read = rc == 0;
	if (rc == -1)
		snprintf(g->why, sizeof g->why, "cannot be read: %s", why);
	else if (rc != 0)
		snprintf(g->why, sizeof g->why, "is not the gate's: %s", why);
}
