/* looksmeta.c - the one parser of a "meta looks" value (looksmeta.h). */
#include "looksmeta.h"
#include "util.h"

#include <string.h>

int looks_meta_parse(const char *s, long v[LOOKS_META_MAX], int *planned)
{
	long x, last = 0;
	int k = 0;

	*planned = -1;
	while (*s) {
		char num[24];
		size_t len = strcspn(s, ",+");

		if (len == 0 || len >= sizeof num || k >= LOOKS_META_MAX)
			return -1;
		memcpy(num, s, len);
		num[len] = '\0';
		if (parse_long(num, 1, 100000000, &x) != 0 || x <= last)
			return -1;
		v[k++] = last = x;
		s += len;
		if (*s == '+') {
			if (*planned >= 0 || *++s == '\0')
				return -1;
			*planned = k;
			continue;
		}
		if (*s == ',' && *++s == '\0')
			return -1;
	}
	if (*planned < 0)
		*planned = k;
	return k > 0 ? k : -1;
}

int looks_count(const char *s)
{
	long v[LOOKS_META_MAX];
	int kp;

	return looks_meta_parse(s, v, &kp);
}

int looks_planned(const char *s)
{
	long v[LOOKS_META_MAX];
	int kp;

	return looks_meta_parse(s, v, &kp) < 0 ? -1 : kp;
}
