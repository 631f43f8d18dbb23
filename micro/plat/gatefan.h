/* gatefan.h - the calibration gate's fanotify group (Linux): the
 * permission events of the folders below its roots (gatetree.h marks
 * them), read by one thread that answers at once what needs no check (a
 * file made before the start, one outside the roots, a plain open, the
 * gate's own, an exempt process's) and queues the rest for the workers
 * (gatecheck.h); a stop signal ends it. */
#ifndef EXECLAG_GATEFAN_H
#define EXECLAG_GATEFAN_H

#include <pthread.h>
#include <stdint.h>

/* The group (exit 2 where fanotify is not there: its reason). */
void fan_open(void);

/* From now on SIGTERM and SIGINT (for the threads that take them) end the
 * reader; SIGPIPE is ignored. */
void fan_catch_stop(void);

/* Mark every folder below the roots (exit 2 where one cannot be marked,
 * the ready file's temporary removed). */
void fan_mark_tree(void);

/* Start the reader (0, or an errno value); it returns once a stop signal
 * arrived. */
int fan_reader_start(pthread_t *reader);

/* Answer the event on fd (FAN_ALLOW) and close fd. */
void fan_respond(int fd, uint32_t response);

/* Close the group: the events not read yet are allowed by the kernel. */
void fan_close(void);

#endif
