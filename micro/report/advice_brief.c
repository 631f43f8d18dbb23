/* advice_brief.c - the plain lines (advice.h): cost, queue, cause, do, over
 * the advice model; what make repro ends with and report.md begins with.
 * Sources in docs/evidence.md. */
#include "advice.h"
#include "advice_words.h"
#include "util.h"

#include <math.h>
#include <string.h>

/* A time in ms rounded for a reader: whole ms from 10 up, two decimals
 * below (where the 1 ms floor is); "?" when unknown. */
static const char *rounded(double v, double scale, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "?");
	else if (fabs(scale) >= 10.0)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.2f", v);
	if (strcmp(buf, "-0") == 0 || strcmp(buf, "-0.0") == 0 || strcmp(buf, "-0.00") == 0)
		memmove(buf, buf + 1, strlen(buf));
	return buf;
}

/* "150 ms [149, 151]": a penalty and its interval, rounded alike (by the
 * median's size). */
static const char *rounded_penalty(double m, double lo, double hi, char *buf, size_t len)
{
	double scale = isnan(m) ? 0 : fmax(fabs(m), fmin(fabs(isnan(lo) ? 0 : lo), fabs(isnan(hi) ? 0 : hi)));
	char a[32], b[32], c[32];

	if (isnan(lo) || isnan(hi))
		snprintf(buf, len, "%s ms [no interval]", rounded(m, scale, a, sizeof a));
	else
		snprintf(buf, len, "%s ms [%s, %s]", rounded(m, scale, a, sizeof a),
			 rounded(lo, scale, b, sizeof b), rounded(hi, scale, c, sizeof c));
	return buf;
}

/* cost: what a new program costs here. */
static void cost(FILE *f, const struct advice *a, const char *prefix)
{
	const struct advice_setting *s = &a->where;
	const struct advice_probe *p = &a->probe;
	const char *who = s->launcher || s->gate ? "" : " here";
	char pen[512], x[32], y[32], fl[32];

	rounded_penalty(p->penalty_ms, p->low_ms, p->high_ms, pen, sizeof pen);
	if (s->launcher)
		fprintf(f, "%scost (simulated, nothing was launched: the model's numbers): ", prefix);
	else if (s->gate)
		fprintf(f, "%scost (under the calibration gate): ", prefix);
	else
		fprintf(f, "%scost: ", prefix);
	switch (p->verdict) {
	case ADVICE_HANG:
		fprintf(f, "a new program did not start%s: %s (%s); killed, so there is no penalty "
			"to give, only that.\n", who, advice_hang_counts(&p->hang, pen, sizeof pen), p->kase);
		break;
	case ADVICE_PENALTY:
		fprintf(f, "a new program waits about %s on its first launch%s (%s: first launch %s ms, "
			"second %s ms; in brackets the %.0f%% interval).\n", pen, who, p->kase,
			rounded(p->first_ms, p->first_ms, x, sizeof x),
			rounded(p->repeat_ms, p->repeat_ms, y, sizeof y), a->cost.confidence * 100.0);
		break;
	case ADVICE_NONE:
		snprintf(fl, sizeof fl, "%.3g", a->cost.floor_ms);
		fprintf(f, "nothing measurable%s: a new program's first launch costs %s more than its "
			"second (%s), all of it under the %s ms floor, the least the kit calls a cost.\n",
			who, pen, p->kase, fl);
		break;
	default:
		fprintf(f, "unclear: a new program's first launch%s costs %s more than its second "
			"(%s): %s.\n", who, pen, p->kase ? p->kase : "no case",
			p->reason ? p->reason : "no verdict");
		break;
	}
}

/* queue: whether the checks queue (a penalty only), and the suite case's
 * projection: "a suite of 14,000 new programs would spend at least 35
 * minutes in them at 2 jobs". */
static void queue(FILE *f, const struct advice *a, const char *prefix)
{
	const struct advice_queue *q = &a->queue;
	const struct advice_projection *j = &a->projection;
	char pen[128], one[128], programs[32];

	rounded_penalty(q->penalty_ms, q->low_ms, q->high_ms, pen, sizeof pen);
	rounded_penalty(a->probe.penalty_ms, a->probe.low_ms, a->probe.high_ms, one, sizeof one);
	fprintf(f, "%squeue: ", prefix);
	switch (q->kind) {
	case ADVICE_QUEUE_SERIAL:
		fprintf(f, "yes, the checks run one at a time: with %ld programs started together a "
			"first launch waited %s (the median), against %s alone (serialised)", q->threads,
			pen, one);
		break;
	case ADVICE_QUEUE_PARALLEL:
		fprintf(f, "no, the checks run side by side: with %ld programs started together a "
			"first launch waited %s (the median), against %s alone (parallel)", q->threads,
			pen, one);
		break;
	case ADVICE_QUEUE_UNDETERMINED:
		fprintf(f, "undetermined: %s", q->reason ? q->reason : "no reason recorded");
		break;
	default:
		fputs("not measured: only one program at a time was launched (T=1); make repro "
		      "measures more at once", f);
		break;
	}
	if (j->present)
		fprintf(f, "; a suite of %s new programs (the suite case's size) would spend at "
			"least %.0f minutes in them at %ld job%s",
			count_text((size_t)j->programs, programs, sizeof programs), j->minutes, j->jobs,
			j->jobs == 1 ? "" : "s");
	fputs(".\n", f);
}

/* The network, as a clause of the cause. */
static void network(FILE *f, const struct advice_setting *s)
{
	switch (s->net) {
	case ADVICE_NET_VPN:
		fprintf(f, "; network %s, over a VPN (where /tmp/test.sh's check took 5.7 s against "
			"1.9 s without one: %s)", s->network ? s->network : "unknown",
			advice_cite(s->net_source, 0));
		break;
	case ADVICE_NET_OFFLINE:
		fprintf(f, "; network offline (offline, a .NET app's first start fell from 7.65 s to "
			"2.06 s but kept a cost: %s)", advice_cite(s->net_source, 0));
		break;
	default:
		fprintf(f, "; network %s", s->network ? s->network : "unknown");
		break;
	}
}

/* A Mac's conditions in a clause: SIP, the responsible app and its
 * Developer Tools state. */
static void darwin_state(FILE *f, const struct advice_setting *s)
{
	fprintf(f, "SIP is %s, %s (the app macOS holds responsible for the kit) ",
		s->sip ? s->sip : "unknown", s->app);
	if (s->grant == ADVICE_GRANT_YES)
		fputs("is a Developer Tool", f);
	else if (s->grant == ADVICE_GRANT_NO)
		fprintf(f, "is not a Developer Tool (Developer Tools: %s)", s->devtools);
	else
		fprintf(f, "has a Developer Tools state that could not be read (%s)",
			s->devtools ? s->devtools : "unknown");
	if (s->scans_off)
		fputs(", XProtect's launch scans are off (xprotect status)", f);
}

/* Off macOS, no penalty: this run is the control. */
static void control(FILE *f, const struct advice_setting *s)
{
	const char *os = s->os ? s->os : "this system", *l = s->listeners;

	if (!l)
		fprintf(f, "%s has no first-launch assessment", os);
	else if (strcmp(l, "none") == 0)
		fprintf(f, "%s has no first-launch assessment, and nothing here watches exec", os);
	else
		fprintf(f, "%s has no first-launch assessment, and what watches exec here held no "
			"new program measurably", os);
	if (l) {
		fputs(" (", f);
		advice_watchers(f, s);
		fputc(')', f);
	}
	fputs(": this run is the control", f);
}

/* cause: what the conditions say. */
static void cause(FILE *f, const struct advice *a, const char *prefix)
{
	const struct advice_setting *s = &a->where;
	const char *src = advice_cite(a->cause_source, 0);

	fprintf(f, "%scause: ", prefix);
	switch (a->cause) {
	case ADVICE_CAUSE_CHECKER:
		advice_checker_cause(f, a);
		fputs(".\n", f);
		return;
	case ADVICE_CAUSE_SIMULATED:
		fprintf(f, "a simulated run (launcher %s): the model's settings made these numbers, "
			"not this machine.\n", s->launcher);
		return;
	case ADVICE_CAUSE_GATE:
		fprintf(f, "the calibration gate (latency %s ms, workers %s, key %s) held the launches "
			"in the work folder: a test of the kit against a known truth, not of this OS.\n",
			advice_or_q(s->gate_latency_ms), advice_or_q(s->gate_workers),
			advice_or_q(s->gate_key));
		return;
	case ADVICE_CAUSE_HANG:
		if (s->darwin)
			fprintf(f, "a new program did not start within the bound, as when syspolicyd is busy "
				"or wedged (%s, %s)", src, advice_cite(a->cause_source, 1));
		else
			fprintf(f, "something here held a new program without answering (fanotify "
				"listeners: %s)", advice_or_q(s->listeners));
		break;
	case ADVICE_CAUSE_WATCHER:
		fputs("something holds a new program on its first launch here", f);
		if (s->listeners) {
			fputs(" (", f);
			advice_watchers(f, s);
			fputc(')', f);
		}
		break;
	case ADVICE_CAUSE_CONTROL:
		control(f, s);
		break;
	case ADVICE_CAUSE_UNCLEAR:
		if (!s->darwin) {
			control(f, s);
			break;
		}
		darwin_state(f, s);
		if (a->cost_expected)
			fprintf(f, "; public reports see a new program pay 120–180 ms in this state (%s)", src);
		break;
	case ADVICE_CAUSE_GRANTED:
		darwin_state(f, s);
		fprintf(f, ", so macOS does not check the programs it starts (%s)", src);
		break;
	case ADVICE_CAUSE_SIP_OFF:
		darwin_state(f, s);
		fprintf(f, ", and SIP off largely disables the com.apple.syspolicy subsystem (%s)", src);
		break;
	case ADVICE_CAUSE_NOT_SEEN:
		darwin_state(f, s);
		fprintf(f, "; public reports see a new program pay 120–180 ms in this state (%s), yet "
			"this run saw none", src);
		break;
	default:
		advice_penalty_cause(f, a);
		break;
	}
	network(f, s);
	fputs(".\n", f);
}

/* The Developer Tools steps in one clause, for app. */
static void grant_clause(FILE *f, const struct advice *a, const char *app)
{
	int major = a->where.macos_major;

	if (major >= 13 || major == 0)
		fputs("open System Settings › Privacy & Security › Developer Tools", f);
	else
		fputs("open System Preferences › Security & Privacy › Privacy › Developer Tools", f);
	fprintf(f, ", turn on %s (add it with + if it is not listed%s), quit %s and open it again",
		app, strcmp(app, "Terminal") == 0 ? "; `spctl developer-mode enable-terminal` lists it" : "",
		app);
}

/* do: the one thing to do next, with its steps: the first step, in a line. */
static void first_step(FILE *f, const struct advice *a, const char *prefix)
{
	const struct advice_step *x = &a->step[0], *then = a->n_steps > 1 ? &a->step[1] : NULL;
	const char *id = a->run_id;

	fprintf(f, "%sdo: ", prefix);
	switch (x->what) {
	case ADVICE_DO_RELIEF:
		if (a->checker.n_relief > 0)
			fprintf(f, "first %s%s%s (%s; make doctor lists the rest, each with its source), ",
				a->checker.relief[0]->words, a->checker.relief[0]->names_driver ? ": " : "",
				a->checker.relief[0]->names_driver ? advice_or_q(x->app) : "",
				advice_relief_needs(a->checker.relief[0]));
		fprintf(f, "then make repro TAG=after and make compare A=%s B=after.\n", id);
		break;
	case ADVICE_DO_NOTHING_SIM:
		fputs("nothing about this machine; make repro without LAUNCHER measures it.\n", f);
		break;
	case ADVICE_DO_HANG_FIXES:
	case ADVICE_DO_FIND_HOLDER:
		fputs("make doctor: within 15 s it says whether the same bytes start at a new path, "
		      "what the services did, and what public reports found to help (a copy, a "
		      "lighter load, sudo killall syspolicyd, a reboot).\n", f);
		break;
	case ADVICE_DO_NOTHING_GATE:
		fputs("nothing; make check says whether the kit recovered the gate's settings, and "
		      "make repro without GATE measures the machine itself.\n", f);
		break;
	case ADVICE_DO_MEASURE_MORE:
		fprintf(f, "measure again with more launches on an otherwise idle machine: make repro "
			"CASES=%s COUNT=60, then make compare A=%s B=<the new run>.\n",
			a->probe.kase ? a->probe.kase : "exe", id);
		break;
	case ADVICE_DO_NOTHING:
		if (a->cause == ADVICE_CAUSE_CONTROL)
			fputs("nothing: this is what the control looks like, none in every case; on a Mac "
			      "whose terminal is not a Developer Tool the same run shows a penalty "
			      "(120–180 ms for an empty Rust binary on an M2: cargo PR #15908).\n", f);
		else if (a->cause == ADVICE_CAUSE_GRANTED)
			fprintf(f, "nothing. The control: from an app that is not a Developer Tool (or "
				"over ssh) a new program pays (120–180 ms on an M2: cargo PR #15908); "
				"make repro TAG=control there, then make compare A=%s B=control shows "
				"the difference.\n", id);
		else
			fprintf(f, "nothing needs doing. The control: a Mac with SIP on whose terminal is "
				"not a Developer Tool pays 120–180 ms a new program (cargo PR #15908); "
				"make feedback keeps this run's numbers (%s) if you want to report it.\n", id);
		break;
	case ADVICE_DO_AS_ROOT:
		fputs("run sudo make doctor, which names the fanotify listeners; then exclude the "
		      "build folder in that scanner (docs/linux-scanners.md).\n", f);
		break;
	case ADVICE_DO_EXCLUDE:
		fprintf(f, "exclude the build folder in that scanner or agent (docs/linux-scanners.md "
			"says how for each), then make repro TAG=after and make compare A=%s "
			"B=after.\n", id);
		break;
	case ADVICE_DO_TERMINAL:
		fprintf(f, "run it in a terminal on the Mac itself, %s, whose app is a Developer Tool "
			"(", a->cause == ADVICE_CAUSE_SSH ? "not over ssh" : "not from a launchd job");
		grant_clause(f, a, then ? then->app : "your terminal");
		fprintf(f, "), then make repro TAG=after there and make compare A=%s B=after.\n", id);
		break;
	case ADVICE_DO_REGRANT:
		fprintf(f, "in Developer Tools remove the multiplexer and add it again with + (a grant "
			"follows signature and path: %s), then start a new session, then make repro "
			"TAG=after and make compare A=%s B=after.\n", advice_cite(x->source, 0), id);
		break;
	case ADVICE_DO_RESTART_MUX:
		fprintf(f, "end the multiplexer's server and start it from a terminal that is a "
			"Developer Tool (%s), or add the multiplexer itself to Developer Tools "
			"(%s), then make repro TAG=after and make compare A=%s B=after.\n",
			advice_cite(x->source, 0), advice_cite(x->source, 1), id);
		break;
	case ADVICE_DO_NEW_TMUX:
		fprintf(f, "start a new tmux session from a window of %s (or run outside tmux), then "
			"make repro TAG=after there and make compare A=%s B=after.\n", x->app, id);
		break;
	case ADVICE_DO_REPORT:
		fputs("make feedback: feedback.txt and an archive ready for Feedback Assistant, "
		      "with this run's numbers.\n", f);
		break;
	default: /* a grant */
		grant_clause(f, a, x->app);
		fprintf(f, ", then in the new window make repro TAG=after and make compare A=%s "
			"B=after.\n", id);
		break;
	}
}

int advice_brief_lines(FILE *f, const struct advice *a, const char *prefix)
{
	int n = 0;

	if (!prefix)
		prefix = "";
	if (!a->probe.kase)
		return 0;
	cost(f, a, prefix), n++;
	if (a->probe.verdict == ADVICE_PENALTY)
		queue(f, a, prefix), n++;
	cause(f, a, prefix), n++;
	first_step(f, a, prefix), n++;
	return n;
}

int advice_brief(FILE *f, const json_t *run, const char *prefix)
{
	struct advice a;

	advice_of_run(&a, run, NULL);
	return advice_brief_lines(f, &a, prefix);
}
