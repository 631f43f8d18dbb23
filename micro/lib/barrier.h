/* barrier.h - threads that start together: pthread_barrier_t is optional
 * in POSIX and absent on macOS, so the kit has its own. */
#ifndef EXECLAG_BARRIER_H
#define EXECLAG_BARRIER_H

#include <pthread.h>

struct barrier {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int need, waiting;
	unsigned long generation;
};

/* A barrier for need threads; it can be used again once they have met. */
void barrier_init(struct barrier *b, int need);
/* Wait until need threads are waiting here, then all go on. */
void barrier_wait(struct barrier *b);

#endif
