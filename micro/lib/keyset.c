/* keyset.c - a set of 64-bit keys (keyset.h). */
#include "keyset.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x ? x : 1;
}

int keyset_has(const struct keyset *s, uint64_t k)
{
	size_t i;

	if (!s->cap)
		return 0;
	k = mix(k);
	for (i = k & (s->cap - 1); s->slot[i]; i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == k)
			return 1;
	return 0;
}

/* 1 when k was added, 0 when it was there. */
int keyset_add(struct keyset *s, uint64_t k)
{
	size_t i;

	if ((s->len + 1) * 2 > s->cap) {
		struct keyset g = { NULL, s->cap ? s->cap * 2 : 1024, 0 };

		g.slot = xmalloc(g.cap * sizeof *g.slot);
		memset(g.slot, 0, g.cap * sizeof *g.slot);
		for (i = 0; i < s->cap; i++) {
			size_t j;

			if (!s->slot[i])
				continue;
			for (j = s->slot[i] & (g.cap - 1); g.slot[j]; j = (j + 1) & (g.cap - 1))
				;
			g.slot[j] = s->slot[i];
			g.len++;
		}
		free(s->slot);
		*s = g;
	}
	k = mix(k);
	for (i = k & (s->cap - 1); s->slot[i]; i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == k)
			return 0;
	s->slot[i] = k;
	s->len++;
	return 1;
}

/* Remove k (backward shift: the keys after it in its run move up). */
void keyset_del(struct keyset *s, uint64_t k)
{
	size_t i, j;

	if (!s->cap)
		return;
	k = mix(k);
	for (i = k & (s->cap - 1); s->slot[i] && s->slot[i] != k; i = (i + 1) & (s->cap - 1))
		;
	if (!s->slot[i])
		return;
	s->slot[i] = 0;
	s->len--;
	for (j = (i + 1) & (s->cap - 1); s->slot[j]; j = (j + 1) & (s->cap - 1)) {
		size_t home = s->slot[j] & (s->cap - 1);

		/* the key at j stays when its home lies cyclically in (i, j] */
		if (i < j ? (home > i && home <= j) : (home > i || home <= j))
			continue;
		s->slot[i] = s->slot[j];
		s->slot[j] = 0;
		i = j;
	}
}
