/* gatetree.h - the calibration gate's tree (Linux): which folders it marks
 * and which files it holds.
 *
 * The gate holds every file made after it started and executed (or, as a
 * library, opened) anywhere below one of its roots; a file that existed
 * before is let through at once, and so is anything outside the roots.
 * Every folder below a root is marked with the gate's permission events
 * (an inode mark on each, for its children), at the start by walking the
 * tree, and afterwards as folders are made or moved in: a second fanotify
 * group (notification only, FAN_REPORT_DFID_NAME) reports each new folder
 * to a thread that marks it and whatever it already holds.  No permission
 * mark covers a whole file system: a gate that stops answering (SIGSTOP, a
 * wedge) holds the launches below its roots, never the machine's. */
#ifndef EXECLAG_GATETREE_H
#define EXECLAG_GATETREE_H

#include <stdint.h>
#include <jansson.h>

#define TREE_MAX_ROOTS 8

/* The roots, each an existing folder (its real path is kept); 0, or -1
 * with *bad the one that is not a folder (errno says why). */
int tree_set_roots(const char *const *dirs, int n, const char **bad);
/* The first root's real path. */
const char *tree_first_root(void);

/* From now on a file is new (taken before marking). */
void tree_start_clock(void);

/* Mark every folder below every root in perm_fd for perm_mask, and set up
 * the group that follows new folders.  0, or -1 with errno and *root the
 * root that could not be marked (nothing else is fatal: a folder that
 * vanished during the walk is skipped; failures are counted). */
int tree_mark(int perm_fd, uint64_t perm_mask, const char **root);

/* Start the thread that marks the folders made later (after tree_mark),
 * and the one that sees executions of new files below the roots that
 * raised no permission event (a folder marked too late): it calls unheld
 * for each, once a file, from its own thread. */
void tree_follow(void (*unheld)(long pid, const char *path));

enum tree_verdict { TREE_NEW, TREE_OLD, TREE_OUTSIDE };

/* Whether the file behind fd, at path (proc_fd_path's), is to be judged:
 * new and below a root.  Counts the others.  exec: a permission event of
 * its execution (remembered: its execution was not unheld).  The reader's
 * thread. */
enum tree_verdict tree_judge(int fd, const char *path, int exec);


/* The start line's and the stop line's fields about the tree. */
void tree_log_start(json_t *o);
void tree_log_stop(json_t *o);

#endif
