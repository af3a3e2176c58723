#include "stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long ld_stat(const char *err, const char *when, const char *key)
{
	char tag[64], k[64];
	if (when)
		snprintf(tag, sizeof tag, "statistics (%s):", when);
	else
		snprintf(tag, sizeof tag, "statistics (");
	snprintf(k, sizeof k, " %s=", key);
	long val = -1;
	for (const char *line = err; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *t = strstr(line, tag);
		if (t && t < line + len) {
			const char *p = strstr(t, k);
			if (p && p < line + len)
				val = strtol(p + strlen(k), NULL, 10);
		}
		line = end ? end + 1 : NULL;
	}
	return val;
}
