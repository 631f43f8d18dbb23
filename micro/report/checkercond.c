/* checkercond.c - the checker's health as conditions lines (checkercond.h). */
#include "checkercond.h"

#include <math.h>

/* Each reason's word in checker.why, in the order of the bits. */
static const struct {
	unsigned bit;
	const char *word;
} why_words[] = {
	{ CHECKER_WHY_ASSESS_EMFILE, "assess-emfile" }, { CHECKER_WHY_LOG_EMFILE, "log-emfile" },
	{ CHECKER_WHY_TIMEOUT, "timeout" },             { CHECKER_WHY_RATE, "rate" },
	{ CHECKER_WHY_CPU, "cpu" },                     { CHECKER_WHY_RSS, "rss" },
	{ CHECKER_WHY_REFUSED, "refused" },
};

static const char *const assess_words[] = {
	[HEALTH_ASSESS_NONE] = NULL,
	[HEALTH_ASSESS_ACCEPTED] = "accepted",
	[HEALTH_ASSESS_REJECTED] = "rejected",
	[HEALTH_ASSESS_EMFILE] = "too-many-open-files",
	[HEALTH_ASSESS_TIMEOUT] = "timeout",
	[HEALTH_ASSESS_MISSING] = "missing",
	[HEALTH_ASSESS_REFUSED] = "refused",
	[HEALTH_ASSESS_OTHER] = "other",
};

static void put_long(FILE *f, const char *key, long n)
{
	if (n >= 0)
		fprintf(f, "checker.%s=%ld\n", key, n);
}

static void put_num(FILE *f, const char *key, double x, int decimals)
{
	if (!isnan(x))
		fprintf(f, "checker.%s=%.*f\n", key, decimals, x);
}

static void put_proc(FILE *f, const char *name, const struct health_proc *p)
{
	char key[48];

	if (p->count <= 0)
		return;
	snprintf(key, sizeof key, "%s_cpu_pct", name);
	put_num(f, key, p->cpu_pct, 1);
	snprintf(key, sizeof key, "%s_rss_kb", name);
	put_long(f, key, p->rss_kb);
	snprintf(key, sizeof key, "%s_etime_s", name);
	put_long(f, key, p->etime_s);
}

void checker_conditions(FILE *f, const struct health_record *h, const struct checker_verdict *v)
{
	const char *sep = "";
	size_t i;

	fprintf(f, "checker.state=%s\n", checker_state_name(v->state));
	fprintf(f, "checker.record=%s\n", h->simulated                              ? "simulated"
					  : h->checker == HEALTH_CHECKER_GATE       ? "gate"
					  : h->checker == HEALTH_CHECKER_SYSPOLICYD ? "machine"
										    : "none");
	if (v->why) {
		fputs("checker.why=", f);
		for (i = 0; i < sizeof why_words / sizeof why_words[0]; i++)
			if (v->why & why_words[i].bit) {
				fprintf(f, "%s%s", sep, why_words[i].word);
				sep = ",";
			}
		fputc('\n', f);
	}
	if (h->ps_ok) {
		put_proc(f, "syspolicyd", &h->syspolicyd);
		if (h->trustd.count > 0)
			put_num(f, "trustd_cpu_pct", h->trustd.cpu_pct, 1);
	}
	if ((size_t)h->assess < sizeof assess_words / sizeof assess_words[0] && assess_words[h->assess]) {
		fprintf(f, "checker.assess=%s\n", assess_words[h->assess]);
		put_num(f, "assess_bound_s", h->assess_bound_s, 0);
	}
	if (h->log_result && !h->log_ok)
		fprintf(f, "checker.log=%s\n", h->log_result);
	if (!isnan(v->rate)) {
		put_num(f, "window_s", h->window_s, 0);
		put_long(f, "log_lines", h->log_lines);
		put_num(f, "rate", v->rate, 1);
		put_num(f, "baseline", v->baseline, 1);
		put_long(f, "emfile_lines", h->emfile_lines);
	}
	if (v->driver) {
		fprintf(f, "checker.driver=%s\n", v->driver);
		put_long(f, "driver_lines", h->driver_lines);
	}
}
