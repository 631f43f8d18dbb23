/* barrier.c - threads that start together (barrier.h). */
#include "barrier.h"

void barrier_init(struct barrier *b, int need)
{
	pthread_mutex_init(&b->mu, NULL);
	pthread_cond_init(&b->cv, NULL);
	b->need = need;
	b->waiting = 0;
	b->generation = 0;
}

void barrier_wait(struct barrier *b)
{
	unsigned long gen;

	pthread_mutex_lock(&b->mu);
	gen = b->generation;
	if (++b->waiting == b->need) {
		b->waiting = 0;
		b->generation++;
		pthread_cond_broadcast(&b->cv);
	} else {
		while (gen == b->generation)
			pthread_cond_wait(&b->cv, &b->mu);
	}
	pthread_mutex_unlock(&b->mu);
}
