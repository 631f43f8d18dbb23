/* gateset.h - the calibration gate's settings (Linux): its command line,
 * one row a setting in gateset_linux.c's table (its option, what its value
 * is, where it goes, what a bad one is told), checked once before the gate
 * starts and read by every thread after.
 *
 * A new setting is a field here, a row in the table, its field on the
 * log's start line (gateset_start_line) and the code that reads it (the
 * decision per event: gatedecide_linux.c). */
#ifndef EXECLAG_GATESET_H
#define EXECLAG_GATESET_H

#include <stdio.h>
#include <jansson.h>

#include "gatetree.h"

/* --key: what the cache remembers of an object. */
enum gate_key { KEY_INODE, KEY_PATH, KEY_CONTENT, KEY_INODE_MTIME };

struct gate_settings {
	double latency_ms;      /* --latency-ms: the hold of an object not seen before */
	double every_ms;        /* --every-ms: held on every decision, hit or miss */
	double per_mb_ms;       /* --per-mb-ms: a miss holds this more per MiB */
	long workers;           /* --workers: threads answering (1 = serialised) */
	long key;               /* --key: enum gate_key */
	long on_open;           /* --on open: every open is checked, as ClamAV does */
	long exempt_pid;        /* --exempt-pid: it and its descendants pass; -1 none */
	long wedge;             /* --wedge K: after K held checks, answer nothing until stopped */
	long exhausted;         /* --exhausted 1: refuse every check (FAN_DENY), as an
				 * exhausted syspolicyd refuses every assessment */
	double kill;            /* --kill R: a share R of held checks answered by a refusal */
	const char *dirs[TREE_MAX_ROOTS]; /* --dir: the roots */
	int n_dirs;
	const char *log;        /* --log FILE: one JSON line a decision */
	const char *ready;      /* --ready-file FILE */
	const char *heartbeat;  /* --heartbeat FILE */
};

extern struct gate_settings gs;

/* The command line (opts.h; usage for --help) into gs, every value
 * checked and the roots set (tree_set_roots); a bad one is one line and
 * exit 2. */
void gateset_parse(int argc, char **argv, void (*usage)(FILE *));

/* --key's value as the log says it ("inode"). */
const char *gateset_key_name(void);

/* The log's start line's fields of the settings (and of the tree). */
void gateset_start_line(json_t *o);

#endif
