/* gatecache_linux.c - what the calibration gate has seen: a string hash
 * set, open addressing, linear probing (gatecache.h). */
#define _GNU_SOURCE
#include "gatecache.h"
#include "util.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t cache_mu = PTHREAD_MUTEX_INITIALIZER;
static char **cache_slots;
static size_t cache_cap, cache_len;

uint64_t gate_fnv1a(const void *p, size_t n, uint64_t h)
{
	const unsigned char *b = p;

	while (n--) {
		h ^= *b++;
		h *= 0x100000001b3ull;
	}
	return h;
}

/* Index of key's slot, or of the empty slot where it belongs. */
static size_t cache_find(char **slots, size_t cap, const char *key)
{
	size_t i = (size_t)gate_fnv1a(key, strlen(key), FNV_OFFSET) & (cap - 1);

	while (slots[i] && strcmp(slots[i], key) != 0)
		i = (i + 1) & (cap - 1);
	return i;
}

void cache_init(void)
{
	cache_cap = 1024;
	cache_slots = calloc(cache_cap, sizeof *cache_slots);
	if (!cache_slots)
		die(EXIT_FAIL, "out of memory");
}

bool cache_has(const char *key)
{
	bool hit;

	pthread_mutex_lock(&cache_mu);
	hit = cache_slots[cache_find(cache_slots, cache_cap, key)] != NULL;
	pthread_mutex_unlock(&cache_mu);
	return hit;
}

/* Twice the slots, every key moved to its new place. */
static void grow(void)
{
	size_t ncap = cache_cap * 2;
	char **ns = calloc(ncap, sizeof *ns);

	if (!ns)
		die(EXIT_FAIL, "out of memory");
	for (size_t j = 0; j < cache_cap; j++)
		if (cache_slots[j])
			ns[cache_find(ns, ncap, cache_slots[j])] = cache_slots[j];
	free(cache_slots);
	cache_slots = ns;
	cache_cap = ncap;
}

void cache_add(const char *key)
{
	size_t i;

	pthread_mutex_lock(&cache_mu);
	if (2 * (cache_len + 1) > cache_cap)
		grow();
	i = cache_find(cache_slots, cache_cap, key);
	if (!cache_slots[i]) {
		cache_slots[i] = xstrdup(key);
		cache_len++;
	}
	pthread_mutex_unlock(&cache_mu);
}
