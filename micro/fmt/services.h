/* services.h - the CPU time of the assessment services around a window:
 * a services file (scripts/probe/services record, docs/formats.md) holds a before
 * and an after sample; what each service used is the after minus the
 * before, process by process.  For analyze (per case) and measure. */
#ifndef EXECLAG_SERVICES_H
#define EXECLAG_SERVICES_H

#include <stddef.h>

enum { N_SERVICES = 5 };
extern const char *const service_names[N_SERVICES];

struct svc_proc {
	long pid;
	double cpu_s;
	int known;
};

struct svc_sample {
	int present;
	struct svc_proc *procs[N_SERVICES];
	size_t n[N_SERVICES];
};

struct svc_total {
	double cpu_s;
	int unknown;    /* a time that did not parse, in some window */
	long instances; /* most processes seen in one sample */
	long ended;     /* processes gone by the after sample */
};

/* The index of a service's name, -1 when it is not one. */
int service_index(const char *name);
/* 0: both samples of PATH read; 1: no such file; -1: unusable, with the
 * reason in why (NAME names the window in it). */
int services_read(const char *path, const char *name, struct svc_sample *before,
		  struct svc_sample *after, char *why, size_t whylen);
/* Add what each service used between before and after to tot: a process
 * in the after sample used what it has beyond its before value (all of it
 * when it is new, or has less: a reused PID); one gone by the after sample
 * is counted as ended. */
void services_add(struct svc_total tot[N_SERVICES], const struct svc_sample *b,
		  const struct svc_sample *a);
void services_free(struct svc_sample *s);

#endif
