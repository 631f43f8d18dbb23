/* logexcerpt.c - the one reader of the unified log's excerpts
 * (logexcerpt.h). */
#define _POSIX_C_SOURCE 200809L
#include "logexcerpt.h"
#include "tabfile.h"
#include "util.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


int logex_status(const char *path, char *result, size_t rlen, char *message, size_t mlen)
{
	struct tabfile t;
	const char *v;
	int rc;

	result[0] = message[0] = '\0';
	rc = tabfile_read(path, "execlag-log\t1", &t);
	if (rc == -1)
		return errno == ENOENT ? 1 : -1;
	if (rc != 0)
		return -2;
	if ((v = tabfile_get(&t, "result")) != NULL)
		snprintf(result, rlen, "%.*s", (int)strcspn(v, "\t"), v);
	if ((v = tabfile_get(&t, "message")) != NULL)
		snprintf(message, mlen, "%.*s", (int)strcspn(v, "\t"), v);
	tabfile_free(&t);
	return result[0] ? 0 : -2;
}

struct each_event {
	void (*fn)(const struct logex_event *ev, void *ctx);
	void *ctx;
	struct logex_counts *counts;
};

/* One line of the excerpt: an event (a JSON object) handed on. */
static int one_event(char *line, void *arg)
{
	struct each_event *e = arg;
	struct logex_event ev;
	json_t *o;

	e->counts->lines++;
	if (!line[0])
		return 0;
	o = json_loads(line, 0, NULL);
	if (!json_is_object(o)) {
		e->counts->unreadable++;
		json_decref(o);
		return 0;
	}
	e->counts->events++;
	ev.message = json_string_value(json_object_get(o, "eventMessage"));
	ev.image = json_string_value(json_object_get(o, "processImagePath"));
	ev.timestamp = json_string_value(json_object_get(o, "timestamp"));
	e->fn(&ev, e->ctx);
	json_decref(o);
	return 0;
}

int logex_each(const char *path, void (*fn)(const struct logex_event *ev, void *ctx), void *ctx,
	       struct logex_counts *counts)
{
	struct each_event e;

	memset(counts, 0, sizeof *counts);
	e.fn = fn;
	e.ctx = ctx;
	e.counts = counts;
	return each_line(path, one_event, &e);
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
