/* gatecache.h - what the calibration gate has seen (Linux): a set of keys
 * (strings: an inode's, a path, a content's hash), safe between threads. */
#ifndef EXECLAG_GATECACHE_H
#define EXECLAG_GATECACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* FNV-1a 64 of n bytes at p, on from h (FNV_OFFSET to start). */
#define FNV_OFFSET 0xcbf29ce484222325ull
uint64_t gate_fnv1a(const void *p, size_t n, uint64_t h);

/* The empty cache (exit 1 out of memory). */
void cache_init(void);
bool cache_has(const char *key);
void cache_add(const char *key);

#endif
