/* fsflush.h - write a folder's new files to disk without opening any of
 * them.  A file opened (even read-only) between its last write and its first
 * launch is seen by an on-access scanner, which scans and caches it then: the
 * launch would no longer pay the first-scan cost the kit measures.  So the
 * flush goes through the file system of the folder, never through a file.
 * One implementation file per platform. */
#ifndef EXECLAG_FSFLUSH_H
#define EXECLAG_FSFLUSH_H

/* Flush the file system holding dir; 0, or -1 with errno set. */
int fsflush_dir(const char *dir);

#endif
