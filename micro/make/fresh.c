/* fresh.c - the makers of new files, each with bytes of its own
 * (makers.h): scripts, compiled programs, libraries. */
#define _POSIX_C_SOURCE 200809L
#include "makers.h"
#include "assess.h"
#include "mkmanifest.h"
#include "prelaunch.h"
#include "made.h"
#include "mkrun.h"
#include "newfile.h"
#include "units.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>

/* #!/bin/sh scripts whose comment is their nonce, ending as the payload
 * says. */
void make_scripts(place_fn *place, long count)
{
	const char *tail = mk.payload == P_KILL ? "kill -9 $$" :
			   mk.payload == P_FAIL ? "exit 3" : "exit 0";
	long i;

	for (i = mk.first; i < mk.first + count; i++) {
		char *stem, *path, *nonce, *text;

		stop_if_interrupted();
		stem = slot_stem(i);
		path = slot_path(i, ".sh");
		nonce = make_nonce(stem);
		text = xasprintf("#!/bin/sh\n# execlag nonce %s\n%s\n",
				 nonce, tail);
		newfile_refuse(path);
		newfile_text(path, text, 0755);
		free(stem);
		free(path);
		free(nonce);
		free(text);
	}
}

void make_exes(place_fn *place, long count)
{
	make_units(count, U_EXE, mk.njob);
}

/* New programs, each then assessed as this platform can (assess.h), each
 * step timed apart from any launch: the steps' lines appended to the
 * manifest's assessments (MANIFEST.assessed: INDEX, TOOL, MS, STATUS;
 * docs/formats.md).  A simulated run launches nothing: none assessed. */
void make_assessed(place_fn *place, long count)
{
	struct assess_step st[ASSESS_MAX_STEPS];
	double bound = prelaunch_bound();
	char *out_path;
	FILE *out;
	long i;
	int j, n;

	make_exes(place, count);
	if (mk.simulated)
		return;
	out_path = mkmanifest_beside(".assessed");
	out = fopen(out_path, "a");
	if (!out)
		die(EXIT_FAIL, "cannot write %s:", out_path);
	for (i = mk.first; i < mk.first + count; i++) {
		char *slot = slot_path(i, "");

		stop_if_interrupted();
		n = assess_file(slot, bound, st);
		for (j = 0; j < n; j++)
			fprintf(out, "%ld\t%s\t%.3f\t%d\n", i, st[j].tool, st[j].ms, st[j].status);
		free(slot);
	}
	if (fclose(out) != 0)
		die(EXIT_FAIL, "cannot write %s:", out_path);
	free(out_path);
}

/* As a download leaves them (docs/macos.md §6): every program written is
 * given the attribute before its final name. */
void make_quarantined(place_fn *place, long count)
{
	mk.quarantine = 1;
	make_exes(place, count);
}

/* The dylib case: its host program (made and launched once, before the
 * libraries), then the libraries. */
void make_dylibs(place_fn *place, long count)
{
	free(launched_unit(U_HOST, "host"));
	make_units(count, U_LIB, mk.njob);
}
