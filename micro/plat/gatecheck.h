/* gatecheck.h - the calibration gate's checks (Linux): the events that
 * need a decision, queued by the reader (gatefan.h) in the order read, and
 * the workers that take them, each one at a time: the event's cache key,
 * the decision (hit, miss, wedged: gatecheck_linux.c's decide, the one
 * place a new way to answer goes), the hold, the answer, the log's line. */
#ifndef EXECLAG_GATECHECK_H
#define EXECLAG_GATECHECK_H

#include <pthread.h>
#include <sys/types.h>

#include "gateout.h"

/* Queue the event on fd (the kernel's descriptor of the object at path,
 * malloc'd: the queue takes it) of process pid for a worker. */
void check_queue(int fd, pid_t pid, enum obj_kind kind, char *path);

/* Start the gs.workers workers (0, or an errno value). */
int checks_start(pthread_t *workers);

/* Tell the workers to stop: they let what is queued go, and end. */
void checks_stop(pthread_t *workers);

/* An execution of a new file below a root that was never held: its
 * folder was marked too late (gatetree_linux.c, from its own thread). */
void check_unheld(long pid, const char *path);

#endif
