/* makers.c - a kind's maker, one row a kind of cases/kinds (makers.h). */
#include "makers.h"
#include "mkrun.h"
#include "util.h"

#include <stddef.h>

static const struct maker makers[N_KINDS] = {
	/* kind               make               place           ext      launched */
	[K_SCRIPT]        = { make_scripts,     NULL,           ".sh",   BY_ITSELF },
	[K_SCRIPT_VIA_SH] = { make_scripts,     NULL,           ".sh",   BY_SH },
	[K_EXE]           = { make_exes,        NULL,           "",      BY_ITSELF },
	[K_EXE_COPY]      = { from_base,        place_copy,     "",      BY_ITSELF },
	[K_EXE_HARDLINK]  = { from_base,        place_hardlink, "",      BY_ITSELF },
	[K_EXE_REWRITE]   = { from_base,        place_rewrite,  "",      BY_ITSELF },
	[K_EXE_CLONE]     = { from_base,        place_clone,    "",      BY_ITSELF },
	[K_EXE_FRESHLINK] = { from_base,        place_freshlink, "",     BY_FRESH_LINK },
	[K_EXE_OVERWRITE] = { make_overwrites,  NULL,           "",      BY_ITSELF },
	[K_EXE_SAMEBYTES] = { from_base,        place_samebytes, "",     BY_ITSELF },
	[K_EXE_TOUCH]     = { from_base,        place_touch,    "",      BY_ITSELF },
	[K_EXE_ASSESSED]  = { make_assessed,    NULL,           "",      BY_ITSELF },
	[K_SYSTEM_COPY]   = { from_system,      place_copy,     "",      BY_ITSELF },
	[K_DYLIB]         = { make_dylibs,      NULL,           LIB_EXT, BY_HOST },
	[K_QUARANTINED]   = { make_quarantined, NULL,           "",      BY_ITSELF },
};

const struct maker *maker_of(enum kind k)
{
	/* a row of cases/kinds with no row above */
	if ((int)k < 0 || k >= N_KINDS || !makers[k].make)
		die(EXIT_FAIL, "mkfresh has no maker of the kind '%s'",
		    (int)k >= 0 && k < N_KINDS ? kind_table[k].name : "?");
	return &makers[k];
}
