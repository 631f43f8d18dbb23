/* advice_words.c - words the advice writers share (advice_words.h). */
#include "advice_words.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *advice_or_q(const char *v)
{
	return v ? v : "?";
}

const char *advice_cite(advice_sources sources, int i)
{
	int n;

	for (n = 0; sources && n < i && sources[n]; n++)
		;
	return sources && sources[n] ? sources[n] : "";
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

const char *advice_hang_counts(const struct advice_hang *h, char *buf, size_t len)
{
	static const char *const passes[] = { "first", "repeat", "reference" };
	size_t at = 0, i;

	buf[0] = '\0';
	for (i = 0; i < 3 && at < len; i++) {
		if (h->hung[i] <= 0)
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%lld of %lld %s launch%s did not end within %g s",
				       at ? "; " : "", h->hung[i], h->made[i], passes[i],
				       h->made[i] == 1 ? "" : "es", isnan(h->bound_s) ? 0.0 : h->bound_s);
	}
	if (!buf[0])
		snprintf(buf, len, "a launch did not end within its bound");
	return buf;
}

void advice_watchers(FILE *f, const struct advice_setting *s)
{
	fprintf(f, "fanotify listeners: %s; known agents: %s", s->listeners ? s->listeners : "unknown",
		s->agents ? s->agents : "unknown");
}

void advice_penalty_cause(FILE *f, const struct advice *a)
{
	const struct advice_setting *s = &a->where;
	const char *sip = s->sip ? s->sip : "unknown", *src = advice_cite(a->cause_source, 0);

	switch (a->cause) {
	case ADVICE_CAUSE_SSH:
		fprintf(f, "the kit ran over ssh, so macOS holds sshd-keygen-wrapper responsible "
			"for the programs it starts (%s), and no terminal's Developer Tools "
			"grant reaches them", src);
		break;
	case ADVICE_CAUSE_LAUNCHD:
		fprintf(f, "the kit ran from a launchd job, which no terminal is responsible for, "
			"so no Developer Tools grant reaches what it starts (%s)", src);
		break;
	case ADVICE_CAUSE_MUX_GRANTED:
		fprintf(f, "%s itself is the responsible program and a Developer Tool, yet a new "
			"program pays: a grant follows the program's signature and path, so an update "
			"of an ad-hoc signed %s build loses it (%s)", s->mux, s->mux, src);
		break;
	case ADVICE_CAUSE_MUX:
		fprintf(f, "%s itself is the responsible program (its server is no child of a "
			"granted terminal: started elsewhere, or re-attached, %s) and it is not a "
			"Developer Tool (Developer Tools: %s)", s->mux, src,
			s->devtools ? s->devtools : "unknown");
		break;
	case ADVICE_CAUSE_TMUX_GRANTED:
		fprintf(f, "%s is a Developer Tool, but the kit ran inside tmux, where a "
			"session re-attached from a reopened terminal pays again (%s)", s->app, src);
		break;
	case ADVICE_CAUSE_GRANTED_PAYS:
		fprintf(f, "%s is a Developer Tool, yet a new program pays here, as reported "
			"for Alacritty on macOS 26.1 and 26.2 (%s)", s->app, src);
		break;
	case ADVICE_CAUSE_SIP_OFF_PAYS:
		fprintf(f, "a penalty with SIP off, which is not expected: that largely disables "
			"the com.apple.syspolicy subsystem (%s)", src);
		break;
	case ADVICE_CAUSE_VSCODE:
		fprintf(f, "SIP is %s and the kit ran in VS Code's terminal, whose responsible "
			"process no public source names; the one read here, %s, is not a Developer Tool "
			"(Developer Tools: %s), so macOS assesses each new program on its first launch "
			"(%s)", sip, s->app, s->devtools, src);
		break;
	case ADVICE_CAUSE_TMUX:
		fprintf(f, "SIP is %s and %s is not a Developer Tool (Developer Tools: %s), so "
			"macOS assesses each new program on its first launch (%s); the kit "
			"ran inside tmux, whose server keeps the app it was started from (%s)",
			sip, s->app, s->devtools, src, advice_cite(a->cause_source, 1));
		break;
	case ADVICE_CAUSE_NOT_GRANTED:
		fprintf(f, "SIP is %s and %s is not a Developer Tool (Developer Tools: %s), "
			"so macOS assesses each new program on its first launch (%s)", sip, s->app,
			s->devtools, src);
		break;
	default: /* its Developer Tools state unread */
		fprintf(f, "SIP is %s and the Developer Tools state of %s could not be read; "
			"a new program pays as it does where the app is not a Developer Tool "
			"(%s)", sip, s->app, src);
		break;
	}
}

void advice_checker_cause(FILE *f, const struct advice *a)
{
	const struct advice_checker *c = &a->checker;
	const char *s0 = advice_cite(c->source, 0), *s1 = advice_cite(c->source, 1),
		   *s2 = advice_cite(c->source, 2);
	int gate = c->record && strcmp(c->record, "gate") == 0;

	if (gate) {
		fprintf(f, "the calibration gate %s (%s), as a sick syspolicyd does (%s, %s): a test "
			"of the kit against a known truth, not of this OS",
			c->state == CHECKER_HUNG ? "does not answer" : "refuses every check",
			c->state == CHECKER_HUNG ? "wedge=K" : "exhausted=1", s0, s1);
		return;
	}
	switch (c->state) {
	case CHECKER_EXHAUSTED:
		fprintf(f, "the checker is sick, not slow: syspolicyd is out of file descriptors "
			"(exhausted) and refuses every program, new or not (%s, %s, %s)", s0, s1, s2);
		break;
	case CHECKER_STORM:
		fprintf(f, "the checker is sick, not slow: syspolicyd is flooded with checks (a storm "
			"of %s lines a second that are not the kit's), ", advice_or_q(c->rate));
		if (c->driver)
			fprintf(f, "most of them naming %s, the likely driver (%s, %s)", c->driver, s0, s1);
		else
			fprintf(f, "naming no program (%s, %s)", s0, s1);
		break;
	case CHECKER_HUNG:
		fprintf(f, "the checker is sick, not slow: it did not answer Calculator's assessment "
			"within %s s (hung), as a wedged syspolicyd does (%s, %s)", advice_or_q(c->bound_s),
			s0, s1);
		break;
	default:
		fprintf(f, "the checker is busy for the whole machine (syspolicyd at %s%% CPU, %.0f MB "
			"resident) while it still answers (%s, %s, %s): a new program here waits on a "
			"checker slow for every program", advice_or_q(c->cpu_pct),
			c->rss_kb ? atof(c->rss_kb) / 1024 : NAN, s0, s1, s2);
		break;
	}
	fputs("; the Developer Tools setting cannot help with that", f);
	if (c->record && strcmp(c->record, "simulated") == 0)
		fputs(" (the simulator's record, not this machine's)", f);
}

const char *advice_relief_needs(const struct checker_step *x)
{
	if (x->reboot)
		return "a reboot";
	if (x->admin > 0)
		return "needs an administrator's password";
	if (x->admin < 0)
		return "whether it needs an administrator's password is not known";
	return "no administrator's password, no reboot";
}
