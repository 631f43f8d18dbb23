/* measure_text.c - the measure text writer (measure_text.h). */
#define _POSIX_C_SOURCE 200809L
#include "measure_text.h"
#include "conditions.h"
#include "measurein.h"
#include "report_common.h"
#include "util.h"

#include <math.h>
#include <string.h>

static const char *secs(double v, char *buf, size_t len)
{
	if (v < 10)
		snprintf(buf, len, "%.2f s", v);
	else
		snprintf(buf, len, "%.1f s", v);
	return buf;
}

/* The same number without its unit, for an interval's ends. */
static const char *secn(double v, char *buf, size_t len)
{
	snprintf(buf, len, v < 10 ? "%.2f" : "%.1f", v);
	return buf;
}

static const char *pct(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%.1f%%", v * 100.0);
	return buf;
}

static const char *plural(long n, const char *one, const char *more)
{
	return n == 1 ? one : more;
}

/* The command, where it ran, and W with how it ended. */
static void say_command(FILE *f, const struct measure_command *c)
{
	char b1[64];

	fprintf(f, "execlag measure: %s\n", c->line);
	if (c->dir)
		fprintf(f, "  ran in %s\n", c->dir);
	if (c->not_run)
		fprintf(f, "  W  %s: it did not run (%s), exit status %d\n", secs(c->wall_s, b1, sizeof b1),
			c->not_run_why, c->status);
	else if (c->signal)
		fprintf(f, "  W  %s, ended by signal %d (exit status %d)\n", secs(c->wall_s, b1, sizeof b1),
			c->signal, c->status);
	else
		fprintf(f, "  W  %s, exit status %d\n", secs(c->wall_s, b1, sizeof b1), c->status);
	if (c->interrupted[0])
		fprintf(f, "     interrupted: %s (%s); what ran until then is measured\n", c->interrupted,
			c->interrupted_how);
}

/* N as fanotify counted it: new programs, and what it did not count. */
static void say_n_fanotify(FILE *f, const struct measure_n *n)
{
	const struct measure_fanotify *d = &n->fan;

	if (n->n == 0)
		fprintf(f, "  N  0: the command launched no program that did not exist before it started\n");
	else
		fprintf(f, "  N  %s%ld new %s launched (%lld executions of files new since the start)\n",
			n->n_lower ? "at least " : "", n->n, plural(n->n, "program", "programs"),
			(long long)d->fresh_execs);
	fprintf(f, "     fanotify: %lld executions of older files not counted; %lld new files other processes ran not counted\n",
		(long long)d->old_execs, (long long)d->outside);
	if (d->unplaced)
		fprintf(f, "     %lld executions of new files by processes gone before they could be placed: not counted\n",
			(long long)d->unplaced);
	if (n->n_lower)
		fprintf(f, "     the event queue overflowed: N is a lower bound\n");
}

/* N as the unified log counted it: checks, and what it did not count.  N
 * is a range where the log names no program for some checks: they may be
 * the command's or the background's (docs/measure.md). */
static void say_n_log(FILE *f, const struct measure_n *n)
{
	const struct measure_logcount *d = &n->log;
	const char *at_least = d->programs_capped ? "at least " : "";
	long named = d->programs_named;

	if (n->n == 0)
		fprintf(f, "  N  0 checks in the command's window: nothing new was checked\n");
	else if (n->n_low < n->n)
		fprintf(f, "  N  %ld to %ld checks (GK performScan) in the command's window: %ld %s of %s%lld distinct %s "
			"in the command's folders, and %lld whose program it does not name (the "
			"command's, or another process's)\n", n->n_low, n->n, n->n_low, plural(n->n_low, "check", "checks"),
			at_least, (long long)named, plural(named, "program", "programs"), (long long)d->unplaced);
	else
		fprintf(f, "  N  %ld %s (GK performScan) of %s%lld distinct %s in the command's folders, in its window\n",
			n->n, plural(n->n, "check", "checks"), at_least, (long long)named,
			plural(named, "program", "programs"));
	fprintf(f, "     unified log: %lld checks of programs outside the command's folders not counted (other processes')\n",
		(long long)d->outside);
}

/* N: the new programs the command launched, by whichever source counted them. */
static void say_n(FILE *f, const struct measure_n *n)
{
	if (n->n < 0)
		fprintf(f, "  N  unknown: %s\n", n->why[0] ? n->why : "no source of new programs");
	else if (n->source == M_FANOTIFY)
		say_n_fanotify(f, n);
	else
		say_n_log(f, n);
}

/* The new programs' sizes against the probe's program, and what is unknown. */
static void say_sizes(FILE *f, const struct measure *m)
{
	const struct measure_sizes *s = &m->sizes;
	char md[32], q[32], x[32], pb[32];
	long unnamed = m->n.source == M_UNIFIED_LOG && m->n.have_counts ? m->n.log.unplaced : 0;

	if (m->n.n <= 0)
		return;
	if (s->known <= 0) {
		fprintf(f, "  sizes  unknown: %s\n", s->why[0] ? s->why : "not read");
		return;
	}
	fprintf(f, "  sizes  %ld new %s: median %s, 90%% at most %s, largest %s", s->known,
		plural(s->known, "program", "programs"), size_text((long)s->median, md, sizeof md),
		size_text((long)s->p90, q, sizeof q), size_text((long)s->largest, x, sizeof x));
	if (s->probe_bytes > 0)
		fprintf(f, "; the probe's program %s%s", size_text((long)s->probe_bytes, pb, sizeof pb),
			s->reprobe_pad > 0 ? "" : " (within 4x: L as probed)");
	fprintf(f, "\n");
	if (s->gone && unnamed)
		fprintf(f, "     sizes unknown: %ld %s the log named no longer %s, and %ld %s no program\n",
			s->gone, plural(s->gone, "program", "programs"), plural(s->gone, "exists", "exist"),
			unnamed, plural(unnamed, "check names", "checks name"));
	else if (s->gone)
		fprintf(f, "     sizes unknown: %ld %s the log named no longer %s\n", s->gone,
			plural(s->gone, "program", "programs"), plural(s->gone, "exists", "exist"));
	else if (unnamed)
		fprintf(f, "     sizes unknown: %ld %s no program\n", unnamed, plural(unnamed, "check names", "checks name"));
}

/* L at the new programs' size, and which L B uses. */
static void say_l_at_size(FILE *f, const struct measure *m)
{
	const struct measure_at_size *z = &m->at_size;
	const char *run_id = z->run_id ? z->run_id : "?";
	char at[32], pb[32];
	double ratio = m->sizes.probe_bytes > 0 ? (double)m->sizes.median / (double)m->sizes.probe_bytes : NAN;

	if (!z->due)
		return;
	size_text((long)m->sizes.median, at, sizeof at);
	if (z->l.verdict == M_UNKNOWN)
		fprintf(f, "  L at %s  unknown: %s\n", at, z->note ? z->note : "the second probe left no verdict");
	else if (z->l.verdict == M_SLOWDOWN)
		fprintf(f, "  L at %s  %.2f ms [%.2f, %.2f] per check (probe %s: exe at T=1, padded by %s)\n", at,
			z->l.median, z->l.low, z->l.high, run_id, size_text((long)z->pad, pb, sizeof pb));
	else if (z->l.verdict == M_NONE)
		fprintf(f, "  L at %s  none: no first-launch penalty at that size (%s; probe %s)\n", at,
			z->l.reason, run_id);
	else
		fprintf(f, "  L at %s  inconclusive: %s (probe %s)\n", at, z->l.reason, run_id);
	if (m->sizes.reprobe_capped)
		fprintf(f, "     the padding stops at 64 MiB (mkfresh --size): the programs are larger than the probe's\n");
	if (m->used.at_size)
		fprintf(f, "     B uses L at %s: the new programs' median is %.0fx the probe's program\n", at, ratio);
	else
		fprintf(f, "     B uses the probe's L: L at %s is %s; the programs are %.0fx the probe's, so B may be more\n",
			at, z->l.verdict != M_UNKNOWN ? m_verdict_word(z->l.verdict) : "unknown", ratio);
}

/* L: one check's price from the probe. */
static void say_l(FILE *f, const struct measure_probe *p)
{
	const char *where = p->run_id ? p->run_id : "?";
	const char *reused = p->how == M_HOW_REUSED ? ", reused: PROBE=0" : "";

	if (p->l.verdict == M_UNKNOWN) {
		fprintf(f, "  L  unknown: %s\n", p->note ? p->note : "no probe");
		return;
	}
	if (p->l.verdict == M_SLOWDOWN)
		fprintf(f, "  L  %.2f ms [%.2f, %.2f] per check (probe %s%s: exe at T=1)\n", p->l.median,
			p->l.low, p->l.high, where, reused);
	else if (p->l.verdict == M_NONE)
		fprintf(f, "  L  none: the probe saw no first-launch penalty here (%s; probe %s%s)\n",
			p->l.reason, where, reused);
	else
		fprintf(f, "  L  inconclusive: %s (probe %s%s)\n", p->l.reason, where, reused);
	if (p->simulated)
		fprintf(f, "     the probe was SIMULATED (%s): L is the model's, not evidence\n", p->launcher);
}

/* How many checks run at once, where the L that B uses is a penalty. */
static void say_queue(FILE *f, const struct measure *m)
{
	if (m->used.verdict == M_SLOWDOWN)
		fprintf(f, "     checks at once: %s\n",
			m->probe.queue == M_SERIALISED ? "one: they queue (serialised at T=2)" :
			m->probe.queue == M_PARALLEL ? "at least two (parallel at T=2)" :
			"undetermined at T=2");
}

/* B and its share of W where they were computed. */
static void say_b_computed(FILE *f, const struct measure_answer *a)
{
	char b1[64], b2[64], b3[64], b4[64];
	const char *at_most = a->at_most ? "at most " : "";
	const char *per = a->k == 1 ? "1 (checks at once)" :
			  a->k == 2 ? "2 (at least two at once: B is at most this)" :
			  "1 (checks at once undetermined: B is at most this)";

	if (a->range)
		fprintf(f, "  B  %s%s to %s [%s, %s] = N x L / %s\n", at_most, secs(a->b_r, b4, sizeof b4),
			secs(a->b, b1, sizeof b1), secn(a->b_lo, b2, sizeof b2), secn(a->b_hi, b3, sizeof b3), per);
	else
		fprintf(f, "  B  %s%s [%s, %s] = N x L / %s\n", at_most, secs(a->b, b1, sizeof b1),
			secn(a->b_lo, b2, sizeof b2), secn(a->b_hi, b3, sizeof b3), per);
	if (a->capped && a->bottleneck)
		fprintf(f, "  B/W  100%% (capped): the checks alone took longer than the command: they were its bottleneck\n");
	else if (a->capped && a->range)
		fprintf(f, "  B/W  %s%s to 100%% (capped at N's high end) of the command's time\n", at_most,
			pct(a->sh_r, b4, sizeof b4));
	else if (a->capped)
		fprintf(f, "  B/W  at most 100%% (capped)\n");
	else if (a->range)
		fprintf(f, "  B/W  %s%s to %s [%s, %s] of the command's time\n", at_most, pct(a->sh_r, b4, sizeof b4),
			pct(a->sh, b1, sizeof b1), pct(a->sh_lo, b2, sizeof b2), pct(a->sh_hi, b3, sizeof b3));
	else
		fprintf(f, "  B/W  %s%s [%s, %s] of the command's time\n", at_most, pct(a->sh, b1, sizeof b1),
			pct(a->sh_lo, b2, sizeof b2), pct(a->sh_hi, b3, sizeof b3));
}

/* B, its share of W, and the projection without the checks; or why not.
 * Where N is a range, B and the share are too: "from to [low, high]". */
static void say_b(FILE *f, const struct measure *m)
{
	const struct measure_answer *a = &m->answer;
	char b1[64], b2[64], b3[64];

	if (a->have_b && m->n.n == 0) {
		fprintf(f, "  B  0 s: no new program, nothing to check\n");
		fprintf(f, "  B/W  0%%\n");
	} else if (a->have_b) {
		say_b_computed(f, a);
	} else if (m->n.n < 0) {
		fprintf(f, "  B  not computed: N is unknown\n");
	} else if (m->used.verdict == M_UNKNOWN) {
		fprintf(f, "  B  not computed: L is unknown\n");
	} else if (m->used.verdict == M_NONE) {
		fprintf(f, "  B  none: with no penalty per check there is no busy time, and no share\n");
	} else {
		fprintf(f, "  B  not computed: L is inconclusive; run again, or with a fixed COUNT\n");
	}
	if (a->have_proj && m->n.n > 0)
		fprintf(f, "  Without the checks: no less than %s [%s, %s] = W - B (the command waited at most as long as the checker was busy)\n",
			secs(a->pj, b1, sizeof b1), secn(a->pj_lo, b2, sizeof b2), secn(a->pj_hi, b3, sizeof b3));
}

/* The remedy, where B was computed for new programs: B again were they
 * placed by the best safe placement of the newest remedies run (a
 * projection), and what no placement helps. */
static void say_remedy(FILE *f, const struct measure *m)
{
	const struct measure_remedy *r = &m->remedy;
	char b1[64], b2[64], b3[64], b4[96];

	if (!m->answer.have_b || m->n.n <= 0)
		return;
	if (r->have_b)
		fprintf(f, "  Remedy (a projection, not measured): were the %ld programs launched again after a "
			"rebuild, placed as %s (%s: the placement make remedies run %s says to use, first launch "
			"%s ms), their checks would take %s [%s, %s] instead of B\n", m->n.n,
			r->placement, r->what, r->run_id ? r->run_id : "?",
			report_penalty_text(&(struct penalty){ r->cost, r->low, r->high, NAN }, b4, sizeof b4),
			secs(r->b, b1, sizeof b1), secn(r->b_lo, b2, sizeof b2), secn(r->b_hi, b3, sizeof b3));
	else if (r->have_run)
		fprintf(f, "  Remedy: make remedies run %s found no safe placement here (each was killed or left "
			"changed code unchecked)\n", r->run_id ? r->run_id : "?");
	else
		fprintf(f, "  Remedy: no make remedies run on this machine to project from (make remedies "
			"measures each placement)\n");
	fprintf(f, "  Programs that are new bytes every time (relinked): no placement helps; only the "
		"exemption does\n");
}

/* The services' CPU, or why it was not sampled. */
static void say_services(FILE *f, const struct measure_services *s)
{
	char b1[64];
	int i;

	if (!s->sampled) {
		fprintf(f, "  Services' CPU: %s\n", s->why);
		return;
	}
	fprintf(f, "  Services' CPU during the command:");
	for (i = 0; i < MEASURE_SERVICES; i++)
		fprintf(f, "%s %s %s", i ? "," : "", s->s[i].name,
			isnan(s->s[i].cpu_s) ? "unknown" : (snprintf(b1, sizeof b1, "%.2f s", s->s[i].cpu_s), b1));
	fprintf(f, "\n");
}

/* The watchers, and what the calibration gate held. */
static void say_watchers(FILE *f, const struct measure *m)
{
	const struct measure_gate *g = &m->gate;
	const char *fl = measure_condition(m, "fanotify_listeners"), *ag = measure_condition(m, "agents");

	fprintf(f, "  Watchers: fanotify listeners %s; agents %s\n", fl[0] ? fl : "unknown", ag[0] ? ag : "unknown");
	if (!g->active)
		return;
	fprintf(f, "  Calibration gate (%s ms, %s %s, key %s): ", g->latency_ms, g->workers,
		strcmp(g->workers, "1") == 0 ? "worker" : "workers", g->key);
	if (!g->read) {
		fprintf(f, "its log %s\n", g->why);
		return;
	}
	fprintf(f, "it held %ld new launches, %.2f s in all (its log)\n", g->held.held_launches,
		g->held.held_ms / 1000.0);
	if (g->held.unheld_launches > 0)
		fprintf(f, "  %ld new launches passed the gate unheld: their folders were made and run before it had marked them (its log)\n",
			g->held.unheld_launches);
}

const char *measure_advice_get(const void *measure, const char *key)
{
	const struct measure *m = measure;

	return conditions_get(m->conds, m->n_conds, key);
}

/* The measure's own cause and step, as make doctor gives them
 * (micro/report/advice.c: the responsible app and its Developer Tools
 * state, ssh, tmux, the gate, the simulator), from the measure's conditions
 * and the verdict of the probe whose L B uses. */
static void say_advice(FILE *f, const struct measure *m, const struct advice_probe *p)
{
	struct advice_probe none;

	if (!p) {
		memset(&none, 0, sizeof none);
		none.verdict = ADVICE_UNCLEAR;
		none.kase = "exe";
		none.penalty_ms = none.low_ms = none.high_ms = NAN;
		none.pairs = 0;
		none.reason = m->probe.note ? m->probe.note : "no probe";
		p = &none;
	}
	advice_write(f, measure_advice_get, m, p);
}

/* W, N, L, B and the share, then what surrounded the command, and last the
 * cause and the one thing to do. */
void measure_text_write(FILE *f, const struct measure *m, const struct advice_probe *p)
{
	say_command(f, &m->cmd);
	say_n(f, &m->n);
	say_sizes(f, m);
	say_l(f, &m->probe);
	say_l_at_size(f, m);
	say_queue(f, m);
	say_b(f, m);
	say_remedy(f, m);
	say_services(f, &m->services);
	say_watchers(f, m);
	say_advice(f, m, p);
}
