/* check.h - the few assertions the C unit tests use: each prints one TAP
 * line ("ok N - what" or "not ok N - what: why") and the test's main
 * returns check_done() (1 when any failed). */
#ifndef EXECLAG_CHECK_H
#define EXECLAG_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_n, check_failed;

static inline void check_(int ok, const char *what, const char *why)
{
	check_n++;
	if (ok) {
		printf("ok %d - %s\n", check_n, what);
	} else {
		check_failed++;
		printf("not ok %d - %s: %s\n", check_n, what, why);
	}
}

#define CHECK(cond, what) check_((cond) != 0, what, #cond)

static inline void check_near(double got, double want, double tol, const char *what)
{
	char why[128];

	snprintf(why, sizeof why, "got %.6g, want %.6g (within %g)", got, want, tol);
	check_(fabs(got - want) <= tol, what, why);
}

static inline void check_str(const char *got, const char *want, const char *what)
{
	char why[1300];

	snprintf(why, sizeof why, "got %s, want %s", got ? got : "NULL", want ? want : "NULL");
	check_((!got && !want) || (got && want && strcmp(got, want) == 0), what, why);
}

static int check_done(void)
{
	printf("1..%d\n", check_n);
	return check_failed ? 1 : 0;
}

#endif
