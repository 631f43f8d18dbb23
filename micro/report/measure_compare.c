/* measure_compare.c - two measures side by side (measure_compare.h). */
#define _POSIX_C_SOURCE 200809L
#include "measure_compare.h"
#include "measurein.h"
#include "util.h"

#include <math.h>
#include <string.h>

/* "12.34 [10.00, 15.00]" of an interval, with a unit, or dflt. */
static const char *ival(double m, double lo, double hi, const char *unit, double scale,
			const char *dflt, char *buf, size_t len)
{
	if (isnan(m))
		return dflt;
	snprintf(buf, len, "%.2f%s [%.2f, %.2f]", m * scale, unit, lo * scale, hi * scale);
	return buf;
}

static const char *penalty_text(const struct measure_penalty *l, const char *dflt, char *buf, size_t len)
{
	return ival(l->median, l->low, l->high, " ms", 1, dflt, buf, len);
}

static const char *l_text(const struct measure *m, char *buf, size_t len)
{
	const struct measure_penalty *l = &m->probe.l;
	char tmp[96];

	if (l->verdict == M_UNKNOWN)
		return "unknown";
	if (l->verdict == M_NONE)
		return "none";
	if (l->verdict == M_INCONCLUSIVE) {
		snprintf(buf, len, "inconclusive %s", penalty_text(l, "", tmp, sizeof tmp));
		return buf;
	}
	return penalty_text(l, "-", buf, len);
}

static const char *n_text(const struct measure *m, char *buf, size_t len)
{
	const struct measure_n *n = &m->n;

	if (n->n < 0)
		return "unknown";
	if (n->n_low < n->n)
		snprintf(buf, len, "%ld to %ld", n->n_low, n->n);
	else
		snprintf(buf, len, "%s%ld", n->n_lower ? ">= " : "", n->n);
	return buf;
}

/* B or its share: an interval ("1.80 s [1.79, 1.81]"), or where N is a
 * range, from its low end ("1.35 to 1.80 s [1.34, 1.81]"); "at most "
 * first where it is a bound. */
static const char *bound_text(const struct measure_answer *a, const double v[4], const char *unit,
			      double scale, char *buf, size_t len)
{
	const char *at_most = a->at_most ? "at most " : "";
	char tmp[96];

	if (a->range)
		snprintf(buf, len, "%s%.2f to %.2f%s [%.2f, %.2f]", at_most, v[0] * scale, v[1] * scale, unit,
			 v[2] * scale, v[3] * scale);
	else
		snprintf(buf, len, "%s%s", at_most, ival(v[1], v[2], v[3], unit, scale, "-", tmp, sizeof tmp));
	return buf;
}

static const char *b_text(const struct measure *m, char *buf, size_t len)
{
	const struct measure_answer *a = &m->answer;
	const double v[4] = { a->b_r, a->b, a->b_lo, a->b_hi };

	return a->have_b ? bound_text(a, v, " s", 1, buf, len) : "-";
}

static const char *share_text(const struct measure *m, char *buf, size_t len)
{
	const struct measure_answer *a = &m->answer;
	const double v[4] = { a->sh_r, a->sh, a->sh_lo, a->sh_hi };

	if (!a->have_share)
		return "-";
	if (a->capped)
		return a->bottleneck ? "100% (capped: the bottleneck)" : "at most 100% (capped)";
	return bound_text(a, v, "%", 100, buf, len);
}

/* L at the programs' median size, where the measure took it again. */
static const char *lsize_text(const struct measure *m, char *buf, size_t len)
{
	const struct measure_at_size *z = &m->at_size;
	char tmp[96], at[32];

	if (!z->due)
		return "-";
	size_text((long)m->sizes.median, at, sizeof at);
	if (z->l.verdict == M_UNKNOWN)
		snprintf(buf, len, "unknown at %s", at);
	else if (z->l.verdict == M_SLOWDOWN)
		snprintf(buf, len, "%s at %s", penalty_text(&z->l, "-", tmp, sizeof tmp), at);
	else
		snprintf(buf, len, "%s at %s", m_verdict_word(z->l.verdict), at);
	return buf;
}

/* The app macOS holds responsible for what the command launched, with its
 * Developer Tools state (the conditions make doctor reads), or "-" off a Mac. */
static const char *app_text(const struct measure *m, char *buf, size_t len)
{
	const char *app = measure_condition(m, "responsible_app"), *dt = measure_condition(m, "devtools");

	if (strcmp(measure_condition(m, "os"), "Darwin") != 0)
		return "- (not macOS)";
	if (!app[0] || strcmp(app, "unknown") == 0 || strcmp(app, "n/a") == 0)
		app = measure_condition(m, "terminal_app")[0] ? measure_condition(m, "terminal_app") : "unknown";
	snprintf(buf, len, "%s (Developer Tools: %s)", app, dt[0] ? dt : "unknown");
	return buf;
}

/* How the command was started (sysinfo's started_via: ssh, launchd, tmux
 * or screen, the terminal app, in that order), its commas spaced. */
static const char *started_text(const struct measure *m, char *buf, size_t len)
{
	const char *via = measure_condition(m, "started_via");
	size_t o = 0;

	if (!via[0])
		via = "unknown";
	for (; *via && o + 3 < len; via++) {
		buf[o++] = *via;
		if (*via == ',')
			buf[o++] = ' ';
	}
	buf[o] = '\0';
	return buf;
}

/* W with the command's exit status. */
static const char *w_text(const struct measure *m, char *buf, size_t len)
{
	snprintf(buf, len, "%.2f s (exit %lld)", m->cmd.wall_s, (long long)m->cmd.status);
	return buf;
}

/* Whether checks queue, or "-". */
static const char *queue_text(const struct measure *m)
{
	return m->probe.queue != M_QUEUE_UNREAD ? m_queue_word(m->probe.queue) : "-";
}

/* The two measures' ids and commands, and whether the commands differ. */
static void print_commands(FILE *f, const struct measure *a, const struct measure *b)
{
	fprintf(f, "A: %s  %s\n", a->cmd.id, a->cmd.line);
	fprintf(f, "B: %s  %s\n", b->cmd.id, b->cmd.line);
	if (strcmp(a->cmd.line, b->cmd.line) != 0)
		fprintf(f, "(the two measures ran different commands)\n");
}

/* One line of the table: what it shows, A's, B's. */
static void row(FILE *f, const char *label, const char *x, const char *y)
{
	fprintf(f, "%-20s %-32s %s\n", label, x, y);
}

/* Each service's CPU where either measure has it. */
static void print_services(FILE *f, const struct measure *a, const struct measure *b)
{
	char x[160], y[160];
	int k;

	for (k = 0; k < MEASURE_SERVICES; k++) {
		double ca = a->services.s[k].cpu_s, cb = b->services.s[k].cpu_s;
		char label[40];

		if (isnan(ca) && isnan(cb))
			continue;
		snprintf(label, sizeof label, "%s CPU", a->services.s[k].name);
		snprintf(x, sizeof x, isnan(ca) ? "-" : "%.2f s", ca);
		snprintf(y, sizeof y, isnan(cb) ? "-" : "%.2f s", cb);
		row(f, label, x, y);
	}
}

/* The table: W, N, L, checks at once, B, the share, the services' CPU. */
static void print_table(FILE *f, const struct measure *a, const struct measure *b)
{
	char x[160], y[160];

	fprintf(f, "\n%-20s %-32s %s\n", "", "A", "B");
	row(f, "W", w_text(a, x, sizeof x), w_text(b, y, sizeof y));
	row(f, "N", n_text(a, x, sizeof x), n_text(b, y, sizeof y));
	row(f, "L", l_text(a, x, sizeof x), l_text(b, y, sizeof y));
	if (a->at_size.due || b->at_size.due) {
		row(f, "L at programs' size", lsize_text(a, x, sizeof x), lsize_text(b, y, sizeof y));
		row(f, "B uses", a->used.at_size ? "L at size" : "L", b->used.at_size ? "L at size" : "L");
	}
	row(f, "checks at once", queue_text(a), queue_text(b));
	row(f, "B", b_text(a, x, sizeof x), b_text(b, y, sizeof y));
	row(f, "B/W", share_text(a, x, sizeof x), share_text(b, y, sizeof y));
	print_services(f, a, b);
	row(f, "responsible app", app_text(a, x, sizeof x), app_text(b, y, sizeof y));
	row(f, "started", started_text(a, x, sizeof x), started_text(b, y, sizeof y));
}

static const char *const diff_keys[] = {
	"responsible_app", "started_via", "ssh", "multiplexer", "launchd_job", "devtools", "sip", "assessments", "network", "vpn", "terminal", "os", "os_version",
	"os_build", "model", "cpu", "ncpu", "work_fs", "fanotify_listeners", "agents", "launcher",
	"gate.active", "gate.latency_ms", "gate.workers", "gate.key", "gate.exempt", "emulation", NULL
};

/* The conditions that differ between A and B, or that none does. */
static void print_conditions(FILE *f, const struct measure *a, const struct measure *b)
{
	int k, differ = 0;

	fprintf(f, "\n");
	for (k = 0; diff_keys[k]; k++) {
		const char *va = measure_condition(a, diff_keys[k]), *vb = measure_condition(b, diff_keys[k]);

		if (strcmp(va, vb) == 0)
			continue;
		if (!differ++)
			fprintf(f, "Conditions that differ:\n");
		fprintf(f, "  %s: %s -> %s\n", diff_keys[k], va[0] ? va : "(none)", vb[0] ? vb : "(none)");
	}
	if (!differ)
		fprintf(f, "No condition differs (those compared: the responsible app, how the command was started, Developer Tools, SIP, assessments, network, terminal, OS, machine, watchers, gate).\n");
}

/* How much the command's time changed from A to B. */
static void print_change(FILE *f, const struct measure *a, const struct measure *b)
{
	double wa = a->cmd.wall_s, wb = b->cmd.wall_s;

	if (wa > 0)
		fprintf(f, "\nThe command's time changed by %+.2f s (%+.1f%%): %.2f s in A, %.2f s in B.\n",
			wb - wa, (wb - wa) / wa * 100.0, wa, wb);
}

void measure_compare_write(FILE *f, const struct measure *a, const struct measure *b)
{
	print_commands(f, a, b);
	print_table(f, a, b);
	print_conditions(f, a, b);
	print_change(f, a, b);
}
