/* padding.h - --size: each compiled program's own random bytes, from a
 * generator seeded by its nonce (xorshift64*: every artifact its own), in
 * a read-only data section (csource.h puts them there). */
#ifndef EXECLAG_PADDING_H
#define EXECLAG_PADDING_H

#include <stddef.h>
#include <stdint.h>

/* The generator's seed for the artifact whose nonce is nonce. */
uint64_t pad_seed(const char *nonce);

/* The next len bytes from generator *x into buf (len at most 65536). */
void pad_fill(uint64_t *x, char *buf, size_t len);

/* Write mk.pad_bytes of the artifact's bytes to the new file path. */
void pad_write(const char *path, const char *nonce);

#endif
