/* fuzz/runjson.c - the run.json reader of compare and fbtext (runjson.c)
 * and the lookups they make on a run it accepted, for scripts/tool/fuzz:
 *   runjson FILE
 * A refusal is exit 2, as in compare; only a crash or a sanitizer finding
 * is a fault. */
#define _POSIX_C_SOURCE 200809L
#include "runjson.h"
#include "util.h"

int main(int argc, char **argv)
{
	struct runjson r;
	char buf[128];
	size_t i;

	progname = "compare";
	if (argc != 2)
		die(EXIT_USAGE, "usage: runjson FILE");
	runjson_load(&r, "A: ", argv[1], NULL);
	runjson_condition(&r, "run.id");
	for (i = 0; i < json_array_size(r.cases); i++) {
		const json_t *k = json_array_get(r.cases, i);
		const json_t *c = rj_headline_config(k);

		rj_penalty_text(k, buf, sizeof buf);
		if (c)
			rj_penalty_text(c, buf, sizeof buf);
		rj_case(&r, rj_str(k, "name"));
	}
	runjson_free(&r);
	return EXIT_OK;
}
