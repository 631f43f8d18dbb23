/* advice_doctor.c - make doctor's words (advice.h): the machine's state,
 * a hang's evidence, the cause and the steps, a hang's fixes and the
 * verdict, over the advice model.  Sources in docs/evidence.md, "What make
 * doctor says" and "When new programs never start". */
#include "advice.h"
#include "advice_words.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *or_unknown(const char *v)
{
	return v ? v : "unknown";
}

/* ---- the checker's health, read before any launch ------------------------------------- */

static int is(const char *v, const char *word)
{
	return v && strcmp(v, word) == 0;
}

/* "25 min", "3.2 h", "42.1 days": a running time in seconds */
static const char *age(const char *secs, char *buf, size_t len)
{
	double t = atof(secs);

	if (t >= 86400)
		snprintf(buf, len, "%.1f days", t / 86400);
	else if (t >= 3600)
		snprintf(buf, len, "%.1f h", t / 3600);
	else
		snprintf(buf, len, "%.0f min", t / 60);
	return buf;
}

/* the assessment, as the record has it */
static void assessment(FILE *f, const struct advice_checker *c)
{
	const char *bound = advice_or_q(c->bound_s);

	if (is(c->record, "gate"))
		fputs("a new program in the work folder (the gate's assessment) ", f);
	else
		fputs("Calculator's assessment ", f);
	if (is(c->assess, "accepted"))
		fprintf(f, "answered at once: %s", is(c->record, "gate") ? "ran" : "accepted");
	else if (is(c->assess, "too-many-open-files"))
		fputs("answered \"Too many open files\"", f);
	else if (is(c->assess, "refused"))
		fputs("was refused (Operation not permitted)", f);
	else if (is(c->assess, "timeout"))
		fprintf(f, "did not answer within %s s", bound);
	else
		fprintf(f, "gave %s", advice_or_q(c->assess));
}

/* The first line: the state and the figures it rests on. */
static void checker_line(FILE *f, const struct advice *a)
{
	const struct advice_checker *c = &a->checker;
	char buf[32];

	if (!c->read)
		return;
	fprintf(f, "checker: %s", checker_state_name(c->state));
	if (is(c->record, "none")) {
		fprintf(f, " — no syspolicyd here (%s): nothing of a first-launch checker to read\n",
			or_unknown(a->where.os));
		return;
	}
	fputs(" — ", f);
	if (is(c->record, "simulated"))
		fputs("SIMULATED (the model's record, not this machine's): ", f);
	if (c->assess)
		assessment(f, c);
	if (c->cpu_pct || c->rss_kb)
		fprintf(f, "; syspolicyd %s%% CPU, %.0f MB resident", advice_or_q(c->cpu_pct),
			c->rss_kb ? atof(c->rss_kb) / 1024 : NAN);
	if (c->etime_s)
		fprintf(f, ", up %s", age(c->etime_s, buf, sizeof buf));
	if (c->trustd_cpu_pct)
		fprintf(f, "; trustd %s%% CPU", c->trustd_cpu_pct);
	if (c->rate)
		fprintf(f, "; its log's last %s s: %s lines a second not the kit's (the baseline %s)",
			advice_or_q(c->window_s), c->rate, advice_or_q(c->baseline));
	else if (c->log)
		fprintf(f, "; its log: %s", c->log);
	if (c->emfile_lines && strcmp(c->emfile_lines, "0") != 0)
		fprintf(f, ", %s lines of error 24", c->emfile_lines);
	if (c->driver)
		fprintf(f, "; named most: %s (%s lines)", c->driver, advice_or_q(c->driver_lines));
	fputs("\n", f);
}

/* The relief of a sick checker, each step with what it asks and its
 * sources; the kit runs none of it. */
static void relief(FILE *f, const struct advice *a)
{
	const struct advice_checker *c = &a->checker;
	int i;

	if (is(c->record, "simulated") || is(c->record, "gate"))
		fprintf(f, "relief: none needed here: %s is sick on purpose; on a Mac the reports' "
			"relief is:\n", is(c->record, "gate") ? "the calibration gate" : "the simulator's checker");
	for (i = 0; i < c->n_relief; i++) {
		const struct checker_step *x = c->relief[i];

		fprintf(f, "relief: %d. %s", i + 1, x->words);
		if (x->names_driver && c->driver)
			fprintf(f, " (here: %s)", c->driver);
		fprintf(f, " — %s (%s).\n", advice_relief_needs(x), x->source);
	}
}

/* ---- the machine and the probe --------------------------------------------------------- */

static void state(FILE *f, const struct advice *a)
{
	const struct advice_setting *s = &a->where;
	const struct advice_probe *p = &a->probe;
	const char *kase = p->kase && *p->kase ? p->kase : "none";
	char fb[32], rb[32], pb[96];

	fputs("execlag doctor: does a new program pay on its first launch here, and what to do\n", f);
	if (s->darwin) {
		fprintf(f, "SIP: %s\n", or_unknown(s->sip));
		fprintf(f, "responsible app: %s — Developer Tools: %s\n", or_unknown(s->responsible_app),
			or_unknown(s->devtools));
		fprintf(f, "XProtect: %s, launch scans %s\n", or_unknown(s->xprotect_version),
			or_unknown(s->xprotect_scans));
	} else {
		fprintf(f, "system: %s (%s): no first-launch assessment, the control\n",
			or_unknown(s->os), or_unknown(s->os_name));
		fprintf(f, "watchers: fanotify listeners: %s; known agents: %s\n",
			or_unknown(s->listeners), or_unknown(s->agents));
	}
	fprintf(f, "started: %s (ssh: %s, tmux/screen: %s, launchd job: %s)\n",
		or_unknown(s->started_via), or_unknown(s->ssh), or_unknown(s->multiplexer),
		or_unknown(s->launchd_job));
	fprintf(f, "network: %s (interface %s)\n", or_unknown(s->network), or_unknown(s->interface));
	if (s->gate && s->gate_exhausted && strcmp(s->gate_exhausted, "1") == 0)
		fputs("gate: the calibration gate refused every launch it held (exhausted=1: FAN_DENY, "
		      "the exec fails with EPERM)\n", f);
	else if (s->gate)
		fprintf(f, "gate: the calibration gate held the launches (latency %s ms, workers %s, key %s)\n",
			advice_or_q(s->gate_latency_ms), advice_or_q(s->gate_workers),
			advice_or_q(s->gate_key));
	if (s->launcher)
		fprintf(f, "SIMULATED: %s — nothing was launched; the times are the model's\n", s->launcher);
	if (p->verdict == ADVICE_HANG) {
		fprintf(f, "probe: new programs (%s), each to be launched twice, one at a time, each "
			"launch bounded: one did not start\n", kase);
		return;
	}
	if (a->cause == ADVICE_CAUSE_CHECKER && p->pairs <= 0 && isnan(p->first_ms)) {
		fprintf(f, "probe: new programs (%s), each to be launched twice, one at a time: none "
			"ran (%s)\n", kase, p->reason ? p->reason : "no launch succeeded");
		return;
	}
	fprintf(f, "probe: %ld new programs (%s), each launched twice, one at a time: first %s ms, "
		"repeat %s ms (medians); a first launch costs %s more\n",
		p->pairs >= 0 ? p->pairs : 0L, kase,
		isnan(p->first_ms) ? "?" : num2(p->first_ms, fb, sizeof fb),
		isnan(p->repeat_ms) ? "?" : num2(p->repeat_ms, rb, sizeof rb),
		advice_penalty_text(p, pb, sizeof pb));
}

/* ---- when a new program does not start ------------------------------------------------ */

/* Each hung process as it was before the kill (the first three). */
static void evidence(FILE *f, const struct advice_hang *h)
{
	int i;

	for (i = 0; i < h->n_launches && i < 3; i++) {
		const struct advice_launch *l = &h->launch[i];
		char cpu_s[32];

		if (l->simulated) {
			fprintf(f, "evidence: %s launch %lld: simulated (the model's checker answered "
				"nothing); no process to read.\n", l->pass, l->index);
			continue;
		}
		snprintf(cpu_s, sizeof cpu_s, isnan(l->cpu_s) ? "unknown" : "%.2f s", l->cpu_s);
		fprintf(f, "evidence: %s launch %lld, process %lld, before the kill: state %s, CPU "
			"time %s, waiting in %s; %s.\n", l->pass, l->index, l->pid,
			l->state ? l->state : "?", cpu_s,
			l->wchan && strcmp(l->wchan, "-") != 0 ? l->wchan : "(no wait channel shown)",
			l->unkillable ? "it did not die from SIGKILL within 2 s (stuck in the kernel): left "
					"behind, the kit went on without it"
				      : "killed");
	}
}

static void services(FILE *f, const struct advice *a)
{
	const struct advice_hang *h = &a->probe.hang;
	int i;

	if (!h->sampled) {
		fprintf(f, "services: %s.\n", h->services_reason ? h->services_reason : "not sampled");
		return;
	}
	fputs("services: CPU from half the bound to the kill:", f);
	for (i = 0; i < h->n_services; i++) {
		if (isnan(h->service[i].cpu_s))
			fprintf(f, "%s %s unknown", i ? "," : "", h->service[i].name);
		else
			fprintf(f, "%s %s %.2f s", i ? "," : "", h->service[i].name, h->service[i].cpu_s);
	}
	fputs(a->where.darwin ? " (a busy syspolicyd beside processes at 0 CPU is what "
				"rjwalters/loom#4046 saw).\n"
			      : " (macOS's services: none of them runs here).\n", f);
}

static void copy(FILE *f, const struct advice *a)
{
	const struct advice_setting *s = &a->where;

	switch (a->probe.hang.copy) {
	case ADVICE_COPY_NOT_TRIED:
		fprintf(f, "copy: not tried (%s).\n", s->launcher ? "a simulated run launches nothing"
								    : "the run has no copy test");
		break;
	case ADVICE_COPY_STARTED:
		fprintf(f, "copy: the same bytes copied to a new path started at once (%s ms): "
			"the checker holds a verdict on that file, not on its bytes, as in "
			"%s, where cp made a hung program run.\n", advice_or_q(s->copy_ms),
			advice_cite(a->probe.hang.copy_source, 0));
		break;
	case ADVICE_COPY_HUNG:
		fprintf(f, "copy: the same bytes copied to a new path hung too (its own bound, %s s): "
			"the checker answers nothing at all, not only for that file.\n",
			advice_or_q(s->copy_s));
		break;
	default:
		fprintf(f, "copy: %s.\n", s->copy);
		break;
	}
}

/* The unified log's lines of the hung configuration's window that name the
 * hung program, and the kernel's ASP lines (entireio/cli#1065 quotes one
 * beginning "ASP: Security policy would not"). */
static void log_lines(FILE *f, const struct advice_log *l)
{
	int i;

	if (!l->looked)
		return;
	if (!l->read) {
		fprintf(f, "log: no excerpt of the window (the unified log is read on macOS)\n");
		return;
	}
	for (i = 0; i < l->n_lines; i++)
		fprintf(f, "log: %s: %s\n", l->line[i].image ? l->line[i].image : "?", l->line[i].message);
	if (!l->named)
		fprintf(f, "log: none of the window's %d lines names %s\n", (int)l->lines, l->prog);
	if (!l->asp)
		fprintf(f, "log: no kernel line beginning \"ASP: Security policy would not\" (the "
			"beginning entireio/cli#1065 quotes; no whole line of a hang is published)\n");
}

/* A hang's lines: how many launches did not end within the bound, each
 * hung process, the services' CPU over the wait, whether a copy started. */
static void hang(FILE *f, const struct advice *a)
{
	char buf[512];

	fprintf(f, "hang: %s; killed, and the case stopped there (no more launches into a checker "
		"that does not answer).\n", advice_hang_counts(&a->probe.hang, buf, sizeof buf));
	evidence(f, &a->probe.hang);
	services(f, a);
	copy(f, a);
	log_lines(f, &a->log);
}

/* What public reports found to help with programs that never start, each
 * with its source and whether it needs a reboot or an administrator. */
static void fixes(FILE *f, const struct advice *a)
{
	int i;

	for (i = 0; i < a->n_fixes; i++) {
		const struct advice_step *x = &a->fix[i];
		const char *s0 = advice_cite(x->source, 0), *s1 = advice_cite(x->source, 1);

		switch (x->what) {
		case ADVICE_FIX_NONE:
			fprintf(f, "fix: none needed: %s wedged on purpose (wedge=K); on a Mac the public "
				"reports' fixes apply (docs/evidence.md, \"When new programs never start\").\n",
				a->where.launcher ? "the simulator's checker" : "the calibration gate");
			break;
		case ADVICE_FIX_SCANNER:
			fputs("fix: what holds the launch here is a Linux scanner or agent "
			      "(docs/linux-scanners.md); the public reports of hangs are macOS's.\n", f);
			break;
		case ADVICE_FIX_COPY:
			fprintf(f, "fix: copy the program to a new path and run the copy (cp, no admin, no "
				"reboot): the same bytes ran after cp in %s, and %s "
				"calls it an inode-keyed launch-block cache.\n", s0, s1);
			break;
		case ADVICE_FIX_LOAD:
			fprintf(f, "fix: stop the load that floods syspolicyd (many new programs at once, or an "
				"app relaunching in a loop); removing the build load was normally enough "
				"(%s); no admin, no reboot.\n", s0);
			break;
		case ADVICE_FIX_KILL:
			fprintf(f, "fix: sudo killall %s (needs an administrator's password; launchd "
				"starts it again): it un-hung a new program in %s and is the manual "
				"unwedge in %s.\n", x->app, s0, s1);
			break;
		case ADVICE_FIX_REBOOT:
			fprintf(f, "fix: restart the Mac (a reboot): in %s nothing else let the "
				"program start again; %s found syspolicyd wedged after 42 days up.\n", s0, s1);
			break;
		default:
			break;
		}
	}
}

/* ---- the cause and the one thing to do -------------------------------------------------- */

/* The Developer Tools steps for app, by release (System Settings from
 * macOS 13; System Preferences before), and what they will not fix. */
static void grant_steps(FILE *f, const struct advice *a, const struct advice_step *x)
{
	int major = a->where.macos_major;

	if (major >= 13 || major == 0)
		fprintf(f, "do: open System Settings › Privacy & Security › Developer Tools");
	else
		fprintf(f, "do: open System Preferences › Security & Privacy › Privacy › Developer Tools");
	fprintf(f, " (or run: open \"x-apple.systempreferences:com.apple.preference.security?"
		"Privacy_DevTools\"), turn on %s (add it with + if it is not listed), then quit %s "
		"and open it again, and run make doctor in the new window.\n", x->app, x->app);
	fputs("do: for Terminal, `spctl developer-mode enable-terminal` makes it appear in that "
	      "list (it may ask for an administrator's password); you still turn it on there.\n", f);
	fprintf(f, "will not fix: programs started over ssh (sshd-keygen-wrapper is responsible for "
		"them, %s) or by a launchd job (no terminal is, %s), nor "
		"a tmux session re-attached from another terminal (%s).\n", advice_cite(x->source, 0),
		advice_cite(x->source, 1), advice_cite(x->source, 2));
}

static void cause(FILE *f, const struct advice *a)
{
	const struct advice_setting *s = &a->where;
	const struct advice_probe *p = &a->probe;
	int hung = p->verdict == ADVICE_HANG;
	char buf[512];

	switch (a->cause) {
	case ADVICE_CAUSE_CHECKER:
		fputs("cause: ", f);
		advice_checker_cause(f, a);
		fputs(".\n", f);
		break;
	case ADVICE_CAUSE_SIMULATED:
		fprintf(f, hung ? "cause: a simulated run (%s): the model's checker stopped answering "
				  "(wedge), not this machine's; nothing was launched.\n"
				: "cause: a simulated run (%s): the model's settings made this verdict, "
				  "not this machine; nothing was launched.\n", s->launcher);
		break;
	case ADVICE_CAUSE_GATE:
		if (hung)
			fprintf(f, "cause: the calibration gate stopped answering after %s held checks "
				"(wedge): a test of the kit against a known truth, not of this OS.\n",
				advice_or_q(s->gate_wedge));
		else
			fputs("cause: the calibration gate held the launches in the work folder: a test "
			      "of the kit against a known truth, not of this OS.\n", f);
		break;
	case ADVICE_CAUSE_HANG:
		advice_hang_counts(&p->hang, buf, sizeof buf);
		if (s->darwin)
			fprintf(f, "cause: a new program did not start: %s, as when syspolicyd is busy or "
				"wedged (%s, %s): the checking step, not the program, held it.\n", buf,
				advice_cite(a->cause_source, 0), advice_cite(a->cause_source, 1));
		else
			fprintf(f, "cause: a new program did not start: %s; something here holds a first "
				"launch without answering (fanotify listeners: %s).\n", buf,
				advice_or_q(s->listeners));
		break;
	case ADVICE_CAUSE_UNCLEAR:
		fprintf(f, "cause: the probe's %ld launches could not tell: %s.\n",
			p->pairs >= 0 ? p->pairs : 0L, p->reason ? p->reason : "no verdict");
		break;
	case ADVICE_CAUSE_CONTROL:
		fputs("cause: nothing to fix: a new program does not pay here (", f);
		advice_watchers(f, s);
		fputs(").\n", f);
		break;
	case ADVICE_CAUSE_GRANTED:
		fprintf(f, "cause: nothing to fix: a new program does not pay here now (%s is a "
			"Developer Tool).\n", s->app);
		break;
	case ADVICE_CAUSE_SIP_OFF:
		fputs("cause: nothing to fix: a new program does not pay here now (SIP is off).\n", f);
		break;
	case ADVICE_CAUSE_NOT_SEEN:
		fputs("cause: nothing to fix: a new program does not pay here now.\n", f);
		break;
	case ADVICE_CAUSE_WATCHER:
		fputs("cause: something holds a new program on its first launch here (", f);
		advice_watchers(f, s);
		fputs(").\n", f);
		break;
	default:
		fputs("cause: ", f);
		advice_penalty_cause(f, a);
		fputs(".\n", f);
		break;
	}
}

static void step(FILE *f, const struct advice *a, const struct advice_step *x)
{
	const struct advice_setting *s = &a->where;

	switch (x->what) {
	case ADVICE_DO_RELIEF:
		fputs("do: the relief below, in order, until the checker is well (the kit runs none of "
		      "it: it says it); run make doctor again after the relief; make compare shows "
		      "before and after (make repro TAG=before now, make repro TAG=after then, make "
		      "compare A=before B=after).\n", f);
		break;
	case ADVICE_DO_NOTHING_SIM:
		fputs("do: nothing about this machine; make doctor without LAUNCHER measures it.\n", f);
		break;
	case ADVICE_DO_NOTHING_GATE:
		fputs("do: nothing; make doctor without GATE measures the machine itself.\n", f);
		break;
	case ADVICE_DO_HANG_FIXES:
		fputs("do: try the fixes below in order, the first ones need neither an administrator "
		      "nor a reboot; then make doctor again.\n", f);
		break;
	case ADVICE_DO_FIND_HOLDER:
		fputs("do: find the scanner or agent that holds it and exclude the build folder "
		      "(docs/linux-scanners.md); then make doctor again.\n", f);
		break;
	case ADVICE_DO_MEASURE_MORE:
		fputs("do: run make repro (about 1¼ minutes on a Mac at 150 ms, the simulator's "
		      "figure): more launches and every case, with a report.\n", f);
		break;
	case ADVICE_DO_NOTHING:
		fputs("do: nothing.\n", f);
		break;
	case ADVICE_DO_AS_ROOT:
		fputs("do: run make doctor as root, which names the fanotify listeners; then "
		      "exclude the build folder in that scanner (docs/linux-scanners.md).\n", f);
		break;
	case ADVICE_DO_EXCLUDE:
		fputs("do: exclude the build folder in that scanner or agent "
		      "(docs/linux-scanners.md says how for each).\n", f);
		break;
	case ADVICE_DO_TERMINAL:
		fputs(a->cause == ADVICE_CAUSE_SSH
			      ? "do: run the command in a terminal on the Mac itself whose app is a "
				"Developer Tool; to make it one:\n"
			      : "do: run the command in a terminal whose app is a Developer Tool; to make "
				"it one:\n", f);
		break;
	case ADVICE_DO_GRANT:
		grant_steps(f, a, x);
		break;
	case ADVICE_DO_REGRANT:
		fprintf(f, "do: in Developer Tools remove %s and add it again with + (the program at "
			"%s), after each update of an ad-hoc signed build (%s); then "
			"quit every %s session and start a new one; then make doctor again.\n", x->app,
			s->responsible_path ? s->responsible_path : "its path", advice_cite(x->source, 0),
			x->app);
		break;
	case ADVICE_DO_RESTART_MUX:
		fprintf(f, "do: either end the %s server and start it again from a terminal that is a "
			"Developer Tool (%s), or add %s itself to Developer Tools with + "
			"(%s; again after each update of an ad-hoc signed build); "
			"then make doctor again.\n", x->app, advice_cite(x->source, 0), x->app,
			advice_cite(x->source, 1));
		break;
	case ADVICE_DO_NEW_TMUX:
		fprintf(f, "do: start a new tmux session from a window of %s and use it there, or run "
			"outside tmux; then make doctor again.\n", x->app);
		break;
	case ADVICE_DO_REPORT:
		fputs(a->cause == ADVICE_CAUSE_GRANTED_PAYS
			      ? "do: run make repro, then make feedback: the numbers, ready for a report to "
				"Apple; meanwhile try a terminal that is a Developer Tool and reported to work "
				"(Terminal, iTerm2).\n"
			      : "do: run make repro, then make feedback: the numbers, ready for a report.\n",
		      f);
		break;
	case ADVICE_DO_KILL_TMUX:
		fprintf(f, "do: then end the tmux server (tmux kill-server) and start it from the new "
			"window: a server started before keeps the app it was started from "
			"(%s).\n", advice_cite(x->source, 0));
		break;
	case ADVICE_DO_TRY_TERMINAL:
		fprintf(f, "do: if VS Code's terminal still pays after that, run the command from "
			"%s, whose grant is documented: which process macOS holds responsible "
			"in VS Code's terminal is not.\n", x->app);
		break;
	default:
		break;
	}
}

/* cause:, do: and a sick checker's relief: lines */
static void cause_and_steps(FILE *f, const struct advice *a)
{
	int i;

	cause(f, a);
	for (i = 0; i < a->n_steps; i++)
		step(f, a, &a->step[i]);
	if (a->cause == ADVICE_CAUSE_CHECKER)
		relief(f, a);
}

void advice_cause_lines(FILE *f, const struct advice *a)
{
	checker_line(f, a);
	cause_and_steps(f, a);
}

/* The last line: "verdict: penalty 149.9 ms [149.2, 150.3]", "verdict: none
 * — …", "verdict: unclear — …: run make repro". */
static void verdict(FILE *f, const struct advice *a)
{
	const struct advice_probe *p = &a->probe;
	char buf[512];

	advice_penalty_text(p, buf, sizeof buf);
	switch (p->verdict) {
	case ADVICE_PENALTY:
		fprintf(f, "verdict: penalty %s\n", buf);
		break;
	case ADVICE_NONE:
		fprintf(f, "verdict: none — %s\n", buf);
		break;
	case ADVICE_HANG:
		fprintf(f, "verdict: hang — %s\n", advice_hang_counts(&p->hang, buf, sizeof buf));
		break;
	default:
		if (a->cause == ADVICE_CAUSE_CHECKER)
			fprintf(f, "verdict: unclear — %s: the checker first (the relief above), then "
				"make doctor again\n", buf);
		else
			fprintf(f, "verdict: unclear — %s: run make repro\n", buf);
		break;
	}
}

void advice_doctor(FILE *f, const struct advice *a)
{
	int hung = a->probe.verdict == ADVICE_HANG;

	checker_line(f, a);
	state(f, a);
	if (hung)
		hang(f, a);
	cause_and_steps(f, a);
	if (hung)
		fixes(f, a);
	verdict(f, a);
}

void advice_write(FILE *f, advice_get get, const void *ctx, const struct advice_probe *p)
{
	struct advice a;

	advice_of_probe(&a, get, ctx, p);
	advice_cause_lines(f, &a);
}
