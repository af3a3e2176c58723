#include "text.h"

#include <stdio.h>
#include <string.h>

int has_line(const char *s, const char *a, const char *b)
{
	for (const char *line = s; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *pa = strstr(line, a), *pb = strstr(line, b);
		if (pa && pb && pa < line + len && pb < line + len)
			return 1;
		line = end ? end + 1 : NULL;
	}
	return 0;
}

const char *first_new_line(const char *before, const char *after)
{
	static char line[1024];
	while (*after) {
		size_t l = strcspn(after, "\n");
		snprintf(line, sizeof line, "%.*s", (int)l, after);
		int found = 0;
		for (const char *p = before; (p = strstr(p, line)); p++)
			if ((p == before || p[-1] == '\n') && (p[l] == '\n' || !p[l])) {
				found = 1;
				break;
			}
		if (!found)
			return line;
		after += l;
		if (*after)
			after++;
	}
	return NULL;
}
