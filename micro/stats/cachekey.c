/* cachekey.c - the cache key the exe, hardlink, copy and rewrite verdicts
 * point to (stats_infer_key, stats.h). */
#include "stats.h"

#include <stdio.h>
#include <string.h>

/* find_case: the case of kind KIND that the key's inference reads: the
 * one named KIND, as the kit's own cases are, else the first of that kind
 * (a case file of the kit's kinds under another name). */
static const struct case_result *find_case(const struct case_result *cases,
					   size_t n, const char *kind)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(cases[i].name, kind) == 0)
			return &cases[i];
	for (i = 0; i < n; i++)
		if (cases[i].kind && strcmp(cases[i].kind, kind) == 0)
			return &cases[i];
	return NULL;
}

static void set_key(struct inference *out, enum cache_key key, const char *why)
{
	out->key = key;
	snprintf(out->reason, sizeof out->reason, "%s", why);
}

/* What a cache keyed by X would do: a hard link keeps inode and content but
 * not the path; a copy keeps content only; a rename-over keeps the path only. */
void stats_infer_key(const struct case_result *cases, size_t n_cases,
		     struct inference *out)
{
	const struct case_result *exe = find_case(cases, n_cases, "exe");
	const struct case_result *link = find_case(cases, n_cases, "exe-hardlink");
	const struct case_result *copy = find_case(cases, n_cases, "exe-copy");
	const struct case_result *rewrite = find_case(cases, n_cases, "exe-rewrite");
	enum verdict l, c, r;

	if (!exe || !link || !copy || !rewrite) {
		set_key(out, KEY_UNDETERMINED,
			"needs exe, exe-hardlink, exe-copy and exe-rewrite");
		return;
	}
	if (exe->headline->verdict != VERDICT_SLOWDOWN) {
		set_key(out, KEY_UNDETERMINED, "no first-launch penalty to key");
		return;
	}
	l = link->headline->verdict;
	c = copy->headline->verdict;
	r = rewrite->headline->verdict;
	if (l == VERDICT_NONE && c == VERDICT_SLOWDOWN && r == VERDICT_SLOWDOWN)
		set_key(out, KEY_INODE,
			"hardlink none, copy slowdown, rewrite slowdown: a new inode is assessed again, a new name for a known inode is not");
	else if (l == VERDICT_SLOWDOWN && c == VERDICT_SLOWDOWN && r == VERDICT_NONE)
		set_key(out, KEY_PATH,
			"hardlink slowdown, copy slowdown, rewrite none: a new path is assessed again, a new file at a known path is not");
	else if (l == VERDICT_NONE && c == VERDICT_NONE && r == VERDICT_NONE)
		set_key(out, KEY_CONTENT,
			"hardlink none, copy none, rewrite none: only new content is assessed");
	else {
		out->key = KEY_UNDETERMINED;
		snprintf(out->reason, sizeof out->reason,
			 "hardlink %s, copy %s, rewrite %s: matches no single key",
			 stats_verdict_name(l), stats_verdict_name(c),
			 stats_verdict_name(r));
	}
}
