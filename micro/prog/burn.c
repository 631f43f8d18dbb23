/* burn - bursty CPU load for `make sensitivity`: on every core a thread that
 * spins for a random 50-300 ms, sleeps for a random 50-300 ms, and again,
 * until SIGTERM or SIGINT.  The bursts come and go at random, so they fall
 * on some launches and not on others, as other work on a shared machine
 * does: a measurement that pairs each first launch with its repeat must not
 * read them as a first-launch penalty. */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;
static long min_ms = 50, max_ms = 300;
static unsigned long seed = 1;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t next_rand(uint64_t *s)
{
	/* xorshift64 */
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void *burner(void *arg)
{
	uint64_t s = (uint64_t)(uintptr_t)arg * 0x9E3779B97F4A7C15ull + seed;
	volatile uint64_t sink = 0;

	if (s == 0)
		s = 1;
	while (!stop) {
		uint64_t on = (uint64_t)(min_ms + (long)(next_rand(&s) % (uint64_t)(max_ms - min_ms + 1)));
		uint64_t off = (uint64_t)(min_ms + (long)(next_rand(&s) % (uint64_t)(max_ms - min_ms + 1)));
		uint64_t end = now_ns() + on * 1000000ull;
		struct timespec ts;

		while (!stop && now_ns() < end)
			for (int i = 0; i < 10000; i++)
				sink += (uint64_t)i * sink + 1;
		ts.tv_sec = (time_t)(off / 1000);
		ts.tv_nsec = (long)(off % 1000) * 1000000L;
		while (!stop && nanosleep(&ts, &ts) != 0)
			;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long threads = sysconf(_SC_NPROCESSORS_ONLN), sd = 1;
	pthread_t tid[256];
	int i;

	progname = "burn";
	for (i = 1; i < argc; i += 2) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			printf("usage: burn [--threads N] [--min-ms MS] [--max-ms MS] [--seed S]\n"
			       "Bursty CPU load until SIGTERM/SIGINT: N threads (default: one per\n"
			       "online CPU), each spinning MIN..MAX ms (50..300), then sleeping as long.\n");
			return 0;
		}
		if (!v)
			die(EXIT_USAGE, "%s needs a value (see --help)", a);
		if (strcmp(a, "--threads") == 0) {
			if (parse_long(v, 1, 256, &threads) != 0)
				die(EXIT_USAGE, "--threads: '%s' is not a whole number from 1 to 256", v);
		} else if (strcmp(a, "--min-ms") == 0) {
			if (parse_long(v, 1, 60000, &min_ms) != 0)
				die(EXIT_USAGE, "--min-ms: '%s' is not a whole number from 1 to 60000", v);
		} else if (strcmp(a, "--max-ms") == 0) {
			if (parse_long(v, 1, 60000, &max_ms) != 0)
				die(EXIT_USAGE, "--max-ms: '%s' is not a whole number from 1 to 60000", v);
		} else if (strcmp(a, "--seed") == 0) {
			if (parse_long(v, 1, 2147483647L, &sd) != 0)
				die(EXIT_USAGE, "--seed: '%s' is not a whole number from 1", v);
		} else {
			die(EXIT_USAGE, "unknown option '%s' (see --help)", a);
		}
	}
	if (max_ms < min_ms)
		die(EXIT_USAGE, "--max-ms %ld is below --min-ms %ld", max_ms, min_ms);
	if (threads < 1)
		threads = 1;
	if (threads > 256)
		threads = 256;
	seed = (unsigned long)sd;
	catch_signals(on_signal);
	for (i = 0; i < threads; i++)
		if ((errno = pthread_create(&tid[i], NULL, burner, (void *)(uintptr_t)(i + 1))) != 0)
			die(EXIT_FAIL, "pthread_create:");
	for (i = 0; i < threads; i++)
		pthread_join(tid[i], NULL);
	return 0;
}
