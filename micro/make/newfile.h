/* newfile.h - how mkfresh writes a file: always a new one (O_EXCL), every
 * one recorded (made.h), every failure one line and exit 1 ("no space left
 * in WORKDIR" where the disk is full).
 *
 * The measurement's rule (docs/method.md): nothing opens, reads or stats
 * an artifact between its last write and its first timed launch, so what
 * is written is flushed through the descriptor that wrote it, never by
 * opening the file again.  And a file that has been launched is never
 * opened for writing: a new file is written and renamed over it
 * (docs/macos.md §7) -- except by the calls that are the placements
 * doing that (newfile_rewrite, newfile_overwrite, newfile_touch:
 * exe-overwrite, exe-samebytes, exe-touch; docs/remedies.md). */
#ifndef EXECLAG_NEWFILE_H
#define EXECLAG_NEWFILE_H

#include <stddef.h>
#include <sys/types.h>

/* Create path, which must not exist, for writing (mode 0600 until the
 * caller's fchmod); recorded, so a failure later removes it. */
int newfile_open(const char *path);

/* Write all len bytes of buf to fd (the new file path). */
void newfile_write(int fd, const void *buf, size_t len, const char *path);

/* Close fd (the new file path), which fsync first when sync is set. */
void newfile_close(int fd, const char *path, int sync);

/* Create path (it must not exist) with the text data and mode, on disk. */
void newfile_text(const char *path, const char *data, mode_t mode);

/* Copy src to the new file dst with read and write (no platform calls),
 * with mode, on disk. */
void newfile_copy(const char *src, const char *dst, mode_t mode);

/* Make slot, which must not exist, a hard link to target. */
void newfile_link(const char *target, const char *slot);

/* Write the bytes of from into path, which exists (a launched program):
 * the same inode, truncated and written, fsync'd, its modification time
 * now (to the nanosecond, and never the one it had: a coarse file-system
 * clock could give a write within the same tick the old one). */
void newfile_rewrite(const char *path, const char *from);

/* The same with bytes from memory: no file of them is opened, so a
 * checker of opens first sees them at the launch, as a linker's output
 * written in place from memory. */
void newfile_overwrite(const char *path, const void *bytes, size_t len);

/* Set path's modification time alone to now (never the one it had), as
 * touch -m does. */
void newfile_touch(const char *path);

/* exit 1 where path exists ("refusing to replace it"). */
void newfile_refuse(const char *path);

/* Give the finished temporary file tmp its final name (which must be new). */
void newfile_publish(const char *tmp, const char *final);

/* com.apple.quarantine as a download would leave it (docs/macos.md §6). */
void newfile_quarantine(const char *path);

#endif
