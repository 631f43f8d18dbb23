/* logexcerpt.c - the one reader of the unified log's excerpts
 * (logexcerpt.h). */
#define _POSIX_C_SOURCE 200809L
#include "logexcerpt.h"
#include "util.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 8

int logex_status(const char *path, char *result, size_t rlen, char *message, size_t mlen)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL, *line, *fld[MAX_FIELDS];
	size_t cap = 0;
	long lineno = 0;
	int nf;

	result[0] = message[0] = '\0';
	if (!f)
		return errno == ENOENT ? 1 : -1;
	while ((line = read_line(f, &buf, &cap)) != NULL) {
		lineno++;
		strip_eol(line);
		nf = split_tabs(line, fld, MAX_FIELDS);
		if (lineno == 1 && (nf != 2 || strcmp(fld[0], "execlag-log") != 0 ||
				    strcmp(fld[1], "1") != 0))
			break;
		if (nf >= 2 && strcmp(fld[0], "result") == 0)
			snprintf(result, rlen, "%s", fld[1]);
		else if (nf >= 2 && strcmp(fld[0], "message") == 0)
			snprintf(message, mlen, "%s", fld[1]);
	}
	fclose(f);
	free(buf);
	return result[0] ? 0 : -2;
}

int logex_each(const char *path, void (*fn)(const struct logex_event *ev, void *ctx), void *ctx,
	       struct logex_counts *counts)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL, *line;
	size_t cap = 0;

	memset(counts, 0, sizeof *counts);
	if (!f)
		return -1;
	while ((line = read_line(f, &buf, &cap)) != NULL) {
		struct logex_event ev;
		json_t *o;

		counts->lines++;
		strip_eol(line);
		if (!line[0])
			continue;
		o = json_loads(line, 0, NULL);
		if (!json_is_object(o)) {
			counts->unreadable++;
			json_decref(o);
			continue;
		}
		counts->events++;
		ev.message = json_string_value(json_object_get(o, "eventMessage"));
		ev.image = json_string_value(json_object_get(o, "processImagePath"));
		ev.timestamp = json_string_value(json_object_get(o, "timestamp"));
		fn(&ev, ctx);
		json_decref(o);
	}
	fclose(f);
	free(buf);
	return 0;
}

/* "2024-01-15 10:30:00.100001-0800" (log show's timestamp): seconds since
 * 1970 in UTC in *s; -1 when it is not that. */
int logex_time(const char *t, double *s)
{
	int y, mo, d, h, mi, sec, n = 0, tzh, tzm;
	long days, frac = 0, scale = 1;
	char sign;
	const char *p;

	if (!t || sscanf(t, "%4d-%2d-%2d %2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec, &n) != 6 || n != 19)
		return -1;
	p = t + n;
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++)
			if (scale < 1000000000L) {
				frac = frac * 10 + (*p - '0');
				scale *= 10;
			}
	}
	if ((*p != '+' && *p != '-') || sscanf(p + 1, "%2d%2d", &tzh, &tzm) != 2 || strlen(p) != 5)
		return -1;
	sign = *p;
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
		return -1;
	/* days from 1970-01-01 (H. Hinnant's days_from_civil) */
	y -= mo <= 2;
	{
		long era = (y >= 0 ? y : y - 399) / 400;
		long yoe = y - era * 400;
		long doy = (153L * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
		long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

		days = era * 146097 + doe - 719468;
	}
	*s = (double)days * 86400.0 + h * 3600.0 + mi * 60.0 + sec + (double)frac / (double)scale -
	     (sign == '-' ? -1.0 : 1.0) * (tzh * 3600.0 + tzm * 60.0);
	return 0;
}

/* The path a step's line carries, newly allocated, or NULL: "GK process
 * assessment: PATH <-- (…)"; "PST: (path: PATH), (team: …" (a path, or on
 * newer releases a hash of one, docs/macos.md §4); "…,file://URL" (GK
 * Xprotect results), percent-decoded, without a trailing "/".  A path
 * logged as <private> is none. */
char *logex_path(const char *msg)
{
	const char *a, *b;
	char *p = NULL;

	if ((a = strstr(msg, "GK process assessment: ")) != NULL) {
		a += strlen("GK process assessment: ");
		b = strstr(a, " <-- ");
		if (b)
			p = xasprintf("%.*s", (int)(b - a), a);
	} else if ((a = strstr(msg, "PST: (path: ")) != NULL) {
		a += strlen("PST: (path: ");
		b = strstr(a, "), (team: ");
		if (!b)
			b = strchr(a, ')');
		if (b)
			p = xasprintf("%.*s", (int)(b - a), a);
	} else if (strstr(msg, "GK Xprotect results") && (a = strstr(msg, "file://")) != NULL) {
		size_t i, j, n;

		a += strlen("file://");
		n = strcspn(a, ",");
		p = xmalloc(n + 1);
		for (i = j = 0; i < n; i++) {
			unsigned hi, lo;

			if (a[i] == '%' && i + 2 < n && sscanf(a + i + 1, "%1x%1x", &hi, &lo) == 2 &&
			    (hi << 4 | lo) != 0) {
				p[j++] = (char)(hi << 4 | lo);
				i += 2;
			} else {
				p[j++] = a[i];
			}
		}
		while (j > 1 && p[j - 1] == '/')
			j--;
		p[j] = '\0';
	}
	if (p && (!p[0] || strstr(p, "<private>"))) {
		free(p);
		p = NULL;
	}
	return p;
}
