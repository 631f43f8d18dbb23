/* advice.c - the plain lines: what the conditions mean, the cause, the one
 * thing to do (advice.h).  Sources in docs/evidence.md, "How the kit was
 * started" and "What make doctor says". */
#define _POSIX_C_SOURCE 200809L
#include "advice.h"
#include "jsonnum.h"
#include "runjson.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct conds {
	advice_get get;
	const void *ctx;
};

static const char *val(const struct conds *c, const char *key)
{
	const char *v = c->get ? c->get(c->ctx, key) : NULL;

	return v && *v ? v : NULL;
}

static int is(const struct conds *c, const char *key, const char *want)
{
	const char *v = val(c, key);

	return v && strcmp(v, want) == 0;
}

static int known(const char *v)
{
	return v && strcmp(v, "unknown") != 0 && strcmp(v, "n/a") != 0 && strcmp(v, "none") != 0 &&
	       strcmp(v, "self") != 0;
}

static int darwin(const struct conds *c)
{
	return is(c, "os", "Darwin");
}

static int in_list(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while (p && (p = strstr(p, word)) != NULL) {
		if ((p == list || p[-1] == ',') && (p[n] == '\0' || p[n] == ','))
			return 1;
		p += n;
	}
	return 0;
}

static int in_tmux(const struct conds *c)
{
	return in_list(val(c, "multiplexer"), "tmux");
}

static int in_zellij(const struct conds *c)
{
	return in_list(val(c, "multiplexer"), "zellij");
}

/* The responsible program is the multiplexer itself (its server started
 * outside a terminal's tree, or granted in its own right): tmux or zellij. */
static const char *mux_responsible(const struct conds *c)
{
	const char *r = val(c, "responsible_app");

	if (r && (strcmp(r, "tmux") == 0 || strcmp(r, "zellij") == 0))
		return r;
	return NULL;
}

/* VS Code's integrated terminal: which process macOS holds responsible
 * for what it starts is not documented (docs/evidence.md, [NF]). */
static int in_vscode(const struct conds *c)
{
	return is(c, "terminal_app", "VS Code");
}

static int in_screen(const struct conds *c)
{
	return in_list(val(c, "multiplexer"), "screen");
}

static int simulated(const struct conds *c)
{
	const char *l = val(c, "launcher");

	return l && strncmp(l, "sim:", 4) == 0;
}

/* The app a Developer Tools grant would have to name: the responsible app
 * where it was read, else the terminal the environment names. */
static const char *app(const struct conds *c)
{
	if (known(val(c, "responsible_app")))
		return val(c, "responsible_app");
	if (known(val(c, "terminal_app")))
		return val(c, "terminal_app");
	return "your terminal";
}

static const char *or_q(const char *v)
{
	return v ? v : "?";
}

static int devtools_authorized(const struct conds *c)
{
	return is(c, "devtools", "authorized");
}

static int devtools_refused(const struct conds *c)
{
	return is(c, "devtools", "denied") || is(c, "devtools", "not-determined") ||
	       is(c, "devtools", "restricted");
}

/* The release's macOS major version, 0 when unknown. */
static int macos_major(const struct conds *c)
{
	const char *v = val(c, "os_version");

	return v ? atoi(v) : 0;
}

const char *advice_verdict_word(enum advice_verdict v)
{
	switch (v) {
	case ADVICE_PENALTY: return "penalty";
	case ADVICE_NONE: return "none";
	case ADVICE_HANG: return "hang";
	default: return "unclear";
	}
}

int advice_exit_status(enum advice_verdict v)
{
	switch (v) {
	case ADVICE_NONE: return 0;
	case ADVICE_PENALTY: return 1;
	case ADVICE_HANG: return 4;
	default: return 3;
	}
}

static const char *ms(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "?");
	else if (fabs(v) < 10.0)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.1f", v);
	return buf;
}

const char *advice_penalty_text(const struct advice_probe *p, char *buf, size_t len)
{
	char a[32], b[32], m[32];

	snprintf(buf, len, "%s ms [%s, %s]", ms(p->penalty_ms, m, sizeof m), ms(p->low_ms, a, sizeof a),
		 ms(p->high_ms, b, sizeof b));
	return buf;
}

/* ---- how the kit was started ---------------------------------------------------------- */

int advice_started(FILE *f, advice_get get, const void *ctx, const char *prefix)
{
	struct conds c = { get, ctx };
	const char *via = val(&c, "started_via"), *a = app(&c), *dt = val(&c, "devtools");
	int n = 0, plain = 1;

	if (!prefix)
		prefix = "";
	if (!darwin(&c)) {
		fprintf(f, "%sStarted via: %s. Only macOS holds an app responsible for what the kit "
			"launches; here ssh, tmux and the terminal do not change the verdicts.\n",
			prefix, via ? via : "unknown");
		return 1;
	}
	if (is(&c, "ssh", "yes")) {
		fprintf(f, "%sStarted over ssh: macOS then holds sshd-keygen-wrapper, not a terminal, "
			"responsible for what the kit launches (cargo PR #15908), so no terminal's "
			"Developer Tools grant applies; one project measured 0.30–0.36 s per new program "
			"started from sshd, and none from Terminal or iTerm2 (marspot RFC-007).\n", prefix);
		n++, plain = 0;
	}
	if (is(&c, "launchd_job", "yes")) {
		fprintf(f, "%sStarted by a launchd job (XPC_SERVICE_NAME holds a job's label): no "
			"terminal is responsible for what it launches; one project measured 0.39–0.48 s "
			"per new program started from a launchd job (marspot RFC-007).\n", prefix);
		n++, plain = 0;
	} else if (is(&c, "tty", "no") && is(&c, "ssh", "no")) {
		fprintf(f, "%sNo terminal on standard input and no launchd label: a launchd job's "
			"children were seen with XPC_SERVICE_NAME=0 (openclaw#91525), so this may still "
			"be one.\n", prefix);
		n++;
	}
	if (in_tmux(&c)) {
		fprintf(f, "%sInside tmux: a session made in an authorised terminal and used at once "
			"paid nothing, but after a detach and a re-attach from a reopened terminal new "
			"programs paid again (tmux#4803); tmux passes on the environment its server "
			"started with, so the app named here may be an earlier one.\n", prefix);
		n++, plain = 0;
	}
	if (in_screen(&c)) {
		fprintf(f, "%sInside GNU screen: no public report measured a session of screen "
			"(tmux#4803 is about tmux, whose re-attached sessions paid again).\n", prefix);
		n++, plain = 0;
	}
	if (in_zellij(&c)) {
		fprintf(f, "%sInside zellij: no public report measured a session of zellij; "
			"nextest-rs/nextest#63 grants tmux or zellij themselves, a grant that follows "
			"the program's signature and path.\n", prefix);
		n++, plain = 0;
	}
	if (mux_responsible(&c)) {
		fprintf(f, "%sThe responsible program is %s itself: its server is no child of a "
			"terminal (started elsewhere, or re-attached: tmux#4803), so only a grant of %s "
			"reaches what the kit starts (nextest-rs/nextest#63).\n", prefix,
			mux_responsible(&c), mux_responsible(&c));
		n++;
	}
	if (in_vscode(&c)) {
		fprintf(f, "%sIn VS Code's terminal: which process macOS holds responsible there no "
			"public source names; the kit reads it (responsible app: %s).\n", prefix, a);
		n++;
	}
	if (plain && via && strcmp(via, "unknown") != 0 && strcmp(via, "no terminal") != 0) {
		fprintf(f, "%sStarted from %s: not over ssh, in tmux or screen, or by a launchd job.\n",
			prefix, via);
		n++;
	}
	if (devtools_refused(&c)) {
		fprintf(f, "%sThe responsible app, %s, is not a Developer Tool (Developer Tools: %s): "
			"macOS assesses every new program it starts on that program's first launch, which "
			"is what the verdicts measure; cargo's detector (PR #15908) warns in this state.\n",
			prefix, a, dt);
		n++;
	} else if (devtools_authorized(&c)) {
		fprintf(f, "%sThe responsible app, %s, is a Developer Tool: the programs it starts "
			"should not be assessed (the nextest and cargo docs); a penalty measured here is "
			"worth a report.\n", prefix, a);
		n++;
		if (strcmp(a, "Alacritty") == 0) {
			fprintf(f, "%sAlacritty listed as a Developer Tool still paid on macOS 26.1 and "
				"26.2 (alacritty#8785).\n", prefix);
			n++;
		}
	} else if (dt) {
		fprintf(f, "%sThe Developer Tools state of the responsible app (%s) could not be read "
			"(devtools=%s).\n", prefix, a, dt);
		n++;
	}
	if (is(&c, "sip", "disabled")) {
		fprintf(f, "%sSIP is off: that largely disables the com.apple.syspolicy subsystem "
			"(Oakley), so no penalty is expected.\n", prefix);
		n++;
	}
	return n;
}

/* ---- when a new program does not start ----------------------------------------------- */

static double jnum(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* "1 of 3 first launches did not end within 4 s" (and the repeat's, where
 * one hung), into buf. */
static const char *hang_counts(const json_t *hang, char *buf, size_t len)
{
	static const char *const passes[] = { "first", "repeat", "reference" };
	const json_t *hung = json_object_get(hang, "hung"), *made = json_object_get(hang, "made");
	double bound = jnum(hang, "bound_s");
	size_t at = 0, i;

	buf[0] = '\0';
	for (i = 0; i < 3 && at < len; i++) {
		json_int_t h = json_integer_value(json_object_get(hung, passes[i]));

		if (h <= 0)
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%lld of %lld %s launch%s did not end within %g s",
				       at ? "; " : "", (long long)h,
				       (long long)json_integer_value(json_object_get(made, passes[i])),
				       passes[i], json_integer_value(json_object_get(made, passes[i])) == 1 ? "" : "es",
				       isnan(bound) ? 0.0 : bound);
	}
	if (!buf[0])
		snprintf(buf, len, "a launch did not end within its bound");
	return buf;
}

void advice_hang(FILE *f, advice_get get, const void *ctx, const json_t *hang, const char *prefix)
{
	struct conds c = { get, ctx };
	const json_t *list = json_object_get(hang, "launches"), *h, *svc;
	const char *copy = val(&c, "hang.copy"), *k;
	char buf[512];
	size_t i;
	int n = 0;

	if (!prefix)
		prefix = "";
	fprintf(f, "%shang: %s; killed, and the case stopped there (no more launches into a checker "
		"that does not answer).\n", prefix, hang_counts(hang, buf, sizeof buf));
	json_array_foreach(list, i, h) {
		const char *state = json_string_value(json_object_get(h, "state"));
		const char *wchan = json_string_value(json_object_get(h, "wchan"));
		const char *out = json_string_value(json_object_get(h, "outcome"));
		double cpu = jnum(h, "cpu_s");
		char cpu_s[32];

		if (n++ == 3)
			break;
		if (state && strcmp(state, "sim") == 0) {
			fprintf(f, "%sevidence: %s launch %lld: simulated (the model's checker answered "
				"nothing); no process to read.\n", prefix,
				json_string_value(json_object_get(h, "pass")),
				(long long)json_integer_value(json_object_get(h, "index")));
			continue;
		}
		snprintf(cpu_s, sizeof cpu_s, isnan(cpu) ? "unknown" : "%.2f s", cpu);
		fprintf(f, "%sevidence: %s launch %lld, process %lld, before the kill: state %s, CPU "
			"time %s, waiting in %s; %s.\n", prefix,
			json_string_value(json_object_get(h, "pass")),
			(long long)json_integer_value(json_object_get(h, "index")),
			(long long)json_integer_value(json_object_get(h, "pid")), state ? state : "?",
			cpu_s, wchan && strcmp(wchan, "-") != 0 ? wchan : "(no wait channel shown)",
			out && strcmp(out, "unkillable") == 0
				? "it did not die from SIGKILL within 2 s (stuck in the kernel): left "
				  "behind, the kit went on without it"
				: "killed");
	}
	svc = json_object_get(hang, "services_cpu_s");
	if (json_is_object(svc)) {
		const json_t *v;
		int any = 0;

		fprintf(f, "%sservices: CPU from half the bound to the kill:", prefix);
		json_object_foreach((json_t *)svc, k, v) {
			if (json_is_number(v))
				fprintf(f, "%s %s %.2f s", any++ ? "," : "", k, json_number_value(v));
			else
				fprintf(f, "%s %s unknown", any++ ? "," : "", k);
		}
		fputs(darwin(&c) ? " (a busy syspolicyd beside processes at 0 CPU is what "
				   "rjwalters/loom#4046 saw).\n"
				 : " (macOS's services: none of them runs here).\n", f);
	} else {
		const char *why = json_string_value(json_object_get(hang, "services_reason"));

		fprintf(f, "%sservices: %s.\n", prefix, why ? why : "not sampled");
	}
	if (!copy)
		fprintf(f, "%scopy: not tried (%s).\n", prefix,
			simulated(&c) ? "a simulated run launches nothing" : "the run has no copy test");
	else if (strcmp(copy, "started") == 0)
		fprintf(f, "%scopy: the same bytes copied to a new path started at once (%s ms): "
			"the checker holds a verdict on that file, not on its bytes, as in "
			"openai/codex#23802, where cp made a hung program run.\n", prefix,
			or_q(val(&c, "hang.copy_ms")));
	else if (strcmp(copy, "hung") == 0)
		fprintf(f, "%scopy: the same bytes copied to a new path hung too (its own bound, %s s): "
			"the checker answers nothing at all, not only for that file.\n", prefix,
			or_q(val(&c, "hang.copy_s")));
	else
		fprintf(f, "%scopy: %s.\n", prefix, copy);
}

void advice_hang_fixes(FILE *f, advice_get get, const void *ctx, const char *prefix)
{
	struct conds c = { get, ctx };

	if (!prefix)
		prefix = "";
	if (simulated(&c) || is(&c, "gate.active", "1")) {
		fprintf(f, "%sfix: none needed: %s wedged on purpose (wedge=K); on a Mac the public "
			"reports' fixes apply (docs/evidence.md, \"When new programs never start\").\n",
			prefix, simulated(&c) ? "the simulator's checker" : "the calibration gate");
		return;
	}
	if (!darwin(&c)) {
		fprintf(f, "%sfix: what holds the launch here is a Linux scanner or agent "
			"(docs/linux-scanners.md); the public reports of hangs are macOS's.\n", prefix);
		return;
	}
	fprintf(f, "%sfix: copy the program to a new path and run the copy (cp, no admin, no "
		"reboot): the same bytes ran after cp in openai/codex#23802, and tldraw-offline#79 "
		"calls it an inode-keyed launch-block cache.\n", prefix);
	fprintf(f, "%sfix: stop the load that floods syspolicyd (many new programs at once, or an "
		"app relaunching in a loop); removing the build load was normally enough "
		"(rjwalters/loom#4046); no admin, no reboot.\n", prefix);
	fprintf(f, "%sfix: sudo killall syspolicyd (needs an administrator's password; launchd "
		"starts it again): it un-hung a new program in golang/go#37885 and is the manual "
		"unwedge in rjwalters/loom#4046.\n", prefix);
	fprintf(f, "%sfix: restart the Mac (a reboot): in openai/codex#28071 nothing else let the "
		"program start again; entireio/cli#1065 found syspolicyd wedged after 42 days up.\n",
		prefix);
}

/* ---- the cause and the one thing to do ----------------------------------------------- */

/* The Developer Tools steps for app, by release (System Settings from
 * macOS 13; System Preferences before), and what they will not fix. */
static void devtools_steps(FILE *f, const struct conds *c, const char *a)
{
	if (macos_major(c) >= 13 || macos_major(c) == 0)
		fprintf(f, "do: open System Settings › Privacy & Security › Developer Tools");
	else
		fprintf(f, "do: open System Preferences › Security & Privacy › Privacy › Developer Tools");
	fprintf(f, " (or run: open \"x-apple.systempreferences:com.apple.preference.security?"
		"Privacy_DevTools\"), turn on %s (add it with + if it is not listed), then quit %s "
		"and open it again, and run make doctor in the new window.\n", a, a);
	fputs("do: for Terminal, `spctl developer-mode enable-terminal` makes it appear in that "
	      "list (it may ask for an administrator's password); you still turn it on there.\n", f);
	fputs("will not fix: programs started over ssh (sshd-keygen-wrapper is responsible for "
	      "them, cargo PR #15908) or by a launchd job (no terminal is, marspot RFC-007), nor "
	      "a tmux session re-attached from another terminal (tmux#4803).\n", f);
}

/* The cause of a penalty on a Mac, a clause without "cause: " or the
 * final stop: the doctor's line and the brief one share it. */
static void darwin_penalty_cause(FILE *f, const struct conds *c)
{
	const char *a = app(c);

	if (is(c, "ssh", "yes"))
		fputs("the kit ran over ssh, so macOS holds sshd-keygen-wrapper responsible "
		      "for the programs it starts (cargo PR #15908), and no terminal's Developer Tools "
		      "grant reaches them", f);
	else if (is(c, "launchd_job", "yes"))
		fputs("the kit ran from a launchd job, which no terminal is responsible for, "
		      "so no Developer Tools grant reaches what it starts (marspot RFC-007)", f);
	else if (mux_responsible(c) && devtools_authorized(c))
		fprintf(f, "%s itself is the responsible program and a Developer Tool, yet a new "
			"program pays: a grant follows the program's signature and path, so an update "
			"of an ad-hoc signed %s build loses it (nextest-rs/nextest#63)",
			mux_responsible(c), mux_responsible(c));
	else if (mux_responsible(c))
		fprintf(f, "%s itself is the responsible program (its server is no child of a "
			"granted terminal: started elsewhere, or re-attached, tmux#4803) and it is not a "
			"Developer Tool (Developer Tools: %s)", mux_responsible(c),
			val(c, "devtools") ? val(c, "devtools") : "unknown");
	else if (devtools_authorized(c) && in_tmux(c))
		fprintf(f, "%s is a Developer Tool, but the kit ran inside tmux, where a "
			"session re-attached from a reopened terminal pays again (tmux#4803)", a);
	else if (devtools_authorized(c))
		fprintf(f, "%s is a Developer Tool, yet a new program pays here, as reported "
			"for Alacritty on macOS 26.1 and 26.2 (alacritty#8785)", a);
	else if (is(c, "sip", "disabled"))
		fputs("a penalty with SIP off, which is not expected: that largely disables "
		      "the com.apple.syspolicy subsystem (Oakley)", f);
	else if (devtools_refused(c) && in_vscode(c))
		fprintf(f, "SIP is %s and the kit ran in VS Code's terminal, whose responsible "
			"process no public source names; the one read here, %s, is not a Developer Tool "
			"(Developer Tools: %s), so macOS assesses each new program on its first launch "
			"(cargo PR #15908)", val(c, "sip") ? val(c, "sip") : "unknown", a,
			val(c, "devtools"));
	else if (devtools_refused(c) && in_tmux(c))
		fprintf(f, "SIP is %s and %s is not a Developer Tool (Developer Tools: %s), so "
			"macOS assesses each new program on its first launch (cargo PR #15908); the kit "
			"ran inside tmux, whose server keeps the app it was started from (tmux#4803)",
			val(c, "sip") ? val(c, "sip") : "unknown", a, val(c, "devtools"));
	else if (devtools_refused(c))
		fprintf(f, "SIP is %s and %s is not a Developer Tool (Developer Tools: %s), "
			"so macOS assesses each new program on its first launch (cargo PR #15908)",
			val(c, "sip") ? val(c, "sip") : "unknown", a, val(c, "devtools"));
	else
		fprintf(f, "SIP is %s and the Developer Tools state of %s could not be read; "
			"a new program pays as it does where the app is not a Developer Tool "
			"(cargo PR #15908)", val(c, "sip") ? val(c, "sip") : "unknown", a);
}

static void write_darwin_penalty(FILE *f, const struct conds *c)
{
	const char *a = app(c);

	fputs("cause: ", f);
	darwin_penalty_cause(f, c);
	fputs(".\n", f);
	if (is(c, "ssh", "yes")) {
		fputs("do: run the command in a terminal on the Mac itself whose app is a Developer "
		      "Tool; to make it one:\n", f);
		devtools_steps(f, c, "your terminal");
	} else if (is(c, "launchd_job", "yes")) {
		fputs("do: run the command in a terminal whose app is a Developer Tool; to make it "
		      "one:\n", f);
		devtools_steps(f, c, "your terminal");
	} else if (mux_responsible(c) && devtools_authorized(c)) {
		fprintf(f, "do: in Developer Tools remove %s and add it again with + (the program at "
			"%s), after each update of an ad-hoc signed build (nextest-rs/nextest#63); then "
			"quit every %s session and start a new one; then make doctor again.\n",
			mux_responsible(c), val(c, "responsible_path") ? val(c, "responsible_path") : "its path",
			mux_responsible(c));
	} else if (mux_responsible(c)) {
		fprintf(f, "do: either end the %s server and start it again from a terminal that is a "
			"Developer Tool (tmux#4803), or add %s itself to Developer Tools with + "
			"(nextest-rs/nextest#63; again after each update of an ad-hoc signed build); "
			"then make doctor again.\n", mux_responsible(c), mux_responsible(c));
		devtools_steps(f, c, mux_responsible(c));
	} else if (devtools_authorized(c) && in_tmux(c)) {
		fprintf(f, "do: start a new tmux session from a window of %s and use it there, or run "
			"outside tmux; then make doctor again.\n", a);
	} else if (devtools_authorized(c)) {
		fputs("do: run make repro, then make feedback: the numbers, ready for a report to "
		      "Apple; meanwhile try a terminal that is a Developer Tool and reported to work "
		      "(Terminal, iTerm2).\n", f);
	} else if (is(c, "sip", "disabled")) {
		fputs("do: run make repro, then make feedback: the numbers, ready for a report.\n", f);
	} else {
		devtools_steps(f, c, a);
		if (in_tmux(c))
			fputs("do: then end the tmux server (tmux kill-server) and start it from the new "
			      "window: a server started before keeps the app it was started from "
			      "(tmux#4803).\n", f);
		if (in_vscode(c))
			fputs("do: if VS Code's terminal still pays after that, run the command from "
			      "Terminal, whose grant is documented: which process macOS holds responsible "
			      "in VS Code's terminal is not.\n", f);
	}
}

/* The doctor's cause and do for a hang. */
static void write_hang(FILE *f, const struct conds *c, const struct advice_probe *p)
{
	char buf[512];

	hang_counts(p->hang, buf, sizeof buf);
	if (simulated(c)) {
		fprintf(f, "cause: a simulated run (%s): the model's checker stopped answering "
			"(wedge), not this machine's; nothing was launched.\n", val(c, "launcher"));
		fputs("do: nothing about this machine; make doctor without LAUNCHER measures it.\n", f);
	} else if (is(c, "gate.active", "1")) {
		fprintf(f, "cause: the calibration gate stopped answering after %s held checks "
			"(wedge): a test of the kit against a known truth, not of this OS.\n",
			or_q(val(c, "gate.wedge")));
		fputs("do: nothing; make doctor without GATE measures the machine itself.\n", f);
	} else if (darwin(c)) {
		fprintf(f, "cause: a new program did not start: %s, as when syspolicyd is busy or "
			"wedged (openai/codex#17447, entireio/cli#1065): the checking step, not the "
			"program, held it.\n", buf);
		fputs("do: try the fixes below in order, the first ones need neither an administrator "
		      "nor a reboot; then make doctor again.\n", f);
	} else {
		fprintf(f, "cause: a new program did not start: %s; something here holds a first "
			"launch without answering (fanotify listeners: %s).\n", buf,
			or_q(val(c, "fanotify_listeners")));
		fputs("do: find the scanner or agent that holds it and exclude the build folder "
		      "(docs/linux-scanners.md); then make doctor again.\n", f);
	}
}

static void watchers(FILE *f, const struct conds *c)
{
	const char *l = val(c, "fanotify_listeners"), *ag = val(c, "agents");

	fprintf(f, "fanotify listeners: %s; known agents: %s", l ? l : "unknown", ag ? ag : "unknown");
}

void advice_write(FILE *f, advice_get get, const void *ctx, const struct advice_probe *p)
{
	struct conds c = { get, ctx };

	if (p->verdict == ADVICE_HANG) {
		write_hang(f, &c, p);
		return;
	}
	if (simulated(&c)) {
		fprintf(f, "cause: a simulated run (%s): the model's settings made this verdict, "
			"not this machine; nothing was launched.\n", val(&c, "launcher"));
		fputs("do: nothing about this machine; make doctor without LAUNCHER measures it.\n", f);
		return;
	}
	if (is(&c, "gate.active", "1")) {
		fputs("cause: the calibration gate held the launches in the work folder: a test "
		      "of the kit against a known truth, not of this OS.\n", f);
		fputs("do: nothing; make doctor without GATE measures the machine itself.\n", f);
		return;
	}
	switch (p->verdict) {
	case ADVICE_HANG: /* written above */
		return;
	case ADVICE_UNCLEAR:
		fprintf(f, "cause: the probe's %ld launches could not tell: %s.\n",
			p->pairs >= 0 ? p->pairs : 0L, p->reason ? p->reason : "no verdict");
		fputs("do: run make repro (about 1¼ minutes on a Mac at 150 ms, the simulator's "
		      "figure): more launches and every case, with a report.\n", f);
		return;
	case ADVICE_NONE:
		if (darwin(&c)) {
			fputs("cause: nothing to fix: a new program does not pay here now", f);
			if (devtools_authorized(&c))
				fprintf(f, " (%s is a Developer Tool)", app(&c));
			else if (is(&c, "sip", "disabled"))
				fputs(" (SIP is off)", f);
			fputs(".\n", f);
		} else {
			fputs("cause: nothing to fix: a new program does not pay here (", f);
			watchers(f, &c);
			fputs(").\n", f);
		}
		fputs("do: nothing.\n", f);
		return;
	case ADVICE_PENALTY:
		if (darwin(&c)) {
			write_darwin_penalty(f, &c);
			return;
		}
		fputs("cause: something holds a new program on its first launch here (", f);
		watchers(f, &c);
		fputs(").\n", f);
		if (val(&c, "fanotify_listeners") && strncmp(val(&c, "fanotify_listeners"), "not read", 8) == 0)
			fputs("do: run make doctor as root, which names the fanotify listeners; then "
			      "exclude the build folder in that scanner (docs/linux-scanners.md).\n", f);
		else
			fputs("do: exclude the build folder in that scanner or agent "
			      "(docs/linux-scanners.md says how for each).\n", f);
		return;
	}
}

void advice_verdict_line(FILE *f, const struct advice_probe *p)
{
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
		fprintf(f, "verdict: hang — %s\n", hang_counts(p->hang, buf, sizeof buf));
		break;
	default:
		fprintf(f, "verdict: unclear — %s: run make repro\n", buf);
		break;
	}
}

/* ---- a finished run: the brief lines ------------------------------------------------------ */

const char *advice_json_get(const void *conditions, const char *key)
{
	return json_string_value(json_object_get((const json_t *)conditions, key));
}

static int same_class(const json_t *a, const json_t *b)
{
	return rj_str(a, "class") && rj_str(b, "class") &&
	       strcmp(rj_str(a, "class"), rj_str(b, "class")) == 0;
}

/* The config of the headline's class and padding with the most threads. */
static const json_t *widest_config(const json_t *c)
{
	const json_t *h = rj_headline_config(c), *cfg, *best = NULL;
	size_t i;

	if (!h)
		return NULL;
	json_array_foreach(json_object_get(c, "configs"), i, cfg)
		if (same_class(cfg, h) && rj_pad(cfg) == rj_pad(h) &&
		    (!best || rj_long(cfg, "threads") > rj_long(best, "threads")))
			best = cfg;
	return best;
}

const json_t *advice_probe_of_run(const json_t *run, const char *name, struct advice_probe *p)
{
	const json_t *c = rj_run_case(run, name ? name : "exe", name == NULL);
	const json_t *pen = json_object_get(c, "penalty_ms");
	const char *v = c ? rj_str(c, "verdict") : NULL;
	const json_t *h = c ? rj_headline_config(c) : NULL;

	memset(p, 0, sizeof *p);
	p->verdict = ADVICE_UNCLEAR;
	if (v && strcmp(v, "slowdown") == 0)
		p->verdict = ADVICE_PENALTY;
	else if (v && strcmp(v, "none") == 0)
		p->verdict = ADVICE_NONE;
	else if (v && strcmp(v, "hang") == 0)
		p->verdict = ADVICE_HANG;
	p->hang = h ? json_object_get(h, "hang") : NULL;
	p->kase = c ? rj_str(c, "name") : NULL;
	p->penalty_ms = json_num_at(pen, "median");
	p->low_ms = json_num_at(pen, "ci_low");
	p->high_ms = json_num_at(pen, "ci_high");
	p->reason = c ? rj_str(c, "reason") : "the run has no such case";
	p->pairs = h ? rj_long(h, "pairs") : -1;
	return c;
}

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

/* "150 ms [149, 151]": a penalty object's median and interval, rounded
 * alike (by the median's size). */
static const char *rounded_penalty(const json_t *pen, char *buf, size_t len)
{
	double m = json_num_at(pen, "median");
	double lo = json_num_at(pen, "ci_low"), hi = json_num_at(pen, "ci_high");
	double scale = isnan(m) ? 0 : fmax(fabs(m), fmin(fabs(isnan(lo) ? 0 : lo), fabs(isnan(hi) ? 0 : hi)));
	char a[32], b[32], c[32];

	if (isnan(lo) || isnan(hi))
		snprintf(buf, len, "%s ms [no interval]", rounded(m, scale, a, sizeof a));
	else
		snprintf(buf, len, "%s ms [%s, %s]", rounded(m, scale, a, sizeof a),
			 rounded(lo, scale, b, sizeof b), rounded(hi, scale, c, sizeof c));
	return buf;
}

static const char *launcher_of(const struct conds *c)
{
	return simulated(c) ? val(c, "launcher") : NULL;
}

/* cost: what a new program costs here. */
static void brief_cost(FILE *f, const struct conds *c, const json_t *run, const json_t *k,
		       const struct advice_probe *p, const char *prefix)
{
	const json_t *th = json_object_get(run, "thresholds");
	double floor_ms = json_num_at(th, "penalty_floor_ms");
	double conf = json_num_at(th, "confidence");
	char pen[512], a[32], b[32], fl[32];
	double first = json_num_at(k, "first_median_ms");
	double repeat = json_num_at(k, "repeat_median_ms");
	const char *who = launcher_of(c) || is(c, "gate.active", "1") ? "" : " here";

	rounded_penalty(json_object_get(k, "penalty_ms"), pen, sizeof pen);
	if (launcher_of(c))
		fprintf(f, "%scost (simulated, nothing was launched: the model's numbers): ", prefix);
	else if (is(c, "gate.active", "1"))
		fprintf(f, "%scost (under the calibration gate): ", prefix);
	else
		fprintf(f, "%scost: ", prefix);
	switch (p->verdict) {
	case ADVICE_HANG:
		fprintf(f, "a new program did not start%s: %s (%s); killed, so there is no penalty "
			"to give, only that.\n", who, hang_counts(p->hang, pen, sizeof pen), p->kase);
		break;
	case ADVICE_PENALTY:
		fprintf(f, "a new program waits about %s on its first launch%s (%s: first launch %s ms, "
			"second %s ms; in brackets the %.0f%% interval).\n", pen, who, p->kase,
			rounded(first, first, a, sizeof a), rounded(repeat, repeat, b, sizeof b),
			isnan(conf) ? 95.0 : conf * 100.0);
		break;
	case ADVICE_NONE:
		/* the case's own floor where the run gives it (a quarter of an
		 * unloaded launch where launches are long), else the 1 ms floor */
		if (!isnan(json_num_at(k, "floor_ms")))
			floor_ms = json_num_at(k, "floor_ms");
		snprintf(fl, sizeof fl, "%.3g", isnan(floor_ms) ? 1.0 : floor_ms);
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

/* The run's projection to a suite of the suite case's size, at the most
 * jobs it has one for: "a suite of 14,000 new programs would spend at
 * least 35 minutes in them at 2 jobs"; 0 when the run has none. */
static int projection(const json_t *run, char *buf, size_t len)
{
	const json_t *suite = json_object_get(run, "suite"), *r, *best = NULL;
	long programs = rj_long(suite, "project_programs");
	size_t i;

	json_array_foreach(json_object_get(suite, "runs"), i, r)
		if (!isnan(json_num_at(r, "projection_min")) &&
		    (!best || rj_long(r, "jobs") > rj_long(best, "jobs")))
			best = r;
	if (!best || programs <= 0)
		return 0;
	snprintf(buf, len, "a suite of %ld,%03ld new programs (the suite case's size) would spend at "
		 "least %.0f minutes in them at %ld job%s", programs / 1000, programs % 1000,
		 json_num_at(best, "projection_min"), rj_long(best, "jobs"),
		 rj_long(best, "jobs") == 1 ? "" : "s");
	return 1;
}

/* queue: whether the checks queue (a penalty only). */
static void brief_queue(FILE *f, const json_t *run, const json_t *k, const char *prefix)
{
	const char *s = rj_str(k, "serialisation"), *why = rj_str(k, "serialisation_reason");
	const json_t *w = widest_config(k);
	long t = w ? rj_long(w, "threads") : 1;
	char pen[128], one[128], proj[256];
	int has_proj = projection(run, proj, sizeof proj);

	rounded_penalty(json_object_get(w, "penalty_ms"), pen, sizeof pen);
	rounded_penalty(json_object_get(k, "penalty_ms"), one, sizeof one);
	fprintf(f, "%squeue: ", prefix);
	if (s && strcmp(s, "serialised") == 0)
		fprintf(f, "yes, the checks run one at a time: with %ld programs started together a "
			"first launch waited %s (the median), against %s alone (serialised)", t, pen, one);
	else if (s && strcmp(s, "parallel") == 0)
		fprintf(f, "no, the checks run side by side: with %ld programs started together a "
			"first launch waited %s (the median), against %s alone (parallel)", t, pen, one);
	else if (t > 1)
		fprintf(f, "undetermined: %s", why ? why : "no reason recorded");
	else
		fputs("not measured: only one program at a time was launched (T=1); make repro "
		      "measures more at once", f);
	if (has_proj)
		fprintf(f, "; %s", proj);
	fputs(".\n", f);
}

/* The network, as a clause of the cause. */
static void network_clause(FILE *f, const struct conds *c)
{
	const char *n = val(c, "network");

	if (is(c, "vpn", "yes") && darwin(c))
		fprintf(f, "; network %s, over a VPN (where /tmp/test.sh's check took 5.7 s against "
			"1.9 s without one: lapcatsoftware)", n ? n : "unknown");
	else if (is(c, "network", "offline"))
		fputs("; network offline (offline, a .NET app's first start fell from 7.65 s to "
		      "2.06 s but kept a cost: dotnet#53031)", f);
	else
		fprintf(f, "; network %s", n ? n : "unknown");
}

/* A Mac's conditions in a clause: SIP, the responsible app and its
 * Developer Tools state. */
static void darwin_state(FILE *f, const struct conds *c)
{
	const char *dt = val(c, "devtools");

	fprintf(f, "SIP is %s, %s (the app macOS holds responsible for the kit) ",
		val(c, "sip") ? val(c, "sip") : "unknown", app(c));
	if (devtools_authorized(c))
		fputs("is a Developer Tool", f);
	else if (devtools_refused(c))
		fprintf(f, "is not a Developer Tool (Developer Tools: %s)", dt);
	else
		fprintf(f, "has a Developer Tools state that could not be read (%s)", dt ? dt : "unknown");
	if (is(c, "xprotect_launch_scans", "disabled"))
		fputs(", XProtect's launch scans are off (xprotect status)", f);
}

/* cause: what the conditions say. */
static void brief_cause(FILE *f, const struct conds *c, const struct advice_probe *p,
			const char *prefix)
{
	fprintf(f, "%scause: ", prefix);
	if (launcher_of(c)) {
		fprintf(f, "a simulated run (launcher %s): the model's settings made these numbers, "
			"not this machine.\n", launcher_of(c));
		return;
	}
	if (p->verdict == ADVICE_HANG && !is(c, "gate.active", "1")) {
		if (darwin(c))
			fputs("a new program did not start within the bound, as when syspolicyd is busy "
			      "or wedged (openai/codex#17447, entireio/cli#1065)", f);
		else
			fprintf(f, "something here held a new program without answering (fanotify "
				"listeners: %s)", or_q(val(c, "fanotify_listeners")));
		network_clause(f, c);
		fputs(".\n", f);
		return;
	}
	if (is(c, "gate.active", "1")) {
		fprintf(f, "the calibration gate (latency %s ms, workers %s, key %s) held the launches "
			"in the work folder: a test of the kit against a known truth, not of this OS.\n",
			val(c, "gate.latency_ms") ? val(c, "gate.latency_ms") : "?",
			val(c, "gate.workers") ? val(c, "gate.workers") : "?",
			val(c, "gate.key") ? val(c, "gate.key") : "?");
		return;
	}
	if (!darwin(c)) {
		const char *l = val(c, "fanotify_listeners");

		const char *os = val(c, "os") ? val(c, "os") : "this system";

		if (p->verdict == ADVICE_PENALTY)
			fputs("something holds a new program on its first launch here", f);
		else if (!l)
			fprintf(f, "%s has no first-launch assessment", os);
		else if (strcmp(l, "none") == 0)
			fprintf(f, "%s has no first-launch assessment, and nothing here watches exec", os);
		else
			fprintf(f, "%s has no first-launch assessment, and what watches exec here held no "
				"new program measurably", os);
		if (l) {
			fputs(" (", f);
			watchers(f, c);
			fputc(')', f);
		}
		if (p->verdict != ADVICE_PENALTY)
			fputs(": this run is the control", f);
		network_clause(f, c);
		fputs(".\n", f);
		return;
	}
	if (p->verdict == ADVICE_PENALTY) {
		darwin_penalty_cause(f, c);
	} else {
		darwin_state(f, c);
		if (p->verdict == ADVICE_NONE && devtools_authorized(c))
			fputs(", so macOS does not check the programs it starts (the nextest and cargo docs)", f);
		else if (p->verdict == ADVICE_NONE && is(c, "sip", "disabled"))
			fputs(", and SIP off largely disables the com.apple.syspolicy subsystem (Oakley)", f);
		else if (p->verdict == ADVICE_NONE)
			fputs("; public reports see a new program pay 120–180 ms in this state (cargo PR "
			      "#15908), yet this run saw none", f);
		else if (devtools_refused(c) && !is(c, "sip", "disabled"))
			fputs("; public reports see a new program pay 120–180 ms in this state (cargo PR "
			      "#15908)", f);
	}
	network_clause(f, c);
	fputs(".\n", f);
}

/* The Developer Tools steps in one clause, for app. */
static void devtools_clause(FILE *f, const struct conds *c, const char *a)
{
	if (macos_major(c) >= 13 || macos_major(c) == 0)
		fputs("open System Settings › Privacy & Security › Developer Tools", f);
	else
		fputs("open System Preferences › Security & Privacy › Privacy › Developer Tools", f);
	fprintf(f, ", turn on %s (add it with + if it is not listed%s), quit %s and open it again",
		a, strcmp(a, "Terminal") == 0 ? "; `spctl developer-mode enable-terminal` lists it" : "", a);
}

/* do: the one thing to do next, with its steps. */
static void brief_do(FILE *f, const struct conds *c, const struct advice_probe *p, const char *id,
		     const char *prefix)
{
	const char *a = app(c);

	fprintf(f, "%sdo: ", prefix);
	if (launcher_of(c)) {
		fputs("nothing about this machine; make repro without LAUNCHER measures it.\n", f);
		return;
	}
	if (p->verdict == ADVICE_HANG && !is(c, "gate.active", "1")) {
		fputs("make doctor: within 15 s it says whether the same bytes start at a new path, "
		      "what the services did, and what public reports found to help (a copy, a "
		      "lighter load, sudo killall syspolicyd, a reboot).\n", f);
		return;
	}
	if (is(c, "gate.active", "1")) {
		fputs("nothing; make check says whether the kit recovered the gate's settings, and "
		      "make repro without GATE measures the machine itself.\n", f);
		return;
	}
	if (p->verdict == ADVICE_UNCLEAR) {
		fprintf(f, "measure again with more launches on an otherwise idle machine: make repro "
			"CASES=%s COUNT=60, then make compare A=%s B=<the new run>.\n",
			p->kase ? p->kase : "exe", id);
		return;
	}
	if (p->verdict == ADVICE_NONE) {
		if (!darwin(c))
			fputs("nothing: this is what the control looks like, none in every case; on a Mac "
			      "whose terminal is not a Developer Tool the same run shows a penalty "
			      "(120–180 ms for an empty Rust binary on an M2: cargo PR #15908).\n", f);
		else if (devtools_authorized(c))
			fprintf(f, "nothing. The control: from an app that is not a Developer Tool (or "
				"over ssh) a new program pays (120–180 ms on an M2: cargo PR #15908); "
				"make repro TAG=control there, then make compare A=%s B=control shows "
				"the difference.\n", id);
		else
			fprintf(f, "nothing needs doing. The control: a Mac with SIP on whose terminal is "
				"not a Developer Tool pays 120–180 ms a new program (cargo PR #15908); "
				"make feedback keeps this run's numbers (%s) if you want to report it.\n", id);
		return;
	}
	/* a penalty */
	if (!darwin(c)) {
		if (val(c, "fanotify_listeners") && strncmp(val(c, "fanotify_listeners"), "not read", 8) == 0)
			fputs("run sudo make doctor, which names the fanotify listeners; then exclude the "
			      "build folder in that scanner (docs/linux-scanners.md).\n", f);
		else
			fprintf(f, "exclude the build folder in that scanner or agent (docs/linux-scanners.md "
				"says how for each), then make repro TAG=after and make compare A=%s "
				"B=after.\n", id);
		return;
	}
	if (is(c, "ssh", "yes") || is(c, "launchd_job", "yes")) {
		fprintf(f, "run it in a terminal on the Mac itself, %s, whose app is a Developer Tool "
			"(", is(c, "ssh", "yes") ? "not over ssh" : "not from a launchd job");
		devtools_clause(f, c, "your terminal");
		fprintf(f, "), then make repro TAG=after there and make compare A=%s B=after.\n", id);
	} else if (mux_responsible(c)) {
		fprintf(f, "%s, then make repro TAG=after and make compare A=%s B=after.\n",
			devtools_authorized(c)
				? "in Developer Tools remove the multiplexer and add it again with + (a grant "
				  "follows signature and path: nextest-rs/nextest#63), then start a new session"
				: "end the multiplexer's server and start it from a terminal that is a "
				  "Developer Tool (tmux#4803), or add the multiplexer itself to Developer Tools "
				  "(nextest-rs/nextest#63)", id);
	} else if (devtools_authorized(c) && in_tmux(c)) {
		fprintf(f, "start a new tmux session from a window of %s (or run outside tmux), then "
			"make repro TAG=after there and make compare A=%s B=after.\n", a, id);
	} else if (devtools_authorized(c) || is(c, "sip", "disabled")) {
		fputs("make feedback: feedback.txt and an archive ready for Feedback Assistant, "
		      "with this run's numbers.\n", f);
	} else {
		devtools_clause(f, c, a);
		fprintf(f, ", then in the new window make repro TAG=after and make compare A=%s "
			"B=after.\n", id);
	}
}

int advice_brief(FILE *f, const json_t *run, const char *prefix)
{
	const json_t *cond = json_object_get(run, "conditions");
	struct conds c = { advice_json_get, cond };
	struct advice_probe p;
	const json_t *k = advice_probe_of_run(run, NULL, &p);
	const char *id = rj_str(run, "run_id");
	int n = 0;

	if (!prefix)
		prefix = "";
	if (!k)
		return 0;
	brief_cost(f, &c, run, k, &p, prefix), n++;
	if (p.verdict == ADVICE_PENALTY)
		brief_queue(f, run, k, prefix), n++;
	brief_cause(f, &c, &p, prefix), n++;
	brief_do(f, &c, &p, id ? id : "<this run>", prefix), n++;
	return n;
}
