/* tmplstore.c - the templates kept in EXECLAG_TEMPLATES (tmplstore.h). */
#define _POSIX_C_SOURCE 200809L
#include "tmplstore.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *tmplstore_key(enum unit u, size_t plen, const char *stem)
{
	char *key = xasprintf("execlag-template 1\037%d\037%d\037%ld\037%zu\037%zu",
			      (int)u, (int)mk.payload, mk.pad_bytes, plen, strlen(stem));
	int i;

	for (i = 0; i < mk.cc_argc; i++) {
		char *k = xasprintf("%s\037%s", key, mk.cc_argv[i]);

		free(key);
		key = k;
	}
	if (strchr(key, '\n')) {
		free(key);
		return NULL;
	}
	return key;
}

/* The entry's path for key (FNV-1a 64 of the key), NULL without a folder. */
static char *entry_path(const char *key)
{
	const char *dir = getenv("EXECLAG_TEMPLATES");
	uint64_t h = 14695981039346656037u;
	const char *c;

	if (!dir || !*dir || !key)
		return NULL;
	for (c = key; *c; c++) {
		h ^= (unsigned char)*c;
		h *= 1099511628211u;
	}
	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		return NULL;
	return xasprintf("%s/%016llx.tmpl", dir, (unsigned long long)h);
}

char *tmplstore_read(const char *path, size_t *len)
{
	struct stat st;
	char *buf = NULL;
	size_t got = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0)
		goto fail;
	buf = xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size) {
		r = read(fd, buf + got, (size_t)st.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			goto fail;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	*len = got;
	return buf;
fail:
	free(buf);
	close(fd);
	return NULL;
}

char *tmplstore_load(const char *key, size_t plen, char **ph, size_t *len)
{
	char *path = entry_path(key), *buf, *nl, *out = NULL;
	size_t klen = key ? strlen(key) : 0, size;

	if (!path)
		return NULL;
	buf = tmplstore_read(path, &size);
	free(path);
	if (!buf)
		return NULL;
	/* the key, a newline, the placeholder, a newline, the bytes */
	if (size < klen + plen + 2 || memcmp(buf, key, klen) != 0 || buf[klen] != '\n')
		goto out;
	nl = buf + klen + 1 + plen;
	if (*nl != '\n' || memchr(buf + klen + 1, '\n', plen))
		goto out;
	*ph = xmalloc(plen + 1);
	memcpy(*ph, buf + klen + 1, plen);
	(*ph)[plen] = '\0';
	*len = size - klen - plen - 2;
	out = xmalloc(*len ? *len : 1);
	memcpy(out, nl + 1, *len);
out:
	free(buf);
	return out;
}

/* Write all of buf to fd; 0 on success. */
static int write_some(int fd, const char *buf, size_t len)
{
	ssize_t w;

	while (len > 0) {
		w = write(fd, buf, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

void tmplstore_save(const char *key, const char *ph, const char *bytes, size_t len)
{
	char *path = entry_path(key), *tmp;
	int fd, bad;

	if (!path)
		return;
	tmp = xasprintf("%s.%ld.tmp", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0) {
		bad = write_some(fd, key, strlen(key)) || write_some(fd, "\n", 1) ||
		      write_some(fd, ph, strlen(ph)) || write_some(fd, "\n", 1) ||
		      write_some(fd, bytes, len);
		if (close(fd) != 0 || bad || rename(tmp, path) != 0)
			unlink(tmp);
	}
	free(tmp);
	free(path);
}
