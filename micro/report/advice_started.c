/* advice_started.c - how the kit was started, and what that means for the
 * verdicts (advice.h): report.md's "How the kit was started", a sentence a
 * fact of the advice model.  Sources in docs/evidence.md, "How the kit was
 * started". */
#include "advice.h"
#include "advice_words.h"

static void fact(FILE *f, const struct advice *a, const struct advice_fact *x, const char *prefix)
{
	const struct advice_setting *s = &a->where;
	const char *s0 = advice_cite(x->source, 0), *s1 = advice_cite(x->source, 1);

	switch (x->what) {
	case ADVICE_FACT_OFF_MAC:
		fprintf(f, "%sStarted via: %s. Only macOS holds an app responsible for what the kit "
			"launches; here ssh, tmux and the terminal do not change the verdicts.\n",
			prefix, s->started_via ? s->started_via : "unknown");
		break;
	case ADVICE_FACT_SSH:
		fprintf(f, "%sStarted over ssh: macOS then holds sshd-keygen-wrapper, not a terminal, "
			"responsible for what the kit launches (%s), so no terminal's "
			"Developer Tools grant applies; one project measured 0.30–0.36 s per new program "
			"started from sshd, and none from Terminal or iTerm2 (%s).\n", prefix, s0, s1);
		break;
	case ADVICE_FACT_LAUNCHD:
		fprintf(f, "%sStarted by a launchd job (XPC_SERVICE_NAME holds a job's label): no "
			"terminal is responsible for what it launches; one project measured 0.39–0.48 s "
			"per new program started from a launchd job (%s).\n", prefix, s0);
		break;
	case ADVICE_FACT_MAYBE_LAUNCHD:
		fprintf(f, "%sNo terminal on standard input and no launchd label: a launchd job's "
			"children were seen with XPC_SERVICE_NAME=0 (%s), so this may still "
			"be one.\n", prefix, s0);
		break;
	case ADVICE_FACT_TMUX:
		fprintf(f, "%sInside tmux: a session made in an authorised terminal and used at once "
			"paid nothing, but after a detach and a re-attach from a reopened terminal new "
			"programs paid again (%s); tmux passes on the environment its server "
			"started with, so the app named here may be an earlier one.\n", prefix, s0);
		break;
	case ADVICE_FACT_SCREEN:
		fprintf(f, "%sInside GNU screen: no public report measured a session of screen "
			"(%s is about tmux, whose re-attached sessions paid again).\n", prefix, s0);
		break;
	case ADVICE_FACT_ZELLIJ:
		fprintf(f, "%sInside zellij: no public report measured a session of zellij; "
			"%s grants tmux or zellij themselves, a grant that follows "
			"the program's signature and path.\n", prefix, s0);
		break;
	case ADVICE_FACT_MUX_RESPONSIBLE:
		fprintf(f, "%sThe responsible program is %s itself: its server is no child of a "
			"terminal (started elsewhere, or re-attached: %s), so only a grant of %s "
			"reaches what the kit starts (%s).\n", prefix, s->mux, s0, s->mux, s1);
		break;
	case ADVICE_FACT_VSCODE:
		fprintf(f, "%sIn VS Code's terminal: which process macOS holds responsible there no "
			"public source names; the kit reads it (responsible app: %s).\n", prefix, s->app);
		break;
	case ADVICE_FACT_TERMINAL:
		fprintf(f, "%sStarted from %s: not over ssh, in tmux or screen, or by a launchd job.\n",
			prefix, s->started_via);
		break;
	case ADVICE_FACT_NOT_GRANTED:
		/* cargo's source, named as its detector */
		fprintf(f, "%sThe responsible app, %s, is not a Developer Tool (Developer Tools: %s): "
			"macOS assesses every new program it starts on that program's first launch, which "
			"is what the verdicts measure; cargo's detector (PR #15908) warns in this state.\n",
			prefix, s->app, s->devtools);
		break;
	case ADVICE_FACT_GRANTED:
		fprintf(f, "%sThe responsible app, %s, is a Developer Tool: the programs it starts "
			"should not be assessed (%s); a penalty measured here is "
			"worth a report.\n", prefix, s->app, s0);
		break;
	case ADVICE_FACT_ALACRITTY:
		fprintf(f, "%sAlacritty listed as a Developer Tool still paid on macOS 26.1 and "
			"26.2 (%s).\n", prefix, s0);
		break;
	case ADVICE_FACT_GRANT_UNREAD:
		fprintf(f, "%sThe Developer Tools state of the responsible app (%s) could not be read "
			"(devtools=%s).\n", prefix, s->app, s->devtools);
		break;
	case ADVICE_FACT_SIP_OFF:
		fprintf(f, "%sSIP is off: that largely disables the com.apple.syspolicy subsystem "
			"(%s), so no penalty is expected.\n", prefix, s0);
		break;
	}
}

int advice_started_lines(FILE *f, const struct advice *a, const char *prefix)
{
	int i;

	for (i = 0; i < a->n_facts; i++)
		fact(f, a, &a->fact[i], prefix ? prefix : "");
	return a->n_facts;
}

int advice_started(FILE *f, advice_get get, const void *ctx, const char *prefix)
{
	struct advice a;

	advice_of_setting(&a, get, ctx);
	return advice_started_lines(f, &a, prefix);
}
