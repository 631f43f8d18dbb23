/* quarantine_test.c - the value of com.apple.quarantine (micro/fmt/quarantine.c)
 * and, off macOS, that none is set (micro/plat/quarantine_other.c). */
#include "../../micro/plat/quarantine.h"
#include "check.h"

#include <errno.h>

int main(void)
{
	char buf[64];
	int n;

	/* flags 0081, the time in lower-case hex, agent execlag, no UUID */
	n = quarantine_value(buf, sizeof buf, (time_t)1796406122);
	check_str(buf, "0081;6b12fb6a;execlag;", "the value at 1796406122 (2026-12-04)");
	CHECK(n == 22, "its length");
	quarantine_value(buf, sizeof buf, (time_t)0);
	check_str(buf, "0081;0;execlag;", "at the epoch: no padding");
	quarantine_value(buf, sizeof buf, (time_t)0xabcdef);
	check_str(buf, "0081;abcdef;execlag;", "lower-case hex");
	/* cut short, it says how long it would be */
	n = quarantine_value(buf, 8, (time_t)1796406122);
	CHECK(n == 22 && strlen(buf) == 7, "a short buffer: truncated, the full length returned");
#if !defined(__APPLE__)
	errno = 0;
	CHECK(quarantine_set("/nonexistent") == -1 && errno == ENOTSUP,
	      "off macOS: nothing set, ENOTSUP");
#endif
	return check_done();
}
