/* measure_text.h - the measure text writer: measure.txt and what make
 * measure prints (docs/measure.md): W, N, the sizes, L, checks at once, B
 * and its share, the projection, the services, the watchers and the gate,
 * then make doctor's cause and do lines (advice.c).  The measure.json
 * writer is measure_json.h; the model, model/measure.h. */
#ifndef EXECLAG_MEASURE_TEXT_H
#define EXECLAG_MEASURE_TEXT_H

#include <stdio.h>

#include "advice.h"
#include "measure.h"

/* The text of M into F.  P: the verdict of the probe whose L B uses, as
 * advice_probe_of_run gives it; NULL when that probe's run cannot be read
 * (the cause then says the probe's note). */
void measure_text_write(FILE *f, const struct measure *m, const struct advice_probe *p);

/* The value of a conditions key of the measure (a struct measure *), NULL
 * when absent: the callback advice.c reads conditions through. */
const char *measure_advice_get(const void *measure, const char *key);

#endif
