/* advice.c - the plain lines: what the conditions mean, the cause, the one
 * thing to do (advice.h).  Sources in docs/evidence.md, "How the kit was
 * started" and "What make doctor says". */
#define _POSIX_C_SOURCE 200809L
#include "advice.h"

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
	default: return "unclear";
	}
}

int advice_exit_status(enum advice_verdict v)
{
	switch (v) {
	case ADVICE_NONE: return 0;
	case ADVICE_PENALTY: return 1;
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

static void write_darwin_penalty(FILE *f, const struct conds *c)
{
	const char *a = app(c);

	if (is(c, "ssh", "yes")) {
		fputs("cause: the kit ran over ssh, so macOS holds sshd-keygen-wrapper responsible "
		      "for the programs it starts (cargo PR #15908), and no terminal's Developer Tools "
		      "grant reaches them.\n", f);
		fputs("do: run the command in a terminal on the Mac itself whose app is a Developer "
		      "Tool; to make it one:\n", f);
		devtools_steps(f, c, "your terminal");
	} else if (is(c, "launchd_job", "yes")) {
		fputs("cause: the kit ran from a launchd job, which no terminal is responsible for, "
		      "so no Developer Tools grant reaches what it starts (marspot RFC-007).\n", f);
		fputs("do: run the command in a terminal whose app is a Developer Tool; to make it "
		      "one:\n", f);
		devtools_steps(f, c, "your terminal");
	} else if (devtools_authorized(c) && in_tmux(c)) {
		fprintf(f, "cause: %s is a Developer Tool, but the kit ran inside tmux, where a "
			"session re-attached from a reopened terminal pays again (tmux#4803).\n", a);
		fprintf(f, "do: start a new tmux session from a window of %s and use it there, or run "
			"outside tmux; then make doctor again.\n", a);
	} else if (devtools_authorized(c)) {
		fprintf(f, "cause: %s is a Developer Tool, yet a new program pays here, as reported "
			"for Alacritty on macOS 26.1 and 26.2 (alacritty#8785).\n", a);
		fputs("do: run make repro, then make feedback: the numbers, ready for a report to "
		      "Apple; meanwhile try a terminal that is a Developer Tool and reported to work "
		      "(Terminal, iTerm2).\n", f);
	} else if (is(c, "sip", "disabled")) {
		fputs("cause: a penalty with SIP off, which is not expected: that largely disables "
		      "the com.apple.syspolicy subsystem (Oakley).\n", f);
		fputs("do: run make repro, then make feedback: the numbers, ready for a report.\n", f);
	} else if (devtools_refused(c)) {
		fprintf(f, "cause: SIP is %s and %s is not a Developer Tool (Developer Tools: %s), "
			"so macOS assesses each new program on its first launch (cargo PR #15908).\n",
			val(c, "sip") ? val(c, "sip") : "unknown", a, val(c, "devtools"));
		devtools_steps(f, c, a);
	} else {
		fprintf(f, "cause: SIP is %s and the Developer Tools state of %s could not be read; "
			"a new program pays as it does where the app is not a Developer Tool "
			"(cargo PR #15908).\n", val(c, "sip") ? val(c, "sip") : "unknown", a);
		devtools_steps(f, c, a);
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
	case ADVICE_UNCLEAR:
		fprintf(f, "cause: the probe's %ld launches could not tell: %s.\n",
			p->pairs >= 0 ? p->pairs : 0L, p->reason ? p->reason : "no verdict");
		fputs("do: run make repro (about a minute): more launches and every case, with a "
		      "report.\n", f);
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
	char buf[128];

	advice_penalty_text(p, buf, sizeof buf);
	switch (p->verdict) {
	case ADVICE_PENALTY:
		fprintf(f, "verdict: penalty %s\n", buf);
		break;
	case ADVICE_NONE:
		fprintf(f, "verdict: none — %s\n", buf);
		break;
	default:
		fprintf(f, "verdict: unclear — %s: run make repro\n", buf);
		break;
	}
}
