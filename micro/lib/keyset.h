/* keyset.h - a set of 64-bit keys: open addressing, linear probing, keys
 * mixed on the way in (so callers may hand over raw, clustered values such
 * as process ids or inode numbers).  Not thread-safe; the caller locks. */
#ifndef EXECLAG_KEYSET_H
#define EXECLAG_KEYSET_H

#include <stddef.h>
#include <stdint.h>

struct keyset {
	uint64_t *slot; /* 0 is "empty" */
	size_t cap, len;
};

int keyset_has(const struct keyset *s, uint64_t k);
/* 1 when k was added, 0 when it was there. */
int keyset_add(struct keyset *s, uint64_t k);
void keyset_del(struct keyset *s, uint64_t k);

#endif
