/* run.c - lookups in the run model (run.h). */
#include "run.h"


const char *run_condition(const struct run *r, const char *key)
{
	return conditions_get(r->conditions, r->n_conditions, key);
}
