/* services.c - the services files scripts/probe/services writes (services.h;
 * docs/formats.md, "Services"): their before and after samples, and the CPU
 * each service used between them. */
#define _POSIX_C_SOURCE 200809L
#include "services.h"
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 8

/* The order scripts/probe/services prints them in. */
const char *const service_names[N_SERVICES] = {
	"syspolicyd", "XprotectService", "amfid", "trustd", "mdworker_shared"
};

int service_index(const char *name)
{
	int i;

	for (i = 0; i < N_SERVICES; i++)
		if (strcmp(service_names[i], name) == 0)
			return i;
	return -1;
}

/* The first problem is the one reported. */
static void set_why(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why[0])
		return;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

void services_free(struct svc_sample *s)
{
	int i;

	for (i = 0; i < N_SERVICES; i++)
		free(s->procs[i]);
	memset(s, 0, sizeof *s);
}

/* "168=555.14,612=?" or "-": the processes of one service. */
static int parse_procs(char *list, struct svc_sample *s, int svc)
{
	char *item, *save = NULL, *eq;
	struct svc_proc p;
	long pid;

	if (strcmp(list, "-") == 0)
		return 0;
	for (item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		eq = strchr(item, '=');
		if (!eq)
			return -1;
		*eq = '\0';
		if (parse_long(item, 0, 1000000000L, &pid) != 0)
			return -1;
		p.pid = pid;
		p.known = strcmp(eq + 1, "?") != 0;
		p.cpu_s = 0;
		if (p.known && parse_double(eq + 1, 0, 1e9, &p.cpu_s) != 0)
			return -1;
		s->procs[svc] = xrealloc(s->procs[svc], (s->n[svc] + 1) * sizeof p);
		s->procs[svc][s->n[svc]++] = p;
	}
	return 0;
}

/* 0: both samples read; 1: no such file; -1: unusable, why says so. */
int services_read(const char *path, const char *name, struct svc_sample *before,
		  struct svc_sample *after, char *why, size_t whylen)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL, *line, *fld[MAX_FIELDS];
	size_t cap = 0;
	long lineno = 0;
	int nf, rc = 0, svc;
	struct svc_sample *s;

	if (!f) {
		if (errno == ENOENT)
			return 1;
		set_why(why, whylen, "%s.services.tsv: cannot open: %s", name, strerror(errno));
		return -1;
	}
	while (rc == 0 && (line = read_line(f, &buf, &cap)) != NULL) {
		lineno++;
		strip_eol(line);
		nf = split_tabs(line, fld, MAX_FIELDS);
		if (lineno == 1) {
			if (nf != 2 || strcmp(fld[0], "execlag-services") != 0 || strcmp(fld[1], "1") != 0) {
				set_why(why, whylen, "%s.services.tsv:1: not a services file", name);
				rc = -1;
			}
			continue;
		}
		if (nf < 2 || (strcmp(fld[0], "sample") != 0 && strcmp(fld[0], "service") != 0 &&
			       strcmp(fld[0], "error") != 0))
			continue; /* a newer writer's record */
		if (strcmp(fld[1], "before") == 0)
			s = before;
		else if (strcmp(fld[1], "after") == 0)
			s = after;
		else
			continue;
		if (strcmp(fld[0], "sample") == 0) {
			s->present = 1;
		} else if (strcmp(fld[0], "error") == 0) {
			set_why(why, whylen, "ps could not be read %s the case (%s): %s", fld[1], name,
				nf > 2 ? fld[2] : "no message");
			rc = -1;
		} else if (nf != 6) {
			set_why(why, whylen, "%s.services.tsv:%ld: a service line has %d fields, want 6",
				name, lineno, nf);
			rc = -1;
		} else if ((svc = service_index(fld[2])) >= 0) {
			char *list = xstrdup(fld[5]); /* parse_procs cuts it up */

			if (parse_procs(list, s, svc) != 0) {
				set_why(why, whylen, "%s.services.tsv:%ld: bad process list '%s'", name,
					lineno, fld[5]);
				rc = -1;
			}
			free(list);
		}
	}
	fclose(f);
	free(buf);
	if (rc == 0 && (!before->present || !after->present)) {
		set_why(why, whylen, "%s.services.tsv has no %s sample", name,
			before->present ? "after" : "before");
		rc = -1;
	}
	return rc;
}

static const struct svc_proc *find_proc(const struct svc_sample *s, int svc, long pid)
{
	size_t i;

	for (i = 0; i < s->n[svc]; i++)
		if (s->procs[svc][i].pid == pid)
			return &s->procs[svc][i];
	return NULL;
}

/* A process in the after sample used what it has beyond its before value;
 * one that was not there before (or has less now: a reused PID) started in
 * the window, so all its time counts.  One that ended is counted apart. */
void services_add(struct svc_total tot[N_SERVICES], const struct svc_sample *b,
		  const struct svc_sample *a)
{
	int svc;
	size_t i;

	for (svc = 0; svc < N_SERVICES; svc++) {
		struct svc_total *t = &tot[svc];

		for (i = 0; i < a->n[svc]; i++) {
			const struct svc_proc *p = &a->procs[svc][i];
			const struct svc_proc *q = find_proc(b, svc, p->pid);

			if (!p->known || (q && !q->known))
				t->unknown = 1;
			else if (q && q->cpu_s <= p->cpu_s)
				t->cpu_s += p->cpu_s - q->cpu_s;
			else
				t->cpu_s += p->cpu_s;
		}
		for (i = 0; i < b->n[svc]; i++)
			if (!find_proc(a, svc, b->procs[svc][i].pid))
				t->ended++;
		if ((long)a->n[svc] > t->instances)
			t->instances = (long)a->n[svc];
		if ((long)b->n[svc] > t->instances)
			t->instances = (long)b->n[svc];
	}
}
