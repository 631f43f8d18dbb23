/* clonefile.h - a clone of a file: a new inode that shares the source's
 * blocks, as APFS clonefile(2) (clonefile_darwin.c) and Linux's FICLONE
 * ioctl (clonefile_linux.c) make one; elsewhere none (clonefile_other.c).
 * A clone is never a silent copy: where the file system has no reflink the
 * call fails, and the case is not applicable here (docs/remedies.md,
 * "Clones: FICLONE here and elsewhere"). */
#ifndef EXECLAG_CLONEFILE_H
#define EXECLAG_CLONEFILE_H

/* Clone src to dst, which must not exist, with mode 0755: 0, or -1 with
 * errno and *call the system call that failed ("clonefile", "FICLONE",
 * "open"); dst is not left behind on failure. */
int clone_file(const char *src, const char *dst, const char **call);

#endif
