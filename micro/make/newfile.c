/* newfile.c - how mkfresh writes a file (newfile.h). */
#if defined(__APPLE__)
#define _DARWIN_C_SOURCE /* struct stat's st_mtimespec */
#endif
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
#include <time.h>
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

/* Every byte of src written to out (the file dst). */
static void copy_into(const char *src, int out, const char *dst)
{
	char buf[65536];
	ssize_t r;
	int in = open(src, O_RDONLY | O_CLOEXEC);

	if (in < 0)
		die(EXIT_FAIL, "cannot open %s:", src);
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
}

void newfile_copy(const char *src, const char *dst, mode_t mode)
{
	int out;

	out = newfile_open(dst);
	copy_into(src, out, dst);
	if (fchmod(out, mode) != 0)
		die(EXIT_FAIL, "cannot chmod %s:", dst);
	newfile_close(out, dst, 1);
}

/* The modification time in st. */
static struct timespec mtime_of(const struct stat *st)
{
#if defined(__APPLE__)
	return st->st_mtimespec;
#else
	return st->st_mtim;
#endif
}

/* ts[0], ts[1] for futimens or utimensat: the access time left alone, the
 * modification time now, to the nanosecond, and never old. */
static void times_now(const struct timespec *old, struct timespec ts[2])
{
	clock_gettime(CLOCK_REALTIME, &ts[1]);
	if (ts[1].tv_sec == old->tv_sec && ts[1].tv_nsec == old->tv_nsec)
		ts[1].tv_nsec = (ts[1].tv_nsec + 1) % 1000000000L;
	ts[0].tv_sec = 0;
	ts[0].tv_nsec = UTIME_OMIT;
}

/* path, which exists, opened to be written over: its descriptor, and its
 * modification time before in *old */
static int open_over(const char *path, struct timespec *old)
{
	struct stat st;
	int out = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (out < 0)
		die(EXIT_FAIL, "cannot open %s for writing:", path);
	if (fstat(out, &st) != 0)
		die(EXIT_FAIL, "cannot stat %s:", path);
	*old = mtime_of(&st);
	return out;
}

/* out, written over path, its modification time now, flushed and closed */
static void close_over(int out, const char *path, const struct timespec *old)
{
	struct timespec ts[2];

	times_now(old, ts);
	if (futimens(out, ts) != 0)
		die(EXIT_FAIL, "cannot set the times of %s:", path);
	newfile_close(out, path, 1);
}

void newfile_rewrite(const char *path, const char *from)
{
	struct timespec old;
	int out = open_over(path, &old);

	copy_into(from, out, path);
	close_over(out, path, &old);
}

void newfile_overwrite(const char *path, const void *bytes, size_t len)
{
	struct timespec old;
	int out = open_over(path, &old);

	newfile_write(out, bytes, len, path);
	close_over(out, path, &old);
}

void newfile_touch(const char *path)
{
	struct timespec old, ts[2];
	struct stat st;

	/* by its path: no descriptor is opened (an open is an event to a
	 * scanner that checks opens) */
	if (stat(path, &st) != 0)
		die(EXIT_FAIL, "cannot stat %s:", path);
	old = mtime_of(&st);
	times_now(&old, ts);
	if (utimensat(AT_FDCWD, path, ts, 0) != 0)
		die(EXIT_FAIL, "cannot set the times of %s:", path);
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
