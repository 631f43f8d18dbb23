/* checkerstate_test.c - the checker's health state (micro/stats/checkerstate.c)
 * from records built here, each threshold of checkerlimits.h at its edge,
 * the order the states are decided in, and the relief as data.  Given
 * health records (files, scripts/probe/health's), it prints instead each
 * one's state and driver, "STATE<TAB>DRIVER" a line ("-": none), for
 * tests/health.bats to check the probe, the reader and the model together. */
#define _POSIX_C_SOURCE 200809L
#include "../../micro/stats/checkerlimits.h"
#include "../../micro/stats/checkerstate.h"
#include "check.h"

#include <stdlib.h>
#include <unistd.h>

/* A well Mac: syspolicyd idle, Calculator accepted, a quiet minute. */
static struct health_record well(void)
{
	struct health_record h;

	memset(&h, 0, sizeof h);
	h.checker = 1;
	h.ps_ok = 1;
	h.syspolicyd.count = 1;
	h.syspolicyd.cpu_pct = 0.0;
	h.syspolicyd.rss_kb = 139264;
	h.trustd.count = 1;
	h.assess = HEALTH_ASSESS_ACCEPTED;
	h.log_ok = 1;
	h.window_s = 60;
	h.log_lines = 2;
	h.own_lines = 0;
	h.emfile_lines = 0;
	return h;
}

/* well(), but for what Calculator's assessment gave */
static struct health_record well_but(enum health_assess a)
{
	struct health_record h = well();

	h.assess = a;
	return h;
}

/* decides H into V and checks its state */
static void decides(const struct health_record *h, struct checker_verdict *v, const char *want,
		    const char *what)
{
	checker_decide(h, v);
	check_str(checker_state_name(v->state), want, what);
}

static enum checker_state state_of(const struct health_record *h)
{
	struct checker_verdict v;

	checker_decide(h, &v);
	return v.state;
}

#define STATE(h, want, what) check_str(checker_state_name(state_of(&(h))), want, what)

static void thresholds(void)
{
	struct health_record h;

	h = well();
	STATE(h, "well", "an idle syspolicyd that answers: well");
	h.syspolicyd.cpu_pct = 49.9;
	STATE(h, "well", "49.9% CPU: well");
	h.syspolicyd.cpu_pct = CHECKER_BUSY_CPU_PCT;
	STATE(h, "busy", "50.0% CPU: busy");
	h = well();
	h.syspolicyd.rss_kb = CHECKER_BUSY_RSS_KB - 1;
	STATE(h, "well", "511999 KiB: well");
	h.syspolicyd.rss_kb = CHECKER_BUSY_RSS_KB;
	STATE(h, "busy", "512000 KiB (#27662's watchdog limit): busy");

	h = well();
	h.log_lines = 5999;
	STATE(h, "well", "5,999 lines a minute (99.98 a second): well");
	h.log_lines = 6000;
	STATE(h, "storm", "6,000 lines a minute (100 a second): storm");
	/* the kit's own 15 a second: the baseline is 15, a storm 150 a second */
	h.own_lines = 900;
	h.log_lines = 900 + 8999;
	STATE(h, "well", "others' 149.98 a second against the kit's 15: well");
	h.log_lines = 900 + 9000;
	STATE(h, "storm", "others' 150 a second against the kit's 15: storm");
	h = well();
	h.own_lines = 6000;
	h.log_lines = 6000;
	STATE(h, "well", "6,000 lines a minute, all the kit's own: well");

	h = well();
	h.emfile_lines = CHECKER_EMFILE_LINES_MIN - 1;
	STATE(h, "well", "4 lines of error 24: well");
	h.emfile_lines = CHECKER_EMFILE_LINES_MIN;
	STATE(h, "exhausted", "5 lines of error 24: exhausted");
	h = well_but(HEALTH_ASSESS_EMFILE);
	STATE(h, "exhausted", "Calculator: Too many open files: exhausted");
	h = well_but(HEALTH_ASSESS_TIMEOUT);
	STATE(h, "hung", "no answer within the bound: hung");
}

static void order(void)
{
	struct health_record h;
	struct checker_verdict v;

	/* every reason at once: exhausted, and every reason said */
	h = well_but(HEALTH_ASSESS_EMFILE);
	h.log_lines = 20760;
	h.emfile_lines = 20760;
	h.syspolicyd.cpu_pct = 59.0;
	h.syspolicyd.rss_kb = 1035888;
	decides(&h, &v, "exhausted", "exhausted first");
	CHECK(v.why == (CHECKER_WHY_ASSESS_EMFILE | CHECKER_WHY_LOG_EMFILE | CHECKER_WHY_RATE |
			CHECKER_WHY_CPU | CHECKER_WHY_RSS),
	      "each reason that holds is said");
	h = well_but(HEALTH_ASSESS_TIMEOUT);
	h.log_lines = 26400;
	h.syspolicyd.cpu_pct = 143.0;
	STATE(h, "hung", "hung before storm and busy");
	h.assess = HEALTH_ASSESS_ACCEPTED;
	STATE(h, "storm", "storm before busy");
	h.log_lines = 0;
	STATE(h, "busy", "busy when the log is quiet");
	h = well_but(HEALTH_ASSESS_REJECTED);
	STATE(h, "well", "a rejection is an answer: well");
}

static void unknown(void)
{
	struct health_record h = well();
	struct checker_verdict v;

	h.checker = 0;
	decides(&h, &v, "unknown", "no syspolicyd (Linux): unknown");
	CHECK(isnan(v.rate) && v.why == 0, "no syspolicyd: nothing read, no reason");
	h = well_but(HEALTH_ASSESS_MISSING);
	h.ps_ok = 0;
	h.log_ok = 0;
	STATE(h, "unknown", "nothing could be read: unknown");
	h.ps_ok = 1;
	h.log_ok = 1;
	STATE(h, "well", "no spctl, but ps and the log read and quiet: well");
	h.log_ok = 0;
	STATE(h, "unknown", "no spctl, no log: unknown");
}

/* the calibration gate's record: its assessment alone decides; and each
 * state's name back to the state */
static void gate_and_names(void)
{
	struct health_record h;
	struct checker_verdict v;
	int i;

	memset(&h, 0, sizeof h);
	h.checker = HEALTH_CHECKER_GATE;
	h.assess = HEALTH_ASSESS_REFUSED;
	decides(&h, &v, "exhausted", "the gate refused the assessment (exhausted=1): exhausted");
	CHECK(v.why == CHECKER_WHY_REFUSED, "the gate's refusal is the reason");
	h.assess = HEALTH_ASSESS_TIMEOUT;
	STATE(h, "hung", "the gate did not answer (wedge): hung");
	h.assess = HEALTH_ASSESS_ACCEPTED;
	STATE(h, "well", "the gate let it run: well");
	h.assess = HEALTH_ASSESS_OTHER;
	STATE(h, "unknown", "the gate's assessment gave something else: unknown");
	for (i = CHECKER_UNKNOWN; i <= CHECKER_HUNG; i++)
		CHECK(checker_state_of(checker_state_name((enum checker_state)i)) == (enum checker_state)i,
		      "a state's name gives the state back");
	CHECK(checker_state_of("sick") == CHECKER_UNKNOWN && checker_state_of(NULL) == CHECKER_UNKNOWN,
	      "another word, or none: unknown");
}

/* the writer: what healthfile_write writes, healthfile_read reads back,
 * and written again it is the same file */
static int write_to(const char *path, const struct health_record *h)
{
	FILE *f = fopen(path, "w");
	int rc = f ? healthfile_write(f, h) : -1;

	if (f && fclose(f) != 0)
		rc = -1;
	return rc;
}

static void writer(void)
{
	char a[] = "/tmp/checkerstate_test.XXXXXX", b[] = "/tmp/checkerstate_test.XXXXXX";
	char *quote = (char *)"a line", ta[1024] = "", tb[1024] = "";
	struct health_record h = well(), back;
	FILE *f;
	int fa = mkstemp(a), fb = mkstemp(b);

	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	h.system = (char *)"Darwin";
	h.simulated = (char *)"sim:storm=300";
	h.assess_bound_s = 3;
	h.log_result = (char *)"ok";
	h.syspolicyd.etime_s = 60;
	h.syspolicyd.time_s = 1.25;
	h.trustd.rss_kb = h.trustd.etime_s = -1;
	h.trustd.time_s = NAN;
	h.driver = (char *)"/A b";
	h.driver_lines = 7;
	h.quotes = &quote;
	h.nquotes = 1;
	CHECK(write_to(a, &h) == 0 && healthfile_read(a, &back) == 0, "a record written is read back");
	check_str(back.simulated, "sim:storm=300", "said to be simulated");
	check_str(back.driver, "/A b", "its driver");
	CHECK(write_to(b, &back) == 0, "and written again");
	f = fopen(a, "r");
	if (f && fread(ta, 1, sizeof ta - 1, f) > 0 && fclose(f) == 0 && (f = fopen(b, "r")) != NULL &&
	    fread(tb, 1, sizeof tb - 1, f) > 0)
		fclose(f);
	CHECK(strncmp(ta, "execlag-health\t1\n", 17) == 0, "its head");
	check_str(tb, ta, "the same file: every figure kept");
	healthfile_free(&back);
	unlink(a);
	unlink(b);
}

static void figures(void)
{
	struct health_record h;
	struct checker_verdict v;
	char driver[] = "/Applications/Codex.app/Contents/MacOS/Codex";

	h = well();
	h.log_lines = 26400;
	h.own_lines = 120;
	h.driver = driver;
	checker_decide(&h, &v);
	check_near(v.rate, 438.0, 1e-9, "others' rate: (26400 - 120) / 60");
	check_near(v.own_rate, 2.0, 1e-9, "the kit's own rate: 120 / 60");
	check_near(v.baseline, 2.0, 1e-9, "the baseline: the kit's own rate above the floor");
	check_str(v.driver, driver, "the driver is the record's");
	h.own_lines = 0;
	checker_decide(&h, &v);
	check_near(v.baseline, CHECKER_BASELINE_FLOOR, 1e-9, "the baseline's floor");
}

static void relief(void)
{
	const struct checker_step *s;
	size_t n, i;
	int admin = 0, reboot = 0;

	s = checker_relief(CHECKER_EXHAUSTED, &n);
	CHECK(n == 4, "exhausted: four steps");
	CHECK(n == 4 && s[0].names_driver && !s[0].admin && !s[0].reboot,
	      "the driver first, no password, no reboot");
	CHECK(n == 4 && strstr(s[1].words, "sudo killall syspolicyd trustd") && s[1].admin == 1,
	      "then the services, with an administrator's password");
	CHECK(n == 4 && s[2].reboot == 1, "then a reboot");
	CHECK(n == 4 && strstr(s[3].words, "gktool scan") && s[3].names_driver,
	      "then gktool scan of the driver's app after a restart");
	s = checker_relief(CHECKER_STORM, &n);
	CHECK(n == 4 && s[0].names_driver, "storm: the driver first too");
	s = checker_relief(CHECKER_BUSY, &n);
	CHECK(n == 4 && strstr(s[1].words, "stop the load") && strstr(s[2].words, "killall syspolicyd") &&
		      s[3].reboot,
	      "busy: the load, then killall syspolicyd, then a reboot");
	s = checker_relief(CHECKER_HUNG, &n);
	CHECK(n == 2 && s[0].admin == 1 && s[1].reboot == 1, "hung: killall syspolicyd, then a reboot");
	for (i = 0; i < n; i++) {
		admin += s[i].admin == 1;
		reboot += s[i].reboot;
	}
	CHECK(admin == 1 && reboot == 1, "hung: one step needs a password, one a reboot");
	s = checker_relief(CHECKER_WELL, &n);
	CHECK(n == 0 && !s, "well: no relief");
	s = checker_relief(CHECKER_UNKNOWN, &n);
	CHECK(n == 0 && !s, "unknown: no relief");
	for (i = CHECKER_UNKNOWN; i <= CHECKER_HUNG; i++) {
		size_t k;

		s = checker_relief((enum checker_state)i, &n);
		for (k = 0; k < n; k++)
			if (!s[k].source || !*s[k].source || !s[k].words || !*s[k].words)
				break;
		CHECK(k == n, "every step has its words and its source");
	}
}

/* the reader: logcount's keys under "log.", its window, the quotes, the
 * figures left out or refused */
static void reader(void)
{
	char path[] = "/tmp/checkerstate_test.XXXXXX";
	struct health_record h;
	FILE *f;
	int fd = mkstemp(path);

	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	CHECK(f != NULL, "a temporary record");
	if (!f)
		return;
	fputs("execlag-health\t1\nsystem\tDarwin\nchecker\tsyspolicyd\nps\tok\n"
	      "syspolicyd_count\t2\nsyspolicyd_cpu_pct\t215.5\nsyspolicyd_rss_kb\tmany\n"
	      "trustd_count\t0\nassess\tsomething new\nassess_exit\t1\n"
	      "log.last\t2h\nlog.result\tok\nlog.syspolicyd_lines\t7200\nlog.own_lines\t0\n"
	      "log.top_program\t/A\nlog.top_program_lines\t3\nquote\tone\nquote\ttwo\n",
	      f);
	fclose(f);
	CHECK(healthfile_read(path, &h) == 0, "a record is read");
	CHECK(h.checker == 1 && h.ps_ok && h.syspolicyd.count == 2, "its ps part");
	check_near(h.syspolicyd.cpu_pct, 215.5, 1e-9, "syspolicyd's CPU");
	CHECK(h.syspolicyd.rss_kb == -1 && h.trustd.count == 0, "a figure that is no number: not known");
	CHECK(h.assess == HEALTH_ASSESS_OTHER && h.assess_exit == 1, "an assessment the reader does not know: other");
	check_near(h.window_s, 7200, 1e-9, "log.last 2h: 7200 s");
	CHECK(h.log_ok && h.log_lines == 7200 && h.driver_lines == 3, "logcount's keys under log.");
	check_str(h.driver, "/A", "the driver");
	CHECK(h.nquotes == 2 && strcmp(h.quotes[1], "two") == 0, "the quotes, in order");
	healthfile_free(&h);
	f = fopen(path, "w");
	if (f) {
		fputs("execlag-logcount\t1\nresult\tok\n", f);
		fclose(f);
	}
	CHECK(healthfile_read(path, &h) == -2, "another file: -2");
	healthfile_free(&h);
	unlink(path);
	CHECK(healthfile_read(path, &h) == -1, "no file: -1");
	healthfile_free(&h);
}

static int states_of(int argc, char **argv)
{
	int i, rc = 0;

	for (i = 1; i < argc; i++) {
		struct health_record h;
		struct checker_verdict v;

		if (healthfile_read(argv[i], &h) != 0) {
			printf("unreadable\t%s\n", argv[i]);
			rc = 1;
			continue;
		}
		checker_decide(&h, &v);
		printf("%s\t%s\n", checker_state_name(v.state), v.driver ? v.driver : "-");
		healthfile_free(&h);
	}
	return rc;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return states_of(argc, argv);
	thresholds();
	order();
	unknown();
	figures();
	relief();
	reader();
	gate_and_names();
	writer();
	return check_done();
}
