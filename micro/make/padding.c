/* padding.c - each compiled program's own random bytes (padding.h). */
#define _POSIX_C_SOURCE 200809L
#include "padding.h"
#include "mkrun.h"
#include "newfile.h"

#include <string.h>

uint64_t pad_seed(const char *nonce)
{
	uint64_t x = 0xcbf29ce484222325u;
	const char *c;

	for (c = nonce; *c; c++)
		x = (x ^ (unsigned char)*c) * 0x100000001b3u;
	return x ? x : 1;
}

void pad_fill(uint64_t *x, char *buf, size_t len)
{
	uint64_t w[8192];
	size_t i;

	for (i = 0; i < sizeof w / sizeof w[0]; i++) {
		*x ^= *x >> 12;
		*x ^= *x << 25;
		*x ^= *x >> 27;
		w[i] = *x * 0x2545f4914f6cdd1du;
	}
	memcpy(buf, w, len);
}

void pad_write(const char *path, const char *nonce)
{
	uint64_t x = pad_seed(nonce);
	char buf[65536];
	long left = mk.pad_bytes;
	int fd;

	fd = newfile_open(path);
	while (left > 0) {
		size_t len = left < (long)sizeof buf ? (size_t)left : sizeof buf;

		pad_fill(&x, buf, len);
		newfile_write(fd, buf, len, path);
		left -= (long)len;
	}
	newfile_close(fd, path, 0);
}
