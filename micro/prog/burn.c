/* burn - bursty CPU load for `make sensitivity`: on every core a thread that
 * spins for a random 50-300 ms, sleeps for a random 50-300 ms, and again,
 * until SIGTERM or SIGINT.  The bursts come and go at random, so they fall
 * on some launches and not on others, as other work on a shared machine
 * does: a measurement that pairs each first launch with its repeat must not
 * read them as a first-launch penalty. */
#define _POSIX_C_SOURCE 200809L
#include "opts.h"
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

static void usage(FILE *f)
{
	fputs("usage: burn [--threads N] [--min-ms MS] [--max-ms MS] [--seed S]\n"
	      "Bursty CPU load until SIGTERM/SIGINT: N threads (default: one per\n"
	      "online CPU), each spinning MIN..MAX ms (50..300), then sleeping as long.\n", f);
}

/* The command line (opts.h), each value checked; the threads to run. */
static long parse_args(int argc, char **argv)
{
	const char *threads_s = NULL, *min_s = NULL, *max_s = NULL, *seed_s = NULL;
	const struct opt opts[] = {
		OPT_VALUE("--threads", &threads_s), OPT_VALUE("--min-ms", &min_s),
		OPT_VALUE("--max-ms", &max_s), OPT_VALUE("--seed", &seed_s), OPT_END
	};
	long threads = sysconf(_SC_NPROCESSORS_ONLN), sd = 1;

	opts_parse(argc, argv, opts, OPTS_NONE, usage);
	if (threads_s && parse_long(threads_s, 1, 256, &threads) != 0)
		die(EXIT_USAGE, "--threads: '%s' is not a whole number from 1 to 256", threads_s);
	if (min_s && parse_long(min_s, 1, 60000, &min_ms) != 0)
		die(EXIT_USAGE, "--min-ms: '%s' is not a whole number from 1 to 60000", min_s);
	if (max_s && parse_long(max_s, 1, 60000, &max_ms) != 0)
		die(EXIT_USAGE, "--max-ms: '%s' is not a whole number from 1 to 60000", max_s);
	if (seed_s && parse_long(seed_s, 1, 2147483647L, &sd) != 0)
		die(EXIT_USAGE, "--seed: '%s' is not a whole number from 1", seed_s);
	if (max_ms < min_ms)
		die(EXIT_USAGE, "--max-ms %ld is below --min-ms %ld", max_ms, min_ms);
	seed = (unsigned long)sd;
	if (threads < 1)
		threads = 1;
	return threads > 256 ? 256 : threads;
}

int main(int argc, char **argv)
{
	pthread_t tid[256];
	long threads, i;

	progname = "burn";
	threads = parse_args(argc, argv);
	catch_signals(on_signal);
	for (i = 0; i < threads; i++)
		if ((errno = pthread_create(&tid[i], NULL, burner, (void *)(uintptr_t)(i + 1))) != 0)
			die(EXIT_FAIL, "pthread_create:");
	for (i = 0; i < threads; i++)
		pthread_join(tid[i], NULL);
	return 0;
}
