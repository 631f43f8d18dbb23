/* looksmeta.h - the "meta looks" value of a samples or suite file
 * (docs/formats.md): where sequential stopping looked, 1 to 64 ascending
 * whole numbers from 1 to 100000000, comma-separated, the extension's
 * after a '+' ("8,12,16,20+40,60").  Its one parser: the readers check it
 * with looks_count, stats (looks_coverage_at) reads the looks from it;
 * drive_looks writes it. */
#ifndef EXECLAG_LOOKSMETA_H
#define EXECLAG_LOOKSMETA_H

/* the most looks a "meta looks" may list (LOOKS_MAX is what launch plans;
 * files from elsewhere may carry more) */
#define LOOKS_META_MAX 64

/* The looks of s into v; their number, or -1 where s is not valid; those
 * before a '+' in *planned (all of them without one). */
int looks_meta_parse(const char *s, long v[LOOKS_META_MAX], int *planned);

/* The number of looks in s; -1 where s is not valid. */
int looks_count(const char *s);

/* The looks of s that were planned before an extension ('+'); looks_count
 * without one, -1 where s is not valid. */
int looks_planned(const char *s);

#endif
