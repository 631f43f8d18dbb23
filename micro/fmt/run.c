/* run.c - lookups in the run model (run.h). */
#include "run.h"

#include <string.h>

const char *run_condition(const struct run *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->n_conditions; i++)
		if (strcmp(r->conditions[i].key, key) == 0)
			return r->conditions[i].value;
	return NULL;
}
