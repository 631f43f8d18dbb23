/* newfile.c - how mkfresh writes a file (newfile.h). */
#define _POSIX_C_SOURCE 200809L
#include "newfile.h"
#include "made.h"
#include "mkrun.h"
#include "quarantine.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void newfile_write(int fd, const void *buf, size_t len, const char *path)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t w = write(fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			die_if_full(EXIT_FAIL, mk.workdir);
			die(EXIT_FAIL, "cannot write %s:", path);
		}
		p += w;
		len -= (size_t)w;
	}
}

int newfile_open(const char *path)
{
	int fd;

	made_track(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		made_untrack_last();
		die_if_full(EXIT_FAIL, mk.workdir);
		die(EXIT_FAIL, "cannot create %s:", path);
	}
	return fd;
}

void newfile_close(int fd, const char *path, int sync)
{
	if ((sync && fsync(fd) != 0) || close(fd) != 0) {
		die_if_full(EXIT_FAIL, mk.workdir);
		die(EXIT_FAIL, "cannot write %s:", path);
	}
}

void newfile_text(const char *path, const char *data, mode_t mode)
{
	int fd = newfile_open(path);

	newfile_write(fd, data, strlen(data), path);
	if (fchmod(fd, mode) != 0)
		die(EXIT_FAIL, "cannot chmod %s:", path);
	newfile_close(fd, path, 1);
}

void newfile_copy(const char *src, const char *dst, mode_t mode)
{
	char buf[65536];
	int in, out;
	ssize_t r;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		die(EXIT_FAIL, "cannot open %s:", src);
	out = newfile_open(dst);
	for (;;) {
		r = read(in, buf, sizeof buf);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			die(EXIT_FAIL, "cannot read %s:", src);
		}
		if (r == 0)
			break;
		newfile_write(out, buf, (size_t)r, dst);
	}
	close(in);
	if (fchmod(out, mode) != 0)
		die(EXIT_FAIL, "cannot chmod %s:", dst);
	newfile_close(out, dst, 1);
}

void newfile_refuse(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0)
		die(EXIT_FAIL, "%s already exists; refusing to replace it",
		    path);
}

void newfile_link(const char *target, const char *slot)
{
	newfile_refuse(slot);
	made_track(slot);
	if (link(target, slot) != 0) {
		made_untrack_last();
		die(EXIT_FAIL, "cannot link %s to %s:", slot, target);
	}
}

void newfile_publish(const char *tmp, const char *final)
{
	newfile_refuse(final);
	made_track(final);
	if (rename(tmp, final) != 0)
		die(EXIT_FAIL, "cannot rename %s to %s:", tmp, final);
}

void newfile_quarantine(const char *path)
{
	if (quarantine_set(path) != 0)
		die(EXIT_FAIL, "cannot set com.apple.quarantine on %s:", path);
}
